/* The home page's track filter (index.html, when the papers name two tracks or more: SIGDIAL/INLG's
   `conference`, a venue's `track`). Without scripts the filter stays hidden and every paper is listed. Choosing a
   track hides the papers not in it (an item names its tracks in data-track, "a|b"), the papers of a later session
   that are not in it, and the headings, and their day and time, of the groups left with none. */
(function () {
  "use strict";
  var filter = document.querySelector(".track-filter");
  if (!filter) return;
  var select = filter.querySelector("select");
  var items = document.querySelectorAll(".paper-item, .also-listed li");

  function inTrack(element, track) {
    return !track || (element.getAttribute("data-track") || "").split("|").indexOf(track) >= 0;
  }

  /* A group is its heading and what follows it up to the next heading: shown when one of its papers is. */
  function anyShown(part) {
    return Array.prototype.some.call(part.querySelectorAll(".paper-item, .also-listed li"),
                                     function (item) { return !item.hidden; });
  }

  /* A group is its heading and what follows it up to the next heading: shown when one of its papers is. */
  function showGroups() {
    document.querySelectorAll(".group-title").forEach(function (heading) {
      var parts = [];
      for (var node = heading.nextElementSibling; node && !node.classList.contains("group-title");
           node = node.nextElementSibling) {
        if (node.matches(".paper-list, .also-listed, .group-when")) parts.push(node);
      }
      var shown = parts.some(anyShown);
      heading.hidden = !shown;
      parts.forEach(function (part) { part.hidden = part.matches(".group-when") ? !shown : !anyShown(part); });
    });
  }

  function apply() {
    var track = select.value;
    items.forEach(function (item) { item.hidden = !inTrack(item, track); });
    showGroups();
    var url = new URL(window.location.href);
    if (track) url.searchParams.set("track", track); else url.searchParams.delete("track");
    if (window.location.protocol !== "file:") window.history.replaceState(null, "", url);
  }

  var wanted = new URLSearchParams(window.location.search).get("track");
  if (wanted && Array.prototype.some.call(select.options, function (o) { return o.value === wanted; })) {
    select.value = wanted;
  }
  select.addEventListener("change", apply);
  filter.hidden = false;
  if (select.value) apply();
})();
