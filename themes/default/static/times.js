/* The programme's times on the reader's own clock (issue 41). The pages write each session's times on the
 * venue's clock, each instant in <time datetime="2020-07-10T13:00:00-04:00"> (render/programme.py,
 * _when.html); this script offers the reader's zone (the browser's, Intl.DateTimeFormat().resolvedOptions())
 * and shows the same instants on it, daylight-saving time included, as the browser's time zone data has it.
 * The choice is remembered (localStorage; where a browser refuses it, as some do from file://, it lasts
 * for the page). Without this script the venue's times show. No request, no inline script: the CSP holds.
 */
(function () {
  "use strict";
  var KEY = "proceedings.times";
  var READER = "reader";
  var language = document.documentElement.lang || "en";
  var readerZone = "";
  try { readerZone = Intl.DateTimeFormat().resolvedOptions().timeZone || ""; } catch (error) { readerZone = ""; }
  var mode = "venue";
  try { mode = window.localStorage.getItem(KEY) === READER ? READER : "venue"; } catch (error) { mode = "venue"; }

  function formats(zone) {
    var options = zone ? { timeZone: zone } : {};
    function made(extra) {
      var all = {};
      Object.keys(options).forEach(function (name) { all[name] = options[name]; });
      Object.keys(extra).forEach(function (name) { all[name] = extra[name]; });
      return new Intl.DateTimeFormat(language, all);
    }
    return {
      date: made({ weekday: "short", year: "numeric", month: "short", day: "numeric" }),
      clock: made({ hour: "2-digit", minute: "2-digit", hourCycle: "h23" }),
      name: made({ timeZoneName: "short" }),
    };
  }

  function zoneName(format, date) {
    var found = format.name.formatToParts(date).filter(function (part) { return part.type === "timeZoneName"; });
    return found.length ? found[0].value : "";
  }

  /* The words of a span of two instants on the clock of ``zone`` ("" : the browser's own). */
  function words(start, end, zone) {
    var format = formats(zone), from = new Date(start), to = end ? new Date(end) : null;
    var day = format.date.format(from);
    var made = { start: day + ", " + format.clock.format(from), end: "", zone: zoneName(format, from) };
    if (to) {
      var endDay = format.date.format(to);
      made.end = (endDay === day ? "" : endDay + ", ") + format.clock.format(to);
    }
    return made;
  }

  /* Write a span's times (``span``: an element holding <time> elements, as _when.html writes them). */
  function write(span, made, zone) {
    var times = span.querySelectorAll("time");
    var label = span.querySelector(".zone");
    if (times[0]) times[0].textContent = made.start;
    if (times[1]) times[1].textContent = made.end;
    if (!label) {
      label = document.createElement("span");
      label.className = "zone";
      span.appendChild(document.createTextNode(" "));
      span.appendChild(label);
    }
    label.textContent = made.zone;
    if (zone) label.title = zone; else label.removeAttribute("title");
  }

  /* Every span of instants under ``root`` on the chosen clock; the venue's words are kept to go back to. */
  function paint(root) {
    var spans = (root || document).querySelectorAll("[data-when]");
    for (var i = 0; i < spans.length; i++) {
      var span = spans[i], times = span.querySelectorAll("time");
      if (!times.length) continue;
      if (!span.proceedingsVenue) {
        var label = span.querySelector(".zone");
        span.proceedingsVenue = {
          start: times[0].textContent, end: times[1] ? times[1].textContent : "",
          zone: label ? label.textContent : "", title: label ? label.title : "",
        };
      }
      if (mode === READER) {
        write(span, words(times[0].getAttribute("datetime"), times[1] ? times[1].getAttribute("datetime") : "",
                          readerZone), readerZone);
      } else {
        write(span, span.proceedingsVenue, span.proceedingsVenue.title);
      }
    }
  }

  function choices() {
    var places = document.querySelectorAll("[data-time-zone]");
    for (var i = 0; i < places.length; i++) choice(places[i]);
  }

  function choice(place) {
    var said = {};
    try { said = JSON.parse(place.getAttribute("data-words") || "{}"); } catch (error) { said = {}; }
    var venue = place.getAttribute("data-time-zone") || "";
    while (place.firstChild) place.removeChild(place.firstChild);
    var status = document.createElement("span");
    status.className = "time-zone-status";
    status.textContent = (mode === READER ? said.reader || "" : said.venue || "")
      .replace("{zone}", mode === READER ? readerZone : venue);
    var button = document.createElement("button");
    button.type = "button";
    button.className = "copy-button";
    button.textContent = mode === READER ? said.to_venue || "" : said.to_reader || "";
    button.addEventListener("click", function () {
      mode = mode === READER ? "venue" : READER;
      try { window.localStorage.setItem(KEY, mode); } catch (error) { /* the choice lasts for the page */ }
      paint(document);
      choices();
      var again = document.querySelectorAll("[data-time-zone] button");
      for (var n = 0; n < again.length; n++) if (again[n].parentNode === place) again[n].focus();
    });
    place.appendChild(status);
    place.appendChild(document.createTextNode(" "));
    place.appendChild(button);
    place.hidden = false;
  }

  window.proceedingsTimes = {
    paint: paint,
    words: words,
    /* The clock the pages show: the reader's zone when chosen, else "" (the venue's). */
    zone: function () { return mode === READER ? readerZone : ""; },
  };
  function start() {
    if (!readerZone) return;  // a browser that cannot say its zone: the venue's times stay
    paint(document);
    choices();
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
