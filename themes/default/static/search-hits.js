/* Proceedings search: finding and showing a query's results, for a volume's box and a series' alike.
   search.js (the box, on every page) injects this file with lunr.js and search-shards.js when a reader
   first searches, so a page that is only read never loads it; it adds to search.js's SearchBox the
   methods that run a query (searchVolume, searchVolumes) and show its results a step at a time
   (paging, the search page's "Show more results"). Results are built as DOM nodes filled with
   textContent, never innerHTML; a title's formulas are MathML elements built from checked names. */
(function () {
  "use strict";

  var Q = globalThis.proceedingsQuery;
  var shared = globalThis.proceedingsSearchBox;
  var SearchBox = shared.SearchBox, ROOT = shared.ROOT, el = shared.el, say = shared.say;
  var countText = shared.countText, loadIndex = shared.loadIndex;
  var AHEAD = "0px 0px 600px 0px";  // the next results load when "Show more" comes within this of the window

  /* Resolves after the next frame is painted: between two volumes' results the reader sees the
     results so far, instead of a page busy until the last volume. */
  function painted() {
    return new Promise(function (resolve) {
      requestAnimationFrame(function () { setTimeout(resolve, 0); });
    });
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


  /* A series' count, and how many of its volumes' sections are filled (each loads its own records). */
  function seriesText(count, query, done, volumes, answer, first) {
    var found = answer ? foundText(count, query, "", answer, first)
                       : say(count ? "matches" : "none", { count: count, query: query });
    var progress = done < volumes ? say("searched_some", { count: volumes, done: done })
                                  : say("searched", { count: volumes });
    return found + " " + progress;
  }


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


  /* After a step, `shown` of `count` results: the dropdown links to the search page for the rest; the
     page offers the next step (`step`, Promise of its first item) to its "Show more results" button and to
     the reader scrolling near it. */
  SearchBox.prototype.paging = function (count, shown, step) {
    if (!this.page) return this.moreLink(count);
    if (!this.button) this.makeMore();
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
    var box = this, button = this.button = this.more.appendChild(el("button", "search-more-button", say("more")));
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
})();
