/* The map of the papers (map.html), made more useful where scripts run.
 *
 * A large volume's page draws a spread of its papers itself (render/map_points.py) and names, in the map's
 * data-files, the scripts holding every paper's point (map/points-N.js, each calling
 * proceedingsMap.arrived(name, points) with [x, y, colour group, slug, title] a point): they are loaded as
 * scripts, since fetch() is refused from file://, and the points the page does not draw are drawn in the
 * files' order as the same links the page draws, each into its colour's group. A small volume's page draws
 * every paper and names no file.
 *
 * It shows the map's form: the words typed there highlight the papers whose titles hold them all (as the
 * title each dot carries, case and accents aside), and "Highlight my reading list" the papers of the reader's
 * reading list, read from this browser's storage under reading-list.js's key. It works from file:// and under
 * the site's Content-Security-Policy. The form's data-one / data-other say how many were found ("{n}" stands
 * for the number).
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

  /* Every points file calls proceedingsMap.arrived(name, points) as it runs; which file it is is told by
     document.currentScript (set while a classic script runs), as search.js does. */
  var arrivals = Object.create(null);  // script URL → its load's resolve

  globalThis.proceedingsMap = {
    arrived: function (name, points) {
      var current = document.currentScript, url = current && current.src;
      if (url && arrivals[url]) arrivals[url](points);
    },
  };

  /* A Promise of the points of the script at url (rejected when it cannot be loaded). */
  function loadPoints(url) {
    return new Promise(function (resolve, reject) {
      var tag = document.createElement("script"), points = null;
      arrivals[url] = function (data) { points = data; };
      tag.src = url;
      tag.async = true;
      tag.onload = function () {
        delete arrivals[url];
        if (Array.isArray(points)) resolve(points); else reject(new Error("no points in " + url));
      };
      tag.onerror = function () { delete arrivals[url]; reject(new Error("could not load " + url)); };
      document.head.appendChild(tag);
    });
  }

  var SVG = "http://www.w3.org/2000/svg";

  /* The points as the page's own marks: a link to the paper, its title first (its name and its tooltip),
     its dot; each appended to its colour's group, after the page's. */
  function draw(svg, points, radius, shown) {
    var pieces = Object.create(null), links = [];
    points.forEach(function (point) {
      var href = "papers/" + point[3] + ".html";
      if (shown[href] === true) return;  // the page draws it
      shown[href] = true;
      var link = document.createElementNS(SVG, "a"), title = document.createElementNS(SVG, "title");
      var dot = document.createElementNS(SVG, "circle");
      link.setAttribute("href", href);
      title.textContent = point[4];
      dot.setAttribute("cx", point[0]);
      dot.setAttribute("cy", point[1]);
      dot.setAttribute("r", radius);
      link.appendChild(title);
      link.appendChild(dot);
      links.push(link);
      (pieces[point[2]] || (pieces[point[2]] = document.createDocumentFragment())).appendChild(link);
    });
    Object.keys(pieces).forEach(function (group) {
      var holder = svg.querySelector("g.m" + group);
      if (holder) holder.appendChild(pieces[group]);
    });
    return links;
  }

  /* Load the files named by the map's data-files, all at once, and draw them in the files' order (so that the
     keyboard's order is the same at every visit), those arrived by the next frame together; onDrawn(the new
     links) after each drawing. */
  function loadRest(svg, note, onDrawn) {
    var files = (svg.getAttribute("data-files") || "").split(" ").filter(Boolean);
    if (!files.length) return;
    var radius = svg.getAttribute("data-radius") || "3";
    var drawn = Number(svg.getAttribute("data-drawn")) || 0;
    var count = Number(svg.getAttribute("data-count")) || 0;
    var shown = Object.create(null);
    Array.prototype.forEach.call(svg.querySelectorAll("a"), function (link) {
      shown[link.getAttribute("href")] = true;
    });
    function say(pattern) {
      if (note) note.textContent = (note.getAttribute(pattern) || "").replace("{n}", String(drawn))
        .replace("{count}", String(count));
    }
    var ready = [], next = 0, pending = false;
    svg.setAttribute("aria-busy", "true");
    say("data-loading");
    files.forEach(function (file, n) {
      loadPoints(new URL(file, document.baseURI).href).then(function (points) {
        ready[n] = points;
        if (!pending) {
          pending = true;
          window.requestAnimationFrame(flush);
        }
      }, function () {
        svg.removeAttribute("aria-busy");  // a file missing: the page's own dots and those drawn stay
      });
    });

    /* Once a frame: the files arrived since, in order, drawn together (one style pass for them all). */
    function flush() {
      pending = false;
      var points = [];
      while (next < files.length && ready[next]) {
        points = points.concat(ready[next]);
        ready[next] = null;
        next += 1;
      }
      if (points.length) {
        var links = draw(svg, points, radius, shown);
        drawn += links.length;
        onDrawn(links);
      }
      if (next < files.length) {
        say("data-loading");
        return;
      }
      svg.removeAttribute("aria-busy");
      svg.setAttribute("data-complete", "");
      say("data-done");
    }
  }

  function start() {
    var svg = document.querySelector(".paper-map");
    var form = document.querySelector("[data-map-find]");
    if (!svg || !form) return;
    var query = form.querySelector("input[type=search]");
    var reading = form.querySelector("[data-map-reading]");
    var output = form.querySelector("output");
    var marks = [];

    /* The marks of these links, added to ``marks``. */
    function collect(links) {
      Array.prototype.forEach.call(links, function (link) {
        var title = link.querySelector("title");
        var href = link.getAttribute("href") || "";
        var slug = decodeURIComponent(href.replace(/^.*\//, "").replace(/\.html$/, ""));
        marks.push({ link: link, title: fold(title ? title.textContent : ""), key: PREFIX + slug });
      });
    }
    collect(svg.querySelectorAll("a"));

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
    loadRest(svg, document.querySelector("[data-map-count]"), function (links) {
      collect(links);
      if (svg.classList.contains("finding")) update();
    });
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
