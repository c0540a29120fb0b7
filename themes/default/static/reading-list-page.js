/* reading-list.html's list (issue 31): the reader's papers, or a shared link's (reading-list.html#ids=…),
 * each with its authors (and volume, in a series) and a button to remove it; the list exported as BibTeX,
 * RIS and CSL-JSON (a download or a copy) and a link that carries it. reading-list.js injects this file on
 * that page only, and hands it what it builds on (proceedingsReadingList.page): the list in storage, the
 * papers' records and the citations made from them. Titles, names and messages go in as text nodes.
 */
(function () {
  "use strict";

  var list = globalThis.proceedingsReadingList.page;
  var WORDS = list.words, SERIES = list.series, HOME = list.home;
  var valid = list.valid, read = list.read, stored = list.stored, add = list.add, toggle = list.toggle;
  var recordOf = list.recordOf, exports = list.exports, listeners = list.listeners;

  function sharedKeys() {
    var match = /^#ids=(.*)$/.exec(window.location.hash);
    if (!match) return null;
    var keys = [];
    match[1].split(",").forEach(function (part) {
      try {
        var key = decodeURIComponent(part);
        if (valid(key) && keys.indexOf(key) < 0) keys.push(key);
      } catch (error) { /* a broken piece of a link is left out */ }
    });
    return keys;
  }

  function shareLink(keys) {
    return new URL("reading-list.html#ids=" + keys.map(encodeURIComponent).join(","), HOME).href;
  }

  function copyText(text, status, words) {
    function selected() {
      var area = document.createElement("textarea");
      area.value = text;
      area.setAttribute("readonly", "");
      area.className = "reading-copy-area";
      document.body.appendChild(area);
      area.select();
      var done = false;
      try { done = document.execCommand("copy"); } catch (error) { done = false; }
      document.body.removeChild(area);
      status.textContent = done ? words.copied : words.copy_failed;
    }
    status.textContent = "";
    if (navigator.clipboard && window.isSecureContext) {
      navigator.clipboard.writeText(text).then(function () { status.textContent = words.copied; }, selected);
    } else {
      selected();
    }
  }

  function ListPage(page) {
    this.page = page;
    try { this.words = JSON.parse(page.getAttribute("data-words") || "{}"); } catch (error) { this.words = {}; }
    try { this.plurals = new Intl.PluralRules(this.words.language || "en"); } catch (error) { this.plurals = null; }
    this.items = page.querySelector("[data-reading-items]");
    this.status = page.querySelector("[data-reading-status]");
    this.shared = page.querySelector("[data-reading-shared]");
    this.tools = page.querySelector("[data-reading-tools]");
    this.share = page.querySelector("[data-reading-share]");
    this.copyStatus = page.querySelector("[data-reading-copy-status]");
    this.urls = {};
    this.texts = {};
    this.run = 0;
    this.refocus = null;  // after a removal: the place of the paper removed
  }

  ListPage.prototype.say = function (key, values) {
    var message = this.words[key] || "";
    if (typeof message === "object") {
      var category = this.plurals ? this.plurals.select(values.count) : "other";
      message = message[category] || message.other || "";
    }
    return message.replace(/\{(\w+)\}/g, function (all, name) {
      return Object.prototype.hasOwnProperty.call(values || {}, name) ? String(values[name]) : all;
    });
  };

  ListPage.prototype.start = function () {
    var page = this;
    var tools = this.page.querySelectorAll("[data-reading-copy]");
    for (var i = 0; i < tools.length; i++) {
      tools[i].addEventListener("click", function (event) {
        var format = event.currentTarget.getAttribute("data-reading-copy");
        var text = format === "link" ? page.share.value : page.texts[format] || "";
        copyText(text, page.copyStatus, page.words);
      });
    }
    this.shared.querySelector("button").addEventListener("click", function () {
      add(sharedKeys() || []);
      page.copyStatus.textContent = page.say("saved", {});
    });
    this.share.addEventListener("focus", function () { page.share.select(); });
    listeners.push(function () { if (!sharedKeys()) page.render(); });
    window.addEventListener("hashchange", function () { page.render(); });
    this.render();
  };

  ListPage.prototype.render = function () {
    var page = this, shared = sharedKeys(), keys = shared || read(), run = ++this.run;
    this.shared.hidden = !shared;
    if (shared) this.shared.querySelector("[data-reading-shared-count]").textContent =
      this.say("shared", { count: shared.length });
    var notes = [];
    if (!shared) notes.push(keys.length ? this.say("count", { count: keys.length }) : this.say("empty", {}));
    if (!stored()) notes.push(this.say("unavailable", {}));
    this.status.textContent = notes.join(" ");
    this.tools.hidden = !keys.length;
    this.share.value = keys.length ? shareLink(keys) : "";
    Promise.all(keys.map(recordOf)).then(function (entries) {
      if (run === page.run) page.show(entries, !shared);
    });
  };

  ListPage.prototype.show = function (entries, own) {
    var page = this;
    while (this.items.firstChild) this.items.removeChild(this.items.firstChild);
    entries.forEach(function (entry, number) {
      page.items.appendChild(page.item(entry, number, own));
    });
    if (this.refocus !== null) {
      var buttons = this.items.querySelectorAll(".reading-remove");
      var focus = buttons.length ? buttons[Math.min(this.refocus, buttons.length - 1)] : this.page.querySelector("h1");
      this.refocus = null;
      if (focus) focus.focus();
    }
    var found = entries.filter(function (entry) { return entry.record; });
    // "My programme": the papers' sessions in time order and as a calendar (schedule.js, where the page has it)
    var schedule = this.page.querySelector("[data-reading-schedule]");
    if (schedule && window.proceedingsSchedule) window.proceedingsSchedule.show(schedule, found);
    this.texts = exports(found);
    list.formats().forEach(function (format) {
      // The link has a file name to download to (data-reading-download) and, from here on, the file.
      var link = page.page.querySelector("[data-reading-download$='" + format.suffix + "']");
      if (!link) return;  // a format the theme offers no link for
      link.download = link.getAttribute("data-reading-download");
      if (page.urls[format.name]) URL.revokeObjectURL(page.urls[format.name]);
      var file = new Blob([page.texts[format.name]], { type: format.type + ";charset=utf-8" });
      page.urls[format.name] = URL.createObjectURL(file);
      link.href = page.urls[format.name];
    });
  };

  ListPage.prototype.item = function (entry, number, own) {
    var item = document.createElement("li");
    item.className = "reading-item";
    var title = document.createElement(entry.record ? "a" : "span");
    title.className = "reading-item-title";
    title.id = "reading-item-" + number;
    if (entry.record) {
      title.href = new URL(entry.record.url, entry.root).href;
      title.textContent = entry.record.title;
    } else {
      title.textContent = this.say("missing", { key: entry.key });
    }
    item.appendChild(title);
    if (entry.record && entry.record.authors.length) {
      var names = document.createElement("p");
      names.className = "reading-item-authors";
      names.textContent = entry.record.authors.join(", ");
      item.appendChild(names);
    }
    if (SERIES && entry.volume) {
      var volume = document.createElement("p");
      volume.className = "reading-item-volume";
      volume.textContent = entry.volume;
      item.appendChild(volume);
    }
    if (own) {
      var remove = document.createElement("button");
      remove.type = "button";
      remove.className = "reading-remove";
      remove.textContent = WORDS.remove;
      remove.setAttribute("aria-describedby", title.id);
      var page = this;
      remove.addEventListener("click", function () {
        page.refocus = number;  // show() puts the focus on the next paper's button, not on the page's start
        toggle(entry.key);
      });
      item.appendChild(remove);
    }
    return item;
  };

  var listPage = document.querySelector("[data-reading-page]");
  if (listPage) new ListPage(listPage).start();
})();
