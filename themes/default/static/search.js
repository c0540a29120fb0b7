/* Proceedings search. Small and loaded on every page; lunr.js and the prebuilt
   index (assets/search-index.js, see generator/search.py) are injected only
   when a reader starts searching. No inline script or handler anywhere, so a
   Content-Security-Policy of script-src 'self' holds, and DOM nodes are only
   ever filled with textContent, never innerHTML. */
(function () {
  "use strict";

  // Must match normalise(), _SPACES, _DASHES and _TRIM in generator/search.py,
  // or the words a reader types turn into terms the index does not hold.
  var SPACES = "\\t\\n\\v\\f\\r \\u00a0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000\\ufeff";
  // Math punctuation separates words too, so "(2+ε)" is found by "ε" and "SE(3)" by "SE".
  var MATH_PUNCTUATION = "()+/=<>,;:|\\[\\]{}";
  var SEPARATORS = new RegExp("[" + SPACES + "\\-" + MATH_PUNCTUATION + "]+");
  var SPLIT_KEEP = new RegExp("([" + SPACES + "\\-\\u2010-\\u2015\\u2212" + MATH_PUNCTUATION + "]+)");
  var DASHES = /[\u2010-\u2015\u2212]/g;
  var TRIM = /^[^\p{L}\p{N}_]*?([\p{L}\p{N}_]+)[^\p{L}\p{N}_]*?$/u;
  var EDGES = /^([^\p{L}\p{N}_]*)([\s\S]*?)([^\p{L}\p{N}_]*)$/u;

  function normalise(text) {
    return text.normalize("NFKC").toLowerCase().replace(DASHES, "-");
  }

  function trim(word) {
    var match = TRIM.exec(word);
    return match ? match[1] : word;
  }

  function stem(word) {
    return lunr.stemmer(new lunr.Token(word)).toString();
  }

  // Must match CJK_RANGES and bigrams() in generator/cjk.py: a run of Han, Kana or
  // Hangul is indexed as its overlapping character pairs, so the query is turned
  // into the same pairs, every one required.
  var CJK_RANGES = "\\u1100-\\u11ff\\u3005-\\u3007\\u3041-\\u3096\\u309d-\\u309f\\u30a1-\\u30fa" +
    "\\u30fc-\\u30ff\\u3130-\\u318f\\u31f0-\\u31ff\\u3400-\\u4dbf\\u4e00-\\u9fff\\ua960-\\ua97f" +
    "\\uac00-\\ud7ff\\uf900-\\ufaff\\u{20000}-\\u{3134f}";
  var CJK = new RegExp("[" + CJK_RANGES + "]", "u");
  var CJK_ONLY = new RegExp("^[" + CJK_RANGES + "]+$", "u");
  var CJK_RUNS = new RegExp("([" + CJK_RANGES + "]+)", "u");
  var WORD_CHAR = /[\p{L}\p{N}_]/u;

  function bigrams(run) {
    var chars = Array.from(run);  // code points: a character beyond U+FFFF is one
    if (chars.length < 2) return chars;
    return chars.slice(1).map(function (c, i) { return chars[i] + c; });
  }

  function latinWord(word) {
    return {
      word: word,
      stem: stem(word),
      prefix: word.length >= 3,
      required: lunr.stopWordFilter(new lunr.Token(word)) !== undefined,
    };
  }

  /* A bigram is an index term as it is. A lone character (a run of one) is also
     looked for at the start of every term, so 扩 finds 扩散 while the reader types
     (inside every term would be a leading wildcard: half a second at 5,000 papers). */
  function cjkWords(run) {
    var single = Array.from(run).length === 1;
    return bigrams(run).map(function (gram) {
      return { word: gram, stem: gram, prefix: false, required: true, cjk: true, single: single };
    });
  }

  /* The query's words; from the third character a word also matches as a
     prefix (dif → dif*), so results follow the typing. A word holding CJK runs
     becomes their bigrams and its other pieces words of their own (LoRA微调 →
     lora, 微调), as generator/search.py indexes it. */
  function queryWords(query) {
    var words = [];
    normalise(query).split(SEPARATORS).forEach(function (raw) {
      if (!CJK.test(raw)) {
        var word = trim(raw);
        if (word) words.push(latinWord(word));
        return;
      }
      raw.split(CJK_RUNS).forEach(function (piece, i) {
        if (i % 2) words = words.concat(cjkWords(piece));
        else if (WORD_CHAR.test(piece)) words.push(latinWord(trim(piece)));
      });
    });
    return words;
  }

  /* A query pasted from LaTeX ("$O(N)$", "\epsilon", "\mathcal{O}(n)") asks for what
     the page shows: the index holds the text of the rendered formulas, in which
     \epsilon is ε (NFKC folds ϵ, ϕ and ϑ into the same letters) and $ is gone. */
  var GREEK = {};
  ("alpha beta gamma delta epsilon zeta eta theta iota kappa lambda mu nu xi omicron " +
   "pi rho sigma tau upsilon phi chi psi omega").split(" ").forEach(function (name, i) {
    var code = 0x3b1 + i + (i >= 17 ? 1 : 0);  // after rho: skip final sigma, and reserved U+03A2
    GREEK[name] = GREEK["var" + name] = String.fromCharCode(code);
    GREEK[name[0].toUpperCase() + name.slice(1)] = String.fromCharCode(code - 0x20);
  });
  var MATH_DELIMITERS = /\$|\\[()[\]]/g;
  var FONT_COMMAND = /\\(?:math[a-z]*|text[a-z]*|operatorname|boldsymbol|bm)\s*\{([^{}]*)\}/g;
  var COMMAND = /\\([A-Za-z]+)/g;

  function fromLatex(query) {
    return query.replace(MATH_DELIMITERS, " ").replace(FONT_COMMAND, "$1")
      .replace(COMMAND, function (all, name) { return GREEK[name] || name; }).replace(/[{}]/g, "");
  }

  function matches(word, term) {
    return term === word.stem || (word.prefix && term.lastIndexOf(word.word, 0) === 0) ||
      (word.single === true && term.lastIndexOf(word.word, 0) === 0);
  }

  /* Every word that is not a stop word must match in some field: lunr ORs
     clauses, and a required clause cannot say "this stem or this prefix". */
  function find(search, words, tag) {
    var hits;
    if (words.length) {
      hits = search.index.query(function (q) {
        words.forEach(function (w) {
          q.term(w.word, { usePipeline: !w.cjk });
          if (w.prefix) q.term(w.word, { usePipeline: false, wildcard: lunr.Query.wildcard.TRAILING });
          if (w.single) q.term(w.word, { usePipeline: false, wildcard: lunr.Query.wildcard.TRAILING });
        });
      }).filter(function (result) {
        var terms = Object.keys(result.matchData.metadata);
        return words.every(function (w) {
          return !w.required || terms.some(function (t) { return matches(w, t); });
        });
      }).map(function (result) { return Number(result.ref); });
    } else {
      hits = search.data.docs.map(function (doc, n) { return n; });
    }
    if (tag < 0) return hits;
    return hits.filter(function (n) { return search.data.docs[n][2].indexOf(tag) >= 0; });
  }

  /* What to mark in a text: [start, end) code-unit ranges of the words the query matched.
     A Latin word is marked in the part the index holds, so "(learning)," marks
     "learning" and "SE(3)" marks all of "SE(3)"; in a CJK run each character of
     a matched bigram (or of a lone character asked for) is marked, and
     neighbouring marks join, so 扩散模型 is marked as one. */
  function markedRanges(text, words) {
    var grams = {}, ranges = [], at = 0;
    words.forEach(function (w) { if (w.cjk) grams[w.word] = w; });
    text.split(SPLIT_KEEP).forEach(function (piece, i) {
      if (i % 2 === 0 && piece) {
        if (CJK.test(normalise(piece))) markMixed(piece, at, words, grams, ranges);
        else markWord(piece, at, words, ranges);
      }
      at += piece.length;
    });
    return ranges.reduce(function (joined, range) {
      var last = joined[joined.length - 1];
      if (last && last[1] === range[0]) last[1] = range[1]; else joined.push(range.slice());
      return joined;
    }, []);
  }

  function markWord(piece, at, words, ranges) {
    var edges = TRIM.test(piece) ? EDGES.exec(piece) : [piece, "", piece, ""];
    var term = stem(trim(normalise(piece)));
    if (edges[2] && words.some(function (w) { return matches(w, term); })) {
      ranges.push([at + edges[1].length, at + edges[1].length + edges[2].length]);
    }
  }

  /* A piece holding CJK, split by character into CJK runs and the rest: as displayed
     (ｶﾀｶﾅ) but compared normalised (カタカナ), one displayed character at a time. */
  function markMixed(piece, at, words, grams, ranges) {
    var runs = [], run = null, offset = at;
    Array.from(piece).forEach(function (ch) {
      var norm = normalise(ch), cjk = CJK_ONLY.test(norm);
      if (!run || run.cjk !== cjk) runs.push(run = { cjk: cjk, start: offset, text: "", chars: [] });
      run.text += ch;
      run.chars.push({ start: offset, end: offset + ch.length, norm: Array.from(norm) });
      offset += ch.length;
    });
    runs.forEach(function (r) {
      if (r.cjk) markRun(r.chars, grams, ranges);
      else if (WORD_CHAR.test(r.text)) markWord(r.text, r.start, words, ranges);
    });
  }

  function markRun(chars, grams, ranges) {
    var points = [];  // normalised code points, each with the displayed character it came from
    chars.forEach(function (c, n) { c.norm.forEach(function (p) { points.push({ p: p, owner: n }); }); });
    var hit = chars.map(function () { return false; });
    points.forEach(function (point, k) {
      var next = points[k + 1];
      if (next && grams[point.p + next.p]) hit[point.owner] = hit[next.owner] = true;
      if (grams[point.p]) hit[point.owner] = true;  // a lone character asked for
    });
    chars.forEach(function (c, n) { if (hit[n]) ranges.push([c.start, c.end]); });
  }

  // tests/js runs the query code above in node, against a real index.
  if (typeof document === "undefined") {
    module.exports = { normalise: normalise, queryWords: queryWords, fromLatex: fromLatex, find: find,
                       markedRanges: markedRanges };
    return;
  }

  var script = document.currentScript;
  var ASSETS = new URL(".", script.src);
  var ROOT = new URL("../", script.src);
  var DROPDOWN_LIMIT = 8;
  var PAGE_LIMIT = 200;

  // Loading ------------------------------------------------------------------

  var loading = null;

  function inject(name) {
    return new Promise(function (resolve, reject) {
      var tag = document.createElement("script");
      tag.src = new URL(name, ASSETS).href;
      tag.async = false;
      tag.onload = resolve;
      tag.onerror = function () { reject(new Error("could not load " + name)); };
      document.head.appendChild(tag);
    });
  }

  function loadIndex() {
    if (!loading) {
      loading = Promise.all([inject("lunr.js"), inject("search-index.js")]).then(function () {
        var data = globalThis.proceedingsSearchData;
        return { data: data, index: lunr.Index.load(data.index) };
      });
      loading.catch(function () { loading = null; });  // the next focus tries again
    }
    return loading;
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
    markedRanges(text, words).forEach(function (range) {
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

  function renderHit(data, n, words) {
    var doc = data.docs[n];  // [title, url, tag numbers, snippet, title with math as a tree (if any)]
    var item = el("li", "search-hit");
    var link = doc[4] ? typeset(el("a", "search-hit-title"), doc[4], words)
                      : marked(el("a", "search-hit-title"), doc[0], words);
    link.href = new URL(doc[1], ROOT).href;
    item.appendChild(link);
    if (doc[3]) item.appendChild(marked(el("p", "search-hit-snippet"), doc[3], words));
    if (doc[2].length) {
      var tags = item.appendChild(el("ul", "tags search-hit-tags"));
      doc[2].forEach(function (t) {
        var name = data.tags[t][0], url = data.tags[t][1];
        var chip = tags.appendChild(el("li")).appendChild(el(url ? "a" : "span", "tag", name));
        if (url) chip.href = new URL(url, ROOT).href;
      });
    }
    return item;
  }

  // Interface text --------------------------------------------------------------

  /* The page's words come from the message catalogue, as JSON in the form's
     data-messages (written by _search.html): "{name}" marks a value filled in here;
     a counted message has a form per CLDR plural category of the interface language. */
  var MESSAGES = {};
  var PLURALS = null;

  function loadMessages(form) {
    try { MESSAGES = JSON.parse(form.getAttribute("data-messages") || "{}"); } catch (e) { MESSAGES = {}; }
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

  function SearchBox(form) {
    this.form = form;
    this.input = form.querySelector("input[name=q]");
    this.select = form.querySelector("select[name=tag]");
    this.panel = form.querySelector(".search-panel");
    this.status = this.panel.querySelector(".search-status");
    this.list = this.panel.querySelector(".search-results");
    this.more = this.panel.querySelector(".search-more");
    this.page = document.querySelector("[data-search-page]");
    if (this.page) this.page.appendChild(this.panel);  // the search page shows it in full
    this.limit = this.page ? PAGE_LIMIT : DROPDOWN_LIMIT;
    this.pending = 0;
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
      if (!box.form.contains(event.target)) box.close();
    });
    document.addEventListener("keydown", function (event) { box.onKey(event); });
    this.restore();
  };

  SearchBox.prototype.prepare = function () {
    var box = this;
    return loadIndex().then(function (search) {
      box.fillTags(search.data);
      return search;
    }, function () {
      box.show(say("unavailable"));
    });
  };

  SearchBox.prototype.fillTags = function (data) {
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

  SearchBox.prototype.schedule = function () {
    var box = this;
    clearTimeout(this.pending);
    this.pending = setTimeout(function () { box.run(); }, 60);
  };

  SearchBox.prototype.run = function () {
    var box = this;
    var query = this.input.value.trim();
    var tagName = this.select.value;
    this.remember(query, tagName);
    if (!query && !tagName) return this.clear();
    if (!this.list.childElementCount) this.show(say("loading"));
    this.prepare().then(function (search) {
      if (!search || box.input.value.trim() !== query || box.select.value !== tagName) return;
      var tag = search.data.tags.findIndex(function (t) { return t[0] === tagName; });
      var words = queryWords(fromLatex(query));
      try {
        box.render(search.data, find(search, words, tag), words);
      } catch (error) {  // a reader should never be left with a dead box
        box.show(say("failed", { query: query }));
      }
    });
  };

  SearchBox.prototype.render = function (data, hits, words) {
    var query = this.input.value.trim(), tagName = this.select.value;
    var list = el("ol", "search-results");
    hits.slice(0, this.limit).forEach(function (n) { list.appendChild(renderHit(data, n, words)); });
    this.list.replaceWith(list);
    this.list = list;
    this.show(countText(hits.length, query, tagName));
    var rest = hits.length > this.limit;
    this.more.hidden = !rest;
    if (rest) this.moreLink(hits.length);
  };

  SearchBox.prototype.moreLink = function (count) {
    var link = this.more.querySelector("a");
    if (this.page) {
      link.removeAttribute("href");
      link.textContent = say("first", { limit: this.limit });
      return;
    }
    var url = new URL("search.html", ROOT);
    url.searchParams.set("q", this.input.value.trim());
    if (this.select.value) url.searchParams.set("tag", this.select.value);
    link.href = url.href;
    link.textContent = say("show_all", { count: count });
  };

  SearchBox.prototype.show = function (message) {
    this.panel.hidden = false;
    this.status.textContent = message;
  };

  SearchBox.prototype.clear = function () {
    this.list.textContent = "";
    this.status.textContent = "";
    this.more.hidden = true;
    if (!this.page) this.panel.hidden = true;
  };

  SearchBox.prototype.close = function () {
    if (!this.page) this.panel.hidden = true;
  };

  /* On the search page the address keeps the query, so reload and sharing work. */
  SearchBox.prototype.remember = function (query, tagName) {
    if (!this.page) return;
    var url = new URL(location.href);
    url.search = "";
    if (query) url.searchParams.set("q", query);
    if (tagName) url.searchParams.set("tag", tagName);
    try { history.replaceState(null, "", url.href); } catch (e) { /* some file:// setups refuse */ }
  };

  SearchBox.prototype.restore = function () {
    var params = new URLSearchParams(location.search);
    var query = params.get("q") || "", tagName = params.get("tag") || "";
    if (!query && !tagName) return;
    this.input.value = query;
    this.select.setAttribute("data-wanted", tagName);
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
      this.close();
      this.input.focus();
    }
  };

  function isEditable(node) {
    return node.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(node.tagName);
  }

  function init() {
    var form = document.querySelector("form[data-search]");
    if (!form) return;
    loadMessages(form);
    new SearchBox(form).start();
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", init);
  else init();
})();
