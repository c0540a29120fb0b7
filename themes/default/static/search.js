/* Proceedings search: the search box and its results, the same for a volume and for a series.
   Small and loaded on every page, with the query code (search-query.js). lunr.js, the sharded
   index's engine (search-shards.js) and the index, cut into small scripts under assets/search/
   (see generator/search/shards.py), are injected only when a reader starts searching, and then
   only the files a query needs: the manifest, the term shards its words can match, the display
   blocks of the results shown (on the search page 20 at a time, more as the reader scrolls or
   asks: search-query.js nextStep), and every paper's tags when a topic is chosen. A volume's box
   searches its own index; a series' box (a form with data-volumes) searches the series' own index
   over every volume (generator/search/series.py) and shows each volume's results from that
   volume's display blocks, in order (newest first).
   Works from file:// (scripts, never fetch). No inline script or handler anywhere, so a
   Content-Security-Policy of script-src 'self' holds, and DOM nodes are only ever filled with
   textContent, never innerHTML. */
(function () {
  "use strict";

  var Q = globalThis.proceedingsQuery;
  var script = document.currentScript;
  var ROOT = new URL("../", script.src);
  var DROPDOWN_LIMIT = 8;  // results the dropdown shows, with a link to the search page for the rest
  var PAGE_STEP = 20;  // results the search page shows first, and then at each scroll or "Show more results"
  var PAUSE_ON_LETTER = 500;  // ms: a reader who stops on "n" wants "n"; one typing on never waits for it
  var AHEAD = "0px 0px 600px 0px";  // the next results load when "Show more" comes within this of the window

  // Loading ------------------------------------------------------------------

  function inject(url, async) {
    return new Promise(function (resolve, reject) {
      var tag = document.createElement("script");
      tag.src = url;
      tag.async = !!async;
      tag.onload = resolve;
      tag.onerror = function () { reject(new Error("could not load " + url)); };
      document.head.appendChild(tag);
    });
  }

  /* Every file of every volume's index calls proceedingsShards.arrived(name, data) as it runs;
     which file it is is told by document.currentScript (set while a classic script runs), so two
     volumes' "manifest" never mix. */
  var arrivals = Object.create(null);  // script URL → resolve of the load waiting for its data

  globalThis.proceedingsShards = {
    arrived: function (name, data) {
      var current = document.currentScript, url = current && current.src;
      var resolve = url && arrivals[url];
      if (!resolve) return;
      delete arrivals[url];
      resolve(data);
    },
  };

  function loadingError(url) {
    var error = new Error("could not load " + url);
    error.loading = true;  // the files did not come (say "unavailable"), not a query that failed
    return error;
  }

  /* A volume's loader for search-shards.js: name ("manifest", "t3", "d0", "tags") → Promise of
     the data of <root>/assets/search/<name>.js. */
  function shardLoader(root) {
    return function (name) {
      var url = new URL("assets/search/" + name + ".js", root).href;
      return new Promise(function (resolve, reject) {
        arrivals[url] = resolve;
        inject(url, true).then(function () {
          if (arrivals[url] !== resolve) return;  // its data arrived
          delete arrivals[url];
          reject(loadingError(url));
        }, function () {
          if (arrivals[url] === resolve) delete arrivals[url];
          reject(loadingError(url));
        });
      });
    };
  }

  var engineLoading = null;

  /* lunr.js (the query code stems words with lunr's stemmer, the shards build a lunr.Index) and
     search-shards.js, injected together when a reader first searches: neither loads with the page. */
  function loadEngine() {
    if (!engineLoading) {
      engineLoading = Promise.all([inject(new URL("assets/lunr.js", ROOT).href),
                                   inject(new URL("assets/search-shards.js", ROOT).href)]).catch(function () {
        throw loadingError("assets/lunr.js");
      });
      engineLoading.catch(function () { engineLoading = null; });  // the next try loads them again
    }
    return engineLoading;
  }

  /* Resolves after the next frame is painted: between two volumes' results the reader sees the
     results so far, instead of a page busy until the last volume. */
  function painted() {
    return new Promise(function (resolve) {
      requestAnimationFrame(function () { setTimeout(resolve, 0); });
    });
  }

  // A volume's root → Promise of its index (whose Shards keeps the files it loaded); no
  // prototype, so that no key (a volume named toString or constructor) finds a value nobody stored.
  var volumes = Object.create(null);

  /* A volume's index, ready to query: Promise of {shards, manifest}, the engine loaded too. The
     manifest loads beside the engine, not after it, and is handed to the Shards made once both came. */
  function loadIndex(shelf) {
    var key = shelf.root.href;
    if (!volumes[key]) {
      var load = shardLoader(shelf.root), manifest = load("manifest");
      var ready = Promise.all([loadEngine(), manifest]).then(function (loaded) {
        var shards = new globalThis.proceedingsShardedSearch.Shards(load);
        shards.files.manifest = manifest;
        return { shards: shards, manifest: loaded[1] };
      });
      volumes[key] = ready;
      ready.catch(function () { if (volumes[key] === ready) delete volumes[key]; });  // tried again next time
    }
    return volumes[key];
  }

  /* The refs of a volume's papers that the words find (all its papers for no words), in lunr's
     order, kept as Q.find keeps them; with a topic (its number, or -1 for none) only that topic's,
     told by the volume's tags file, loaded only then. */
  function findHits(search, words, tag) {
    var found;
    if (words.length) {
      found = Q.search(search.shards, words);  // a word that finds nothing is tried again within one edit
    } else {
      var all = [];
      for (var n = 0; n < search.manifest.documents; n++) all.push(n);
      found = Promise.resolve({ hits: all, words: words, fixed: [] });
    }
    if (tag < 0) return found;
    return Promise.all([found, search.shards.file("tags")]).then(function (both) {
      var tags = both[1], got = both[0];
      return { hits: got.hits.filter(function (n) { return tags[n].indexOf(tag) >= 0; }), words: got.words,
               fixed: got.fixed };
    });
  }

  /* What the status says of `count` results: with a word tried again, what was asked instead of what
     was typed ("No paper matches “agnostc”; 3 papers match “agnostic”"), the first result's display
     record (if it has come) telling how the word is written. */
  function foundText(count, query, tagName, found, first) {
    if (!found.fixed.length || !count) return countText(count, query, tagName);
    var text = first ? [first[0], first[4].join(" "), first[3]].join(" ") : "";
    return say("corrected", { count: count, query: Q.correctedQuery(query, found.fixed, text), typed: query });
  }

  /* What a box searches: shelves of {root, path, title}: the volume itself, or a series' volumes
     as the form's data-volumes lists them (newest first). */
  function shelvesOf(form) {
    var volumes = form.getAttribute("data-volumes");
    if (!volumes) return [{ root: ROOT, path: "", title: "" }];
    return JSON.parse(volumes).map(function (v) {
      return { root: new URL((v.href || v.path) + "/", ROOT), path: v.path, title: v.title };
    });
  }

  // Rendering -----------------------------------------------------------------

  function el(name, className, text) {
    var node = document.createElement(name);
    if (className) node.className = className;
    if (text) node.textContent = text;
    return node;
  }

  /* Text with the words the query matched wrapped in <mark>. */
  function marked(parent, text, words) {
    var at = 0;
    Q.markedRanges(text, words).forEach(function (range) {
      parent.appendChild(document.createTextNode(text.slice(at, range[0])));
      parent.appendChild(el("mark", "", text.slice(range[0], range[1])));
      at = range[1];
    });
    parent.appendChild(document.createTextNode(text.slice(at)));
    return parent;
  }

  /* A title with math comes with its formulas as trees of [tag, attributes, children]
     (generator/latex/tree.py), built here as MathML elements: names and attributes are
     checked again, text goes in as text nodes, and words outside formulas are marked. */
  var MATHML = "http://www.w3.org/1998/Math/MathML";
  var MATH_TAG = /^(m[a-z]+|semantics|annotation|none|mprescripts)$/;
  var UNSAFE_ATTRIBUTE = /^(on|href|src|style|xlink)/i;

  function typeset(parent, nodes, words) {
    nodes.forEach(function (node) {
      if (typeof node === "string") {
        if (parent.namespaceURI === MATHML) parent.appendChild(document.createTextNode(node));
        else marked(parent, node, words);
        return;
      }
      if (!MATH_TAG.test(node[0])) return;
      var element = document.createElementNS(MATHML, node[0]);
      Object.keys(node[1]).forEach(function (name) {
        if (!UNSAFE_ATTRIBUTE.test(name)) element.setAttribute(name, node[1][name]);
      });
      parent.appendChild(typeset(element, node[2], words));
    });
    return parent;
  }

  /* The first authors' names, the words found in them marked, and "et al. (N more)" for the rest. */
  function authorLine(names, more, words) {
    var line = marked(el("p", "search-hit-authors"), names.join(", "), words);
    if (more) line.appendChild(document.createTextNode(" " + say("et_al", { count: more })));
    return line;
  }

  /* doc: a display record, [title, url, tag numbers, snippet, first authors' names, how many more,
     title with math as a tree (if any)]; tags: the volume's [name, url] by tag number (its manifest's). */
  function renderHit(doc, tags, words, root) {
    var item = el("li", "search-hit");
    var link = doc[6] ? typeset(el("a", "search-hit-title"), doc[6], words)
                      : marked(el("a", "search-hit-title"), doc[0], words);
    link.href = new URL(doc[1], root).href;
    item.appendChild(link);
    if (doc[4].length) item.appendChild(authorLine(doc[4], doc[5], words));
    if (doc[3]) item.appendChild(marked(el("p", "search-hit-snippet"), doc[3], words));
    if (doc[2].length) {
      var chips = item.appendChild(el("ul", "tags search-hit-tags"));
      doc[2].forEach(function (t) {
        var name = tags[t][0], url = tags[t][1];
        var chip = chips.appendChild(el("li")).appendChild(el(url ? "a" : "span", "tag", name));
        if (url) chip.href = new URL(url, root).href;
      });
    }
    // Its reading list button (reading-list.js), for the paper the result leads to.
    var reading = globalThis.proceedingsReadingList, toggle = reading && reading.buttonFor(link.href);
    if (toggle) item.appendChild(toggle);
    return item;
  }

  // Interface text --------------------------------------------------------------

  /* The page's words come from the message catalogue: a volume's from assets/search-messages.js
     (proceedingsSearchMessages, written once by the build and loaded before this script), a series'
     as JSON in the form's data-messages (written by _search.html). "{name}" marks a value filled in
     here; a counted message has a form per CLDR plural category of the interface language. */
  var MESSAGES = {};
  var PLURALS = null;

  function loadMessages(form) {
    var inline = form.getAttribute("data-messages");
    try {
      MESSAGES = inline ? JSON.parse(inline) : globalThis.proceedingsSearchMessages || {};
    } catch (e) {
      MESSAGES = {};
    }
    try { PLURALS = new Intl.PluralRules(MESSAGES.language || "en"); } catch (e) { PLURALS = null; }
  }

  function say(key, values) {
    var message = MESSAGES[key] || "";
    if (typeof message === "object") {
      var category = PLURALS ? PLURALS.select(values.count) : "other";
      message = message[category] || message.other || "";
    }
    return message.replace(/\{(\w+)\}/g, function (all, name) {
      return Object.prototype.hasOwnProperty.call(values || {}, name) ? String(values[name]) : all;
    });
  }

  function countText(count, query, tagName) {
    var values = { count: count, query: query, topic: tagName };
    if (!count) return say(tagName ? "none_in" : "none", values);
    if (!query) return say("in_topic", values);
    return say(tagName ? "matches_in" : "matches", values);
  }

  /* A series' count, and how many of its volumes' sections are filled (each loads its own records). */
  function seriesText(count, query, done, volumes, answer, first) {
    var found = answer ? foundText(count, query, "", answer, first)
                       : say(count ? "matches" : "none", { count: count, query: query });
    var progress = done < volumes ? say("searched_some", { count: volumes, done: done })
                                  : say("searched", { count: volumes });
    return found + " " + progress;
  }

  // The search box --------------------------------------------------------------

  /* A volume's panel (a series' is in its page, with the volumes to choose from): made here, not written
     in every page (issue 29: 450 bytes a page); without scripts the form leads to search.html. The topic
     filter shows once the index's manifest has filled it. */
  function makePanel(form, input) {
    var panel = el("div", "search-panel");
    panel.id = "search-panel";
    panel.hidden = true;
    var filter = panel.appendChild(el("p", "search-filter"));
    filter.hidden = true;
    var label = filter.appendChild(el("label", "", say("topic")));
    label.htmlFor = "search-tag";
    var select = filter.appendChild(el("select"));
    select.id = "search-tag";
    select.name = "tag";
    select.setAttribute("form", form.id);  // the search page moves the panel out of the form
    select.appendChild(el("option", "", say("all_topics"))).value = "";
    var status = panel.appendChild(el("p", "search-status"));
    status.setAttribute("role", "status");
    status.setAttribute("aria-live", "polite");
    panel.appendChild(el("ol", "search-results"));
    panel.appendChild(el("p", "search-more")).hidden = true;
    panel.lastChild.appendChild(el("a"));
    form.appendChild(panel);
    input.setAttribute("aria-controls", panel.id);
    return panel;
  }

  function SearchBox(form) {
    this.form = form;
    this.input = form.querySelector("input[name=q]");
    this.panel = form.querySelector(".search-panel") || makePanel(form, this.input);
    this.select = this.panel.querySelector("select");  // a topic (volume) or a volume (series)
    this.status = this.panel.querySelector(".search-status");
    this.list = this.panel.querySelector(".search-results");
    this.more = this.panel.querySelector(".search-more");
    this.shelves = shelvesOf(form);
    this.series = form.hasAttribute("data-volumes");
    this.page = document.querySelector("[data-search-page]");
    if (this.page) this.page.appendChild(this.panel);  // the search page shows it in full
    this.step = this.page ? PAGE_STEP : DROPDOWN_LIMIT;
    this.next = null;  // the page's next step, while some results are not shown
    if (this.page) this.makeMore();
    this.pending = 0;
    this.runs = 0;  // a result that arrives for an older query is dropped
  }

  SearchBox.prototype.start = function () {
    var box = this;
    this.input.addEventListener("focus", function () {
      if (box.input.value.trim()) box.run(); else box.prepare();
    });
    this.input.addEventListener("input", function () { box.schedule(); });
    this.select.addEventListener("change", function () { box.run(); });
    this.form.addEventListener("submit", function (event) {
      if (box.page) { event.preventDefault(); box.run(); }
    });
    // Close when focus or a click goes elsewhere. Not on every focusout: Safari
    // does not focus a clicked link, so that would close before the click lands.
    this.form.addEventListener("focusout", function (event) {
      if (event.relatedTarget && !box.form.contains(event.relatedTarget)) box.close();
    });
    document.addEventListener("pointerdown", function (event) {
      if (!box.form.contains(event.target) && !box.panel.contains(event.target)) box.close();
    });
    document.addEventListener("keydown", function (event) { box.onKey(event); });
    window.addEventListener("resize", function () { box.place(); });
    this.restore();
  };

  /* On focus: lunr and the index's manifest load (a volume's fills the topic filter; a series' is
     its own index, across its volumes). */
  SearchBox.prototype.prepare = function () {
    var box = this;
    var ready = this.series ? loadIndex({ root: ROOT }) : loadIndex(this.shelves[0]).then(function (search) {
      box.fillTags(search.manifest);
    });
    return ready.then(function () { return true; }, function () {
      box.show(say("unavailable"));
      return false;
    });
  };

  SearchBox.prototype.fillTags = function (data) {  // data: a manifest ({tags: [[name, url], …], …})
    if (this.select.options.length > 1) return;
    var wanted = this.select.getAttribute("data-wanted") || "";
    var select = this.select;
    data.tags.forEach(function (tag) {
      var option = select.appendChild(el("option", "", tag[0]));
      option.value = tag[0];
      if (tag[0] === wanted) option.selected = true;
    });
    select.closest(".search-filter").hidden = false;
  };

  /* A key typed: the query runs once the keys pause for 60 ms, or for PAUSE_ON_LETTER when it ends
     in a lone letter ("graph n"), which the next key most likely makes a word (search-query.js). */
  SearchBox.prototype.schedule = function () {
    var box = this;
    clearTimeout(this.pending);
    var wait = Q.unfinishedLetter(this.input.value) ? PAUSE_ON_LETTER : 60;
    this.pending = setTimeout(function () { box.run(); }, wait);
  };

  SearchBox.prototype.run = function () {
    var box = this, id = ++this.runs;
    var query = this.input.value.trim(), filter = this.select.value;
    this.remember(query, filter);
    // A topic alone lists its papers; a volume alone has its own home page for that.
    if (!query && (this.series || !filter)) return this.clear();
    if (!this.list.childElementCount) this.show(say("loading"));
    this.next = null;  // the last query's next step is not taken (its own step would drop it, after loading)
    this.prepare().then(function (ready) {
      if (!ready || id !== box.runs) return;
      var words = Q.queryWords(Q.fromLatex(query));
      if (box.series) box.searchVolumes(id, query, filter, words);
      else box.searchVolume(id, query, filter, words);
    });
  };

  SearchBox.prototype.searchVolume = function (id, query, tagName, words) {
    var box = this, shelf = this.shelves[0];
    loadIndex(shelf).then(function (search) {
      if (id !== box.runs) return;
      var tags = search.manifest.tags;
      var tag = tags.findIndex(function (t) { return t[0] === tagName; });
      return findHits(search, words, tag).then(function (found) {
        if (id !== box.runs) return;
        var run = { hits: found.hits, shown: 0 }, list = el("ol", "search-results");
        /* The next step's results, each shown as its block comes (in rank order): Promise of the
           first one's item. The first step replaces the last query's results when its first come. */
        function step() {
          var refs = Q.nextStep([run], box.step)[0], added = [], placed = run.shown > 0;
          run.shown += refs.length;
          function shown(records) {
            if (id !== box.runs) return;
            records.slice(added.length).forEach(function (doc) {
              added.push(list.appendChild(renderHit(doc, tags, found.words, shelf.root)));
            });
            if (placed) return;
            placed = true;
            box.replaceList(list);
            box.show(foundText(run.hits.length, query, tagName, found, records[0]));
          }
          return search.shards.records(refs, shown).then(shown).then(function () {
            if (id === box.runs) box.paging(run.hits.length, run.shown, step);
            return added[0];
          });
        }
        return step();
      });
    }).catch(function (error) {
      if (id !== box.runs) return;
      // A reader should never be left with a dead box: files that did not come, or a query that failed.
      box.show(error && error.loading ? say("unavailable") : say("failed", { query: query }));
    });
  };

  /* The volumes wanted, each a section in volume order. The series' own index (at its root:
     generator/search/series.py) finds the hits of every volume at once, in one lunr ranking, so every
     volume's count is told at once; each step (nextStep, across volumes) shows the next results from
     each volume's own display blocks, filled in volume order with a frame painted between two. A
     volume not shown in full links to its own search. */
  SearchBox.prototype.searchVolumes = function (id, query, volume, words) {
    var box = this, total = 0, failed = false, answer = null, firstRecord = null;
    var wanted = this.shelves.filter(function (s) { return !volume || s.path === volume; });
    var list = el("div", "search-results search-volumes");
    var runs = wanted.map(function (shelf) {
      var section = list.appendChild(el("section", "search-volume"));
      section.setAttribute("data-volume", shelf.path);
      return { shelf: shelf, section: section, hits: [], shown: 0 };
    });
    this.replaceList(list);
    function said(error) {  // the series' index: no volume can answer (said once, not per volume)
      failed = true;
      if (id === box.runs) box.show(error && error.loading ? say("unavailable") : say("failed", { query: query }));
    }
    /* The next step: Promise of the first new result's item. The first step says how far it has got. */
    function step() {
      var picked = Q.nextStep(runs, box.step), turn = Promise.resolve(), added = [], done = 0;
      var opening = !runs.some(function (run) { return run.shown; });
      runs.forEach(function (run, n) {
        var refs = picked[n], from = run.shown;
        run.shown += refs.length;
        var records = !refs.length ? Promise.resolve({ records: [], tags: [] }) : loadIndex(run.shelf).then(
          function (search) {
            return search.shards.records(refs).then(function (loaded) {
              return { records: loaded, tags: search.manifest.tags };
            });
          });
        records.catch(function () {});  // told in its turn
        turn = turn.then(function () {
          return n && refs.length ? painted() : null;
        }).then(function () { return records; }).then(function (got) {
          if (id !== box.runs) return;
          firstRecord = firstRecord || got.records[0] || null;
          var items = box.fillVolume(run, from, got.tags, got.records, answer.words);
          if (items.length && !added.length) added.push(items[0]);
        }).catch(function () {
          if (id === box.runs) {
            run.section.appendChild(el("p", "search-error", say("volume_failed", { volume: run.shelf.title })));
          }
        }).then(function () {
          if (id !== box.runs || !opening) return;
          done += 1;
          box.show(seriesText(total, query, done, runs.length, answer, firstRecord));
        });
      });
      return turn.then(function () {
        if (id === box.runs) box.paging(total, runs.reduce(function (sum, run) { return sum + run.shown; }, 0), step);
        return added[0];
      });
    }
    loadIndex({ root: ROOT }).then(function (series) {
      if (id !== box.runs) return null;
      return findHits(series, words, -1).then(function (got) {
        if (id !== box.runs) return;
        answer = got;
        var hits = byVolume(series.manifest, got.hits);
        runs.forEach(function (run) {
          run.hits = hits[run.shelf.path] || [];
          total += run.hits.length;
        });
        return step();
      });
    }).catch(function (error) { if (!failed) said(error); });
  };

  /* A series' hits (refs of its index, in lunr's order) as each volume's own refs, by volume path:
     the series' manifest says where each volume's papers start. */
  function byVolume(manifest, hits) {
    var runs = manifest.volumes, starts = runs.map(function (run) { return run[1]; }), found = Object.create(null);
    hits.forEach(function (ref) {
      var lo = 0, hi = runs.length - 1;
      while (lo < hi) {  // the last run starting at or before ref
        var mid = (lo + hi + 1) >> 1;
        if (starts[mid] <= ref) lo = mid; else hi = mid - 1;
      }
      var run = runs[lo];
      (found[run[0]] || (found[run[0]] = [])).push(ref - run[1]);
    });
    return found;
  }

  /* A volume's section: its heading and count once it has results, then `records` (the display records of
     its results from `from` on) added at each step, and a link to the volume's own search while some
     are not shown. The items added. */
  SearchBox.prototype.fillVolume = function (run, from, tags, records, words) {
    var section = run.section, shelf = run.shelf, count = run.hits.length;
    if (!count) return [];
    var list = section.querySelector(".search-volume-hits");
    if (!list) {
      var heading = section.appendChild(el("h2", "search-volume-title"));
      heading.appendChild(el("a", "", shelf.title)).href = new URL("index.html", shelf.root).href;
      heading.appendChild(el("span", "tag-count", String(count)));
      list = section.appendChild(el("ol", "search-volume-hits"));
    }
    var items = records.map(function (doc) { return list.appendChild(renderHit(doc, tags, words, shelf.root)); });
    var all = section.querySelector(".search-volume-more");
    if (all && from + records.length >= count) all.remove();
    if (!all && from + records.length < count) {
      var url = new URL("search.html", shelf.root);
      url.searchParams.set("q", this.input.value.trim());
      section.appendChild(el("p", "search-volume-more")).appendChild(el("a", "",
        say("all_in_volume", { count: count, volume: shelf.title }))).href = url.href;
    }
    return items;
  };

  SearchBox.prototype.replaceList = function (list) {
    this.list.replaceWith(list);
    this.list = list;
  };

  /* After a step, `shown` of `count` results: the dropdown links to the search page for the rest; the
     page offers the next step (`step`, Promise of its first item) to its "Show more results" button and to
     the reader scrolling near it. */
  SearchBox.prototype.paging = function (count, shown, step) {
    if (!this.page) return this.moreLink(count);
    this.next = shown < count ? step : null;
    this.more.hidden = !this.next;
    if (this.next && this.watch) {  // observed afresh: it may still be in view after the step
      this.watch.unobserve(this.more);
      this.watch.observe(this.more);
    }
  };

  /* The search page's "Show more results": a button (keyboard, screen readers, a browser without
     IntersectionObserver), and the same step taken when the reader scrolls near it. */
  SearchBox.prototype.makeMore = function () {
    var box = this, button = this.more.appendChild(el("button", "search-more-button", say("more")));
    button.type = "button";
    this.more.querySelector("a").hidden = true;
    button.addEventListener("click", function () { box.showMore(true); });
    if (!("IntersectionObserver" in window)) return;
    this.watch = new IntersectionObserver(function (entries) {
      if (entries[entries.length - 1].isIntersecting) box.showMore(false);
    }, { rootMargin: AHEAD });
    this.watch.observe(this.more);
  };

  /* The next step, once at a time; asked by the button, focus goes to the first new result (the button
     would else be left where the reader was, or hidden after the last step). */
  SearchBox.prototype.showMore = function (focus) {
    var box = this, id = this.runs, step = this.next;
    if (!step || this.more.hidden || this.stepping === id) return;
    this.stepping = id;
    step().then(function (first) {
      if (box.stepping === id) box.stepping = 0;
      var link = first && first.querySelector(".search-hit-title");
      if (focus && link && id === box.runs) link.focus();
    }, function () { if (box.stepping === id) box.stepping = 0; });
  };

  SearchBox.prototype.moreLink = function (count) {
    var rest = count > this.step;
    this.more.hidden = !rest;
    if (!rest) return;
    var link = this.more.querySelector("a");
    var url = new URL("search.html", ROOT);
    url.searchParams.set("q", this.input.value.trim());
    if (this.select.value) url.searchParams.set(this.select.name, this.select.value);
    link.href = url.href;
    link.textContent = say("show_all", { count: count });
  };

  SearchBox.prototype.show = function (message) {
    // A volume's results that arrive after Escape closed the dropdown fill it, but do not open it again.
    if (this.dismissed !== this.runs) this.panel.hidden = false;
    this.status.textContent = message;
    this.place();
  };

  /* The dropdown hangs from the box's right edge; where the header wrapped and left the box
     near the left of the window, it would run off the left edge: it hangs from the header's
     left edge instead (search.css). A class, not a style attribute: the CSP allows no inline style. */
  SearchBox.prototype.place = function () {
    this.form.classList.remove("search-wrapped");
    if (this.page || this.panel.hidden) return;
    if (this.panel.getBoundingClientRect().left < 0) this.form.classList.add("search-wrapped");
  };

  SearchBox.prototype.clear = function () {
    this.list.textContent = "";
    this.status.textContent = "";
    this.more.hidden = true;
    this.next = null;
    this.close();
  };

  SearchBox.prototype.close = function () {
    if (!this.page) this.panel.hidden = true;
    this.place();
  };

  /* On the search page the address keeps the query, so reload and sharing work. */
  SearchBox.prototype.remember = function (query, filter) {
    if (!this.page) return;
    var url = new URL(location.href);
    url.search = "";
    if (query) url.searchParams.set("q", query);
    if (filter) url.searchParams.set(this.select.name, filter);
    try { history.replaceState(null, "", url.href); } catch (e) { /* some file:// setups refuse */ }
  };

  SearchBox.prototype.restore = function () {
    var params = new URLSearchParams(location.search);
    var query = params.get("q") || "", filter = params.get(this.select.name) || "";
    if (!query && !filter) return;
    this.input.value = query;
    this.select.setAttribute("data-wanted", filter);  // a volume's topics are filled in by prepare
    if (this.series) this.select.value = filter;
    var box = this;
    this.prepare().then(function () { box.run(); });
  };

  // Keyboard: "/" focuses the box; arrows move through results; Enter follows
  // the focused result link natively; Escape closes the dropdown.
  SearchBox.prototype.onKey = function (event) {
    if (event.ctrlKey || event.metaKey || event.altKey) return;
    var target = event.target;
    if (event.key === "/" && !isEditable(target)) {
      event.preventDefault();
      this.input.focus();
      this.input.select();
      return;
    }
    var links = Array.prototype.slice.call(this.list.querySelectorAll(".search-hit-title"));
    var at = target === this.input ? -1 : links.indexOf(target);
    if (at === -1 && target !== this.input) return;
    if (event.key === "ArrowDown" && at + 1 < links.length) {
      event.preventDefault();
      links[at + 1].focus();
    } else if (event.key === "ArrowUp" && at >= 0) {
      event.preventDefault();
      (at === 0 ? this.input : links[at - 1]).focus();
    } else if (event.key === "Escape") {
      this.dismissed = this.runs;
      this.close();
      this.input.focus();
    }
  };

  function isEditable(node) {
    return node.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(node.tagName);
  }

  function init() {
    var form = document.querySelector("form[data-search]");
    if (!form || !Q) return;
    loadMessages(form);
    new SearchBox(form).start();
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", init);
  else init();
})();
