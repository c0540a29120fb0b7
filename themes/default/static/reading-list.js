/* The reading list (issue 31): a button on every list item, search result and paper page adds the paper
 * to the reader's list, or removes it; on reading-list.html, reading-list-page.js (injected by this) shows the
 * list, exports it (BibTeX, RIS, CSL-JSON: a download or a copy) and gives a link that carries it (#ids=…). A list item marked
 * data-abstract also gets an "Abstract" toggle that opens the abstract in place, from the same block, and
 * every list item a "BibTeX" link to its paper's Cite box (made here from its title's link: issue 29).
 *
 * The list lives in this browser (localStorage), under a key named after the site's root, so that two
 * proceedings on one host (or opened from file://, where every page shares one origin) keep two lists; in
 * a series the root is the series', so one list holds papers of every volume. A paper is its page's
 * address from that root: its slug in a volume, "<volume folder>/<slug>" in a series. Where localStorage
 * is refused (storage turned off) or holds something unreadable, the list lasts until the page is left.
 *
 * What the list page shows and exports of a paper comes from small scripts under each volume's
 * assets/reading/ (generator/publish/reading_list.py), injected by script tag when needed: fetch() is
 * refused from file://. Their manifest names a record's keys and the citation formats (publish/formats.py):
 * a paper's citation in each is its text as the build wrote it, in pieces around holes that its key, title and
 * abstract (and the manifest's title) fill, so that nothing here knows how a format is written. Nothing from content goes through innerHTML but an abstract's HTML as the build
 * rendered it for the paper's page (a list's toggle: see fillAbstract); titles and names are text nodes.
 * The script tag says where the page is (data-series: "volume" for a series' volume, "archive" for the
 * series' own pages, absent for a lone volume). The buttons' words (label, add, remove, abstract, bibtex) are the
 * volume's, in assets/search-messages.js (globalThis.proceedingsReadingListMessages, loaded before this
 * script), or the tag's own data-label, data-add, data-remove (a series' pages, which have no such file).
 */
(function () {
  "use strict";

  var script = document.currentScript;
  var ROOT = new URL("../", script.src);  // the root of the site this page belongs to (a volume's, or a series')
  var PLACE = script.getAttribute("data-series") || "";
  var SERIES = PLACE !== "";
  var HOME = PLACE === "volume" ? new URL("../", ROOT) : ROOT;  // where the list and reading-list.html live
  var KEY = "proceedings-reading-list:" + HOME.href;
  var GIVEN = globalThis.proceedingsReadingListMessages || {};
  function word(name) { return script.getAttribute("data-" + name) || GIVEN[name] || ""; }
  var WORDS = { add: word("add"), remove: word("remove"), label: word("label"), abstract: word("abstract"),
                bibtex: word("bibtex") };
  var MAX_KEY = 500;  // longer is nothing this site wrote

  // -- the list in storage -----------------------------------------------------------

  var memory = null;  // the list when storage is refused: kept for this page only
  var listeners = [];

  /* A key names a paper of this site: its slug, and in a series "<volume>/<slug>". Each part is a name the
     site publishes: never "." or "..", nor hidden (a series never publishes a folder whose name starts with
     "." or "_": generator/series/layout.py), nor holding a backslash; else a shared link's
     "#ids=..%2Fslug" would name a file above the site and load another site's scripts. */
  var PART = /^[^._\\/][^\\/]*$/;
  function valid(key) {
    if (typeof key !== "string" || !key || key.length > MAX_KEY) return false;
    var parts = key.split("/");
    return parts.length === (SERIES ? 2 : 1) && parts.every(function (part) { return PART.test(part); });
  }

  function cleaned(value) {
    if (!Array.isArray(value)) return [];
    var seen = Object.create(null);
    return value.filter(function (key) {
      if (!valid(key) || seen[key]) return false;
      seen[key] = true;
      return true;
    });
  }

  function read() {
    if (memory) return memory.slice();
    var raw = null;
    try {
      raw = window.localStorage.getItem(KEY);
    } catch (error) {
      memory = [];
      return [];
    }
    try {
      return cleaned(JSON.parse(raw || "[]"));
    } catch (error) {
      return [];  // a corrupt value reads as an empty list, and is replaced by the next change
    }
  }

  function write(list) {
    if (!memory) {
      try {
        window.localStorage.setItem(KEY, JSON.stringify(list));
        return;
      } catch (error) {
        memory = [];  // refused (storage off, or full): from now on the list is this page's
      }
    }
    memory = list.slice();
  }

  function stored() {
    read();
    return memory === null;
  }

  function changed() {
    var list = read();
    var has = Object.create(null);
    list.forEach(function (key) { has[key] = true; });
    var buttons = document.querySelectorAll("button[data-reading-key]");
    for (var i = 0; i < buttons.length; i++) paint(buttons[i], has[buttons[i].getAttribute("data-reading-key")]);
    listeners.forEach(function (listener) { listener(list); });
  }

  function toggle(key) {
    var list = read(), at = list.indexOf(key);
    if (at >= 0) list.splice(at, 1);
    else list.push(key);
    write(list);
    changed();
  }

  function add(keys) {
    var list = read();
    keys.forEach(function (key) { if (list.indexOf(key) < 0) list.push(key); });
    write(list);
    changed();
  }

  window.addEventListener("storage", function (event) {
    if (event.key === KEY) changed();  // another tab changed the list
  });

  // -- papers by address ---------------------------------------------------------------

  /* The list's key of the paper whose page is at ``href`` (absolute), or null for any other page. */
  function keyOf(href) {
    var url = new URL(href, document.baseURI);
    if (url.protocol !== HOME.protocol || url.host !== HOME.host || url.pathname.indexOf(HOME.pathname) !== 0) return null;
    var path;
    try {
      path = url.pathname.slice(HOME.pathname.length).split("/").map(decodeURIComponent);
    } catch (error) {
      return null;
    }
    if (path.length !== (SERIES ? 3 : 2) || path[path.length - 2] !== "papers") return null;
    var slug = path[path.length - 1].replace(/\.html$/, "");
    var key = SERIES ? path[0] + "/" + slug : slug;
    return slug && valid(key) ? key : null;
  }

  function slugOf(key) {
    return SERIES ? key.slice(key.indexOf("/") + 1) : key;
  }

  function volumeOf(key) {
    return SERIES ? new URL(encodeURIComponent(key.slice(0, key.indexOf("/"))) + "/", HOME) : HOME;
  }

  // -- the buttons -----------------------------------------------------------------------

  /* The button shows "Reading list" (a mark before it says whether the paper is on it, from
     aria-pressed: style.css) and is named "Add to reading list" or "Remove from reading list": the
     name holds the words shown, as speech input needs. */
  function paint(button, on) {
    button.setAttribute("aria-pressed", on ? "true" : "false");
    button.setAttribute("aria-label", on ? WORDS.remove : WORDS.add);
    button.title = on ? WORDS.remove : WORDS.add;  // the compact button of a list's line shows only its mark
  }

  function button(key) {
    var made = document.createElement("button");
    made.type = "button";
    made.className = "reading-toggle";
    made.setAttribute("data-reading-key", key);
    var label = made.appendChild(document.createElement("span"));
    label.className = "reading-label";
    label.textContent = WORDS.label;
    made.addEventListener("click", function () { toggle(key); });
    paint(made, read().indexOf(key) >= 0);
    return made;
  }

  /* The button for the paper a link leads to (a search result's title), or null. */
  function buttonFor(href) {
    var key = keyOf(href);
    return key ? button(key) : null;
  }

  function addButtons() {
    var items = document.querySelectorAll(".paper-item");
    for (var i = 0; i < items.length; i++) {
      var link = items[i].querySelector(".paper-item-title a"), links = items[i].querySelector(".item-links");
      if (!link || !links) continue;
      if (WORDS.bibtex && keyOf(link.href)) {  // the paper's Cite box: after its links, before its topics
        var cite = document.createElement("a");
        cite.href = link.getAttribute("href") + "#cite-heading";
        cite.textContent = WORDS.bibtex;
        links.insertBefore(cite, links.querySelector(".tags"));
      }
      var made = buttonFor(link.href);
      if (made) links.insertBefore(made, links.querySelector(".tags"));
    }
    var title = document.querySelector("body.paper .page-title");
    var own = title && buttonFor(window.location.href);
    if (own) {
      var holder = document.createElement("p");
      holder.className = "paper-reading";
      holder.appendChild(own);
      title.parentNode.insertBefore(holder, title.nextSibling);
    }
  }

  // -- the papers' records, by script tag ------------------------------------------------

  var files = Object.create(null);  // script URL → Promise of its data
  var arrivals = Object.create(null);  // script URL → resolve of the load waiting for it

  function load(url) {
    if (!files[url]) {
      files[url] = new Promise(function (resolve, reject) {
        arrivals[url] = resolve;
        var tag = document.createElement("script");
        tag.src = url;
        tag.onload = function () {  // a file that ran without handing over its data is no file of ours
          if (arrivals[url] === resolve) { delete arrivals[url]; reject(new Error("no data in " + url)); }
        };
        tag.onerror = function () { delete arrivals[url]; reject(new Error("could not load " + url)); };
        document.head.appendChild(tag);
      });
      files[url].catch(function () { delete files[url]; });
    }
    return files[url];
  }

  var CRC = null;
  var FORMATS = [];  // the citation formats, as the last manifest loaded gives them

  /* zlib's crc32 of the text's UTF-8 bytes: the block a paper's record is in (publish/reading_list.py, file_of). */
  function crc32(text) {
    if (!CRC) {
      CRC = [];
      for (var n = 0; n < 256; n++) {
        var c = n;
        for (var k = 0; k < 8; k++) c = c & 1 ? 0xEDB88320 ^ (c >>> 1) : c >>> 1;
        CRC[n] = c >>> 0;
      }
    }
    var bytes = new TextEncoder().encode(text), crc = 0xFFFFFFFF;
    for (var i = 0; i < bytes.length; i++) crc = CRC[(crc ^ bytes[i]) & 0xFF] ^ (crc >>> 8);
    return (crc ^ 0xFFFFFFFF) >>> 0;
  }

  function has(object, name) {
    return Object.prototype.hasOwnProperty.call(object, name);
  }

  /* A record by the names the manifest gives its keys (publish/reading_list.py, KEYS); "" for one left out. */
  function named(record, keys) {
    var made = {};
    Object.keys(keys).forEach(function (name) { made[name] = has(record, keys[name]) ? record[keys[name]] : ""; });
    return made;
  }

  /* Promise of {key, root, volume (its title), record (null: no such paper now)}; never rejects. */
  function recordOf(key) {
    var root = volumeOf(key), slug = slugOf(key), volume = "", keys = {};
    return load(new URL("assets/reading/manifest.js", root).href).then(function (manifest) {
      volume = manifest.title;
      keys = manifest.keys;
      FORMATS = manifest.formats;
      return load(new URL("assets/reading/r" + (crc32(slug) % manifest.files) + ".js", root).href);
    }).then(function (block) {
      var record = has(block, slug) ? named(block[slug], keys) : null;
      return { key: key, root: root, volume: volume, record: record };
    }, function () {
      return { key: key, root: root, volume: volume, record: null };
    });
  }

  // -- a list's abstracts, opened in place -----------------------------------------------

  /* An "Abstract" toggle first in the line of links of each list item marked data-abstract (its value the
     abstract's language, when it is not the page's), filled from the paper's block when first opened. */
  function addAbstracts() {
    var items = document.querySelectorAll(".paper-item[data-abstract]");
    for (var i = 0; i < items.length; i++) {
      var link = items[i].querySelector(".paper-item-title a"), links = items[i].querySelector(".item-links");
      var key = link && links && keyOf(link.href);
      if (!key) continue;
      var details = document.createElement("details");
      details.className = "item-abstract";
      details.setAttribute("data-abstract-key", key);
      details.appendChild(document.createElement("summary")).textContent = WORDS.abstract;
      var holder = details.appendChild(document.createElement("div"));
      holder.className = "abstract";
      if (items[i].getAttribute("data-abstract")) holder.lang = items[i].getAttribute("data-abstract");
      links.insertBefore(details, links.firstChild);
    }
  }

  /* The abstract's HTML ("h") is the build's own rendering of it, as on the paper's page (everything from the
     content escaped; the page's CSP lets no script in it run); a plain one ("p") goes in as text. */
  function fillAbstract(details) {
    recordOf(details.getAttribute("data-abstract-key")).then(function (entry) {
      var record = entry.record, holder = details.querySelector(".abstract");
      if (!record || details.hasAttribute("data-loaded")) return;  // not loaded: the next opening tries again
      if (record.html) {
        holder.innerHTML = record.html;
      } else {
        holder.appendChild(document.createElement("p")).textContent = record.abstract;
      }
      details.setAttribute("data-loaded", "");
    });
  }

  // "toggle" does not bubble: listened for on the way down.
  document.addEventListener("toggle", function (event) {
    var details = event.target;
    if (details.open && details.classList && details.classList.contains("item-abstract") &&
        details.hasAttribute("data-abstract-key") && !details.hasAttribute("data-loaded")) {
      fillAbstract(details);
    }
  }, true);

  /* A format's text of a paper (its pieces, publish/formats.py) with its holes filled from ``values``; in a
     JSON text a value is written as a JSON string's content, as the build writes it. */
  function fill(format, pieces, values) {
    return pieces.map(function (piece, n) {
      if (n % 2 === 0) return piece;
      var value = has(values, piece) ? String(values[piece]) : "";
      return format.json ? JSON.stringify(value).slice(1, -1) : value;
    }).join("");
  }

  /* Texts joined as the format's file joins them (the volume's proceedings.* are so joined). */
  function joined(format, texts) {
    return texts.length ? format.head + texts.join(format.between) + format.tail : format.empty;
  }

  /* A key that two entries share (two volumes of a series; BibTeX compares keys without case) is written with
     its volume's folder in front in every format, "2024-paper-1" and "2025-paper-1", whichever was added first;
     a key still repeated after that gets "-2", "-3"… A paper alone (its Cite box) keeps its volume's own key. */
  function exports(found) {
    var taken = Object.create(null), shared = Object.create(null), texts = Object.create(null);
    FORMATS.forEach(function (format) { texts[format.name] = []; });
    found.forEach(function (entry) {
      var folded = entry.record.key.toLowerCase();
      shared[folded] = (shared[folded] || 0) + 1;
    });
    found.forEach(function (entry) {
      var record = entry.record, wanted = record.key, key = wanted, n = 2;
      if (SERIES && shared[wanted.toLowerCase()] > 1) key = volumeKey(entry.key) + "-" + wanted;
      var base = key;
      while (taken[key.toLowerCase()]) key = base + "-" + n++;
      taken[key.toLowerCase()] = true;
      var values = { key: key, title: record.title, abstract: record.abstract, container: entry.volume };
      FORMATS.forEach(function (format) {
        if (has(record.texts, format.name)) texts[format.name].push(fill(format, record.texts[format.name], values));
      });
    });
    var made = {};
    FORMATS.forEach(function (format) { made[format.name] = joined(format, texts[format.name]); });
    return made;
  }

  /* A series' volume folder (of a list key "<folder>/<slug>") as a citation key may hold it. */
  function volumeKey(key) {
    return key.slice(0, key.indexOf("/")).replace(/[^A-Za-z0-9_.:+-]+/g, "-").replace(/^-+|-+$/g, "") || "volume";
  }

  /* Promise of {texts: the citations as the list exports them, by format name; formats: the manifest's} of
     the paper whose page is at ``href``, or of null: a paper page's Cite box offers them as downloads
     (cite.js), so that no paper needs its own .ris and .csl.json files beside its page. */
  function citationsOf(href) {
    var key = keyOf(href);
    if (!key) return Promise.resolve(null);
    return recordOf(key).then(function (entry) {
      return entry.record ? { texts: exports([entry]), formats: FORMATS } : null;
    });
  }

  globalThis.proceedingsReadingList = {
    arrived: function (name, data) {
      var current = document.currentScript, resolve = current && arrivals[current.src];
      if (!resolve) return;
      delete arrivals[current.src];
      resolve(data);
    },
    buttonFor: buttonFor,
    citationsOf: citationsOf,
    // What reading-list-page.js builds reading-list.html on:
    page: {
      words: WORDS, series: SERIES, home: HOME, valid: valid, read: read, stored: stored, add: add,
      toggle: toggle, recordOf: recordOf, exports: exports, listeners: listeners,
      formats: function () { return FORMATS; },
    },
  };

  addAbstracts();
  addButtons();
  // reading-list.html's own code (its list, exports and shared links) loads on that page only.
  if (document.querySelector("[data-reading-page]")) {
    var pageScript = document.createElement("script");
    pageScript.src = new URL("reading-list-page.js", script.src).href;
    document.head.appendChild(pageScript);
  }
})();
