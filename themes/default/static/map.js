/* The map of the papers (map.html), made more useful where scripts run; without them it is whole already.
 *
 * It shows the map's form: the words typed there highlight the papers whose titles hold them all (as the
 * title each dot carries, case and accents aside), and "Highlight my reading list" the papers of the reader's
 * reading list, read from this browser's storage under reading-list.js's key. Nothing is fetched: it works from
 * file:// and under the site's Content-Security-Policy. The form's data-one / data-other say how many were found
 * ("{n}" stands for the number).
 */
(function () {
  "use strict";

  var script = document.currentScript;
  var ROOT = new URL("../", script.src);  // this volume's root
  var SERIES = script.getAttribute("data-series") === "volume";
  var HOME = SERIES ? new URL("../", ROOT) : ROOT;  // where the reading list lives (reading-list.js: HOME)
  var KEY = "proceedings-reading-list:" + HOME.href;
  var PREFIX = SERIES ? decodeURIComponent(ROOT.pathname.slice(HOME.pathname.length).replace(/\/$/, "")) + "/" : "";

  function fold(text) {
    return text.normalize("NFKD").replace(/[\u0300-\u036f]/g, "").toLowerCase();
  }

  function readingKeys() {
    var keys = {};
    try {
      var list = JSON.parse(window.localStorage.getItem(KEY) || "[]");
      if (Array.isArray(list)) list.forEach(function (key) { if (typeof key === "string") keys[key] = true; });
    } catch (error) { /* storage refused or unreadable: an empty list */ }
    return keys;
  }

  function start() {
    var svg = document.querySelector(".paper-map");
    var form = document.querySelector("[data-map-find]");
    if (!svg || !form) return;
    var query = form.querySelector("input[type=search]");
    var reading = form.querySelector("[data-map-reading]");
    var output = form.querySelector("output");
    var marks = Array.prototype.map.call(svg.querySelectorAll("a"), function (link) {
      var title = link.querySelector("title");
      var href = link.getAttribute("href") || "";
      var slug = decodeURIComponent(href.replace(/^.*\//, "").replace(/\.html$/, ""));
      return { link: link, title: fold(title ? title.textContent : ""), key: PREFIX + slug };
    });

    function update() {
      var words = fold(query.value).split(/\s+/).filter(Boolean);
      var keys = reading.checked ? readingKeys() : null;
      var finding = words.length > 0 || keys !== null;
      var found = 0;
      marks.forEach(function (mark) {
        var hit = finding && (!keys || keys[mark.key] === true) && words.every(function (word) {
          return mark.title.indexOf(word) >= 0;
        });
        mark.link.classList.toggle("found", hit);
        if (hit) found += 1;
      });
      svg.classList.toggle("finding", finding);
      var pattern = form.getAttribute(found === 1 ? "data-one" : "data-other") || "{n}";
      output.textContent = finding ? pattern.replace("{n}", String(found)) : "";
    }

    var timer = 0;
    query.addEventListener("input", function () {
      window.clearTimeout(timer);
      timer = window.setTimeout(update, 60);
    });
    reading.addEventListener("change", update);
    form.addEventListener("submit", function (event) { event.preventDefault(); update(); });
    window.addEventListener("storage", function (event) { if (event.key === KEY && reading.checked) update(); });
    form.hidden = false;
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
