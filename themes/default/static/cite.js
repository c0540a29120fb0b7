/* The Cite box's buttons on paper pages: "Copy BibTeX" under #bibtex and "Copy APA reference" under
 * #apa-reference copy the text of that element, and "Download: RIS · CSL-JSON · MODS · EndNote" gives the paper's own files.
 *
 * A file rather than inline script or onclick attributes, so a Content-Security-Policy of script-src
 * 'self' allows it. The buttons are made here, not written in the page (issue 29: they were 700 bytes of
 * every paper page): a reader without JavaScript never meets a button that does nothing, and the text
 * itself can always be selected by hand. Their words are the volume's, in assets/search-messages.js
 * (globalThis.proceedingsCiteMessages: copy_bibtex, copy_apa, copied, selected, download). The Clipboard
 * API needs a secure context (https, localhost; most browsers count file: too); elsewhere, or when it is
 * refused, the text is selected and copied the old way, or left selected for Ctrl+C.
 *
 * The paper's own RIS and CSL-JSON are made from its record in the reading list's blocks (assets/reading/,
 * loaded by script tag, so from file:// too, through reading-list.js) at the first click: one copy of each
 * paper's citations serves the reading list and the Cite box, instead of two files beside every page. Which
 * formats the box offers is this theme's choice (OFFERED); their files' suffixes and types, and their texts,
 * are the build's (publish/formats.py), from the reading list's manifest.
 * Without JavaScript the volume's citation files below remain.
 */
(function () {
  "use strict";

  var WORDS = globalThis.proceedingsCiteMessages || {};

  function selectContents(element) {
    var range = document.createRange();
    range.selectNodeContents(element);
    var selection = window.getSelection();
    selection.removeAllRanges();
    selection.addRange(range);
  }

  function say(button, message) {
    var status = button.parentNode.querySelector(".copy-status");
    if (status) status.textContent = message || "";
  }

  function copyBySelection(button, source) {
    selectContents(source);
    var copied = false;
    try {
      copied = document.execCommand("copy");
    } catch (error) {
      copied = false;
    }
    say(button, copied ? WORDS.copied : WORDS.selected);
  }

  function copy(button) {
    var source = document.getElementById(button.getAttribute("data-copy"));
    if (!source) return;
    say(button, "");
    if (navigator.clipboard && window.isSecureContext) {
      navigator.clipboard.writeText(source.textContent).then(
        function () { say(button, WORDS.copied); },
        function () { copyBySelection(button, source); }
      );
    } else {
      copyBySelection(button, source);
    }
  }

  /* A line of actions after ``place``: a button copying the element ``id``, and where it says so. */
  function actions(place, id, label) {
    var line = document.createElement("p");
    line.className = "cite-actions";
    var button = line.appendChild(document.createElement("button"));
    button.type = "button";
    button.className = "copy-button";
    button.setAttribute("data-copy", id);
    button.textContent = label || "";
    button.addEventListener("click", copy.bind(null, button));
    var status = line.appendChild(document.createElement("span"));
    status.className = "copy-status";
    status.setAttribute("role", "status");
    status.setAttribute("aria-live", "polite");
    place.parentNode.insertBefore(line, place.nextSibling);
    return line;
  }

  var OFFERED = [["ris", "RIS"], ["csl", "CSL-JSON"], ["mods", "MODS"], ["enw", "EndNote"]];  // (format name, label): shown before any file is loaded

  /* "Download: RIS CSL-JSON" at the end of ``line``: each a link whose file is made at the first click. */
  function offerDownloads(line) {
    var list = globalThis.proceedingsReadingList;
    if (!list || !list.citationsOf) return;
    var slug = "";
    try {  // papers/<slug>.html: the files are named after the page, as the volume's are after the volume
      slug = decodeURIComponent(window.location.pathname.split("/").pop()).replace(/\.html$/, "");
    } catch (error) { slug = ""; }
    var holder = line.appendChild(document.createElement("span"));
    holder.className = "cite-files";
    holder.appendChild(document.createTextNode((WORDS.download || "") + " "));
    var made = null;  // the files, asked for at the first click: a reader who never downloads loads nothing
    var links = OFFERED.map(function (offered, number) {
      if (number) holder.appendChild(document.createTextNode(" "));
      var link = holder.appendChild(document.createElement("a"));
      link.setAttribute("data-cite-download", offered[0]);
      link.setAttribute("role", "button");  // no address until its file is made
      link.tabIndex = 0;
      link.textContent = offered[1];
      return link;
    });

    function fill(found) {
      links.forEach(function (link) {
        var name = link.getAttribute("data-cite-download");
        var format = found.formats.filter(function (each) { return each.name === name; })[0];
        if (!format) return;
        var file = new Blob([found.texts[name]], { type: format.type + ";charset=utf-8" });
        link.download = (slug || "citation") + format.suffix;
        link.href = URL.createObjectURL(file);
        link.removeAttribute("role");
        link.removeAttribute("tabindex");
      });
    }

    links.forEach(function (link) {
      function start(event) {
        if (link.href) return;  // made: the browser downloads it
        event.preventDefault();
        made = made || list.citationsOf(window.location.href);
        made.then(function (found) {
          if (!found) return;
          if (!link.href) fill(found);
          if (link.href) link.click();  // a format the build no longer writes stays a link to nothing
        });
      }
      link.addEventListener("click", start);
      link.addEventListener("keydown", function (event) {
        if (!link.href && (event.key === "Enter" || event.key === " ")) start(event);
      });
    });
  }

  var bibtex = document.getElementById("bibtex");
  if (bibtex) actions(bibtex, "bibtex", WORDS.copy_bibtex);
  var apa = document.getElementById("apa-reference");
  var apaLine = apa && apa.closest("p");
  if (apaLine) offerDownloads(actions(apaLine, "apa-reference", WORDS.copy_apa));
})();
