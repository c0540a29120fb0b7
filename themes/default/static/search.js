/* Proceedings search: the search box and its results, the same for a volume and for a series.
   Small and loaded on every page, with the query code (search-query.js). lunr.js, the sharded
   index's engine (search-shards.js), the code that finds and shows results (search-hits.js) and the index, cut into small scripts under assets/search/
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

  /* lunr.js (the query code stems words with lunr's stemmer, the shards build a lunr.Index),
     search-shards.js and search-hits.js (finding and showing the results: SearchBox's searchVolume,
     searchVolumes and paging), injected together when a reader first searches: none loads with the page. */
  function loadEngine() {
    if (!engineLoading) {
      engineLoading = Promise.all([inject(new URL("assets/lunr.js", ROOT).href),
                                   inject(new URL("assets/search-shards.js", ROOT).href),
                                   inject(new URL("assets/search-hits.js", ROOT).href)]).catch(function () {
        throw loadingError("assets/lunr.js");
      });
      engineLoading.catch(function () { engineLoading = null; });  // the next try loads them again
    }
    return engineLoading;
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

  SearchBox.prototype.replaceList = function (list) {
    this.list.replaceWith(list);
    this.list = list;
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

  /* What search-hits.js builds on: it adds the methods that find and show results to SearchBox. */
  globalThis.proceedingsSearchBox = {
    SearchBox: SearchBox, ROOT: ROOT, el: el, say: say, countText: countText, loadIndex: loadIndex,
  };

  function init() {
    var form = document.querySelector("form[data-search]");
    if (!form || !Q) return;
    loadMessages(form);
    new SearchBox(form).start();
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", init);
  else init();
})();
