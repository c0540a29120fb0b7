/* Search across the volumes of an archive (archive-search.html). Each volume keeps the
   prebuilt index of its own site (VOLUME/assets/search-index.js); a volume's index is
   injected only when a query needs it — the chosen volume, else every volume newest
   first, each volume's results shown as soon as its index arrives — and kept for the
   next query. The words are matched by the volumes' own query code (search-query.js,
   the query half of search.js). Works from file://: scripts, never fetch(). DOM nodes
   are only ever filled with textContent. */
(function () {
  "use strict";
  var query = globalThis.proceedingsQuery;
  var script = document.currentScript;
  var ROOT = new URL("../", script.src);
  var LIMIT = 50;  // results shown per volume
  var loaded = {};  // volume path → Promise of {data, index}
  var lunrReady = null;

  function inject(url) {
    return new Promise(function (resolve, reject) {
      var tag = document.createElement("script");
      tag.src = url;
      tag.async = false;
      tag.onload = resolve;
      tag.onerror = function () { reject(new Error("could not load " + url)); };
      document.head.appendChild(tag);
    });
  }

  var chain = Promise.resolve();  // one index at a time: each sets the same global

  function loadLunr() {  // the query code stems words with lunr's stemmer
    if (!lunrReady) {
      lunrReady = inject(new URL("assets/lunr.js", ROOT).href);
      lunrReady.catch(function () { lunrReady = null; });
    }
    return lunrReady;
  }

  /* Resolves after the next frame is painted: between two volumes' indexes the reader sees the
     results so far, instead of a page busy parsing until the last volume. */
  function painted() {
    return new Promise(function (resolve) {
      requestAnimationFrame(function () { setTimeout(resolve, 0); });
    });
  }

  function loadVolume(path) {
    if (!loaded[path]) {
      loaded[path] = chain = chain.then(painted).then(loadLunr).then(function () {
        return inject(new URL(path + "/assets/search-index.js", ROOT).href);
      }).then(function () {
        var data = globalThis.proceedingsSearchData;
        globalThis.proceedingsSearchData = undefined;
        return { data: data, index: lunr.Index.load(data.index) };
      });
      loaded[path].catch(function () { delete loaded[path]; chain = Promise.resolve(); });
    }
    return loaded[path];
  }

  function el(name, className, text) {
    var node = document.createElement(name);
    if (className) node.className = className;
    if (text) node.textContent = text;
    return node;
  }

  function Search(form) {
    this.form = form;
    this.input = form.querySelector("input[name=q]");
    this.select = form.querySelector("select[name=volume]");
    this.volumes = JSON.parse(form.getAttribute("data-volumes"));
    this.titles = JSON.parse(form.getAttribute("data-titles"));
    this.status = document.querySelector(".search-status");
    this.results = document.querySelector(".archive-results");
    this.run_id = 0;
    this.timer = 0;
  }

  Search.prototype.start = function () {
    var search = this;
    this.input.addEventListener("input", function () {
      clearTimeout(search.timer);
      search.timer = setTimeout(function () { search.run(); }, 80);
    });
    this.select.addEventListener("change", function () { search.run(); });
    this.form.addEventListener("submit", function (event) { event.preventDefault(); search.run(); });
    var params = new URLSearchParams(location.search);
    this.input.value = params.get("q") || "";
    if (params.get("volume")) this.select.value = params.get("volume");
    if (this.input.value.trim()) this.run();
  };

  Search.prototype.remember = function (text, volume) {
    var url = new URL(location.href);
    url.search = "";
    if (text) url.searchParams.set("q", text);
    if (volume) url.searchParams.set("volume", volume);
    try { history.replaceState(null, "", url.href); } catch (e) { /* some file:// setups refuse */ }
  };

  Search.prototype.run = function () {
    var search = this, id = ++this.run_id;
    var text = this.input.value.trim(), volume = this.select.value;
    this.remember(text, volume);
    this.results.textContent = "";
    if (!text) { this.status.textContent = ""; return; }
    this.status.textContent = "Searching…";
    loadLunr().then(function () {
      if (id === search.run_id) search.searchVolumes(id, text, volume);
    }, function () {
      search.status.textContent = "Search could not load.";
    });
  };

  Search.prototype.searchVolumes = function (id, text, volume) {
    var search = this;
    var words = query.queryWords(query.fromLatex(text));
    var wanted = volume ? [volume] : this.volumes;
    var total = 0, done = 0;
    // Sections in volume order (newest first), each filled when its index has loaded.
    var sections = wanted.map(function (path) {
      var section = el("section", "archive-volume-results");
      section.setAttribute("data-volume", path);
      search.results.appendChild(section);
      return section;
    });
    wanted.forEach(function (path, n) {
      loadVolume(path).then(function (loadedVolume) {
        if (id !== search.run_id) return;
        var hits = query.find(loadedVolume, words, -1);
        total += hits.length;
        search.fill(sections[n], path, loadedVolume.data, hits);
      }, function () {
        sections[n].appendChild(el("p", "search-error", "Could not load the index of " + path + "."));
      }).then(function () {
        if (id !== search.run_id) return;
        done += 1;
        search.status.textContent = total + (total === 1 ? " result" : " results") + " for “" + text + "”" +
          (done < wanted.length ? " (searched " + done + " of " + wanted.length + " volumes…)" :
           " in " + wanted.length + (wanted.length === 1 ? " volume" : " volumes"));
      });
    });
  };

  Search.prototype.fill = function (section, path, data, hits) {
    if (!hits.length) return;
    var title = this.titles[this.volumes.indexOf(path)] || path;
    var heading = section.appendChild(el("h2", "archive-volume-title"));
    var link = heading.appendChild(el("a", "", title));
    link.href = new URL(path + "/index.html", ROOT).href;
    heading.appendChild(el("span", "tag-count", String(hits.length)));
    var list = section.appendChild(el("ol", "search-results"));
    hits.slice(0, LIMIT).forEach(function (n) {
      var doc = data.docs[n];  // [title, url, tag numbers, snippet, …]
      var item = list.appendChild(el("li", "search-hit"));
      var a = item.appendChild(el("a", "search-hit-title", doc[0]));
      a.href = new URL(path + "/" + doc[1], ROOT).href;
      if (doc[3]) item.appendChild(el("p", "search-hit-snippet", doc[3]));
    });
    if (hits.length > LIMIT) {
      var more = section.appendChild(el("p", "search-more"));
      var all = more.appendChild(el("a", "", "All " + hits.length + " results in " + title));
      var url = new URL(path + "/search.html", ROOT);
      url.searchParams.set("q", this.input.value.trim());
      all.href = url.href;
    }
  };

  function init() {
    var form = document.querySelector("form[data-archive-search]");
    if (form && query) new Search(form).start();
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", init);
  else init();
})();
