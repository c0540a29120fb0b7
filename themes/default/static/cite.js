/* Copy buttons on paper pages: <button data-copy="ID"> copies the text of the element #ID.
 *
 * A file rather than inline script or onclick attributes, so a Content-Security-Policy
 * of script-src 'self' allows it. The button is hidden in the HTML and shown here, so a
 * reader without JavaScript never meets a button that does nothing; the text itself can
 * always be selected by hand. The Clipboard API needs a secure context (https, localhost;
 * most browsers count file: too); elsewhere, or when it is refused, the text is selected
 * and copied the old way, or left selected for Ctrl+C. What it says comes from the
 * button's data-copied and data-selected attributes (the message catalogue's words).
 *
 * The paper's own RIS and CSL-JSON downloads (<a data-cite-download="ris|csl" data-file="NAME">) are made here from its
 * record in the reading list's blocks (assets/reading/, loaded by script tag, so from file:// too, through
 * reading-list.js) at the first click: one copy of each paper's citations serves the reading list and the
 * Cite box, instead of two files beside every page. Their line is hidden in the HTML and shown here; without
 * JavaScript the volume's citation files below it remain.
 */
(function () {
  "use strict";

  function selectContents(element) {
    var range = document.createRange();
    range.selectNodeContents(element);
    var selection = window.getSelection();
    selection.removeAllRanges();
    selection.addRange(range);
  }

  function say(button, message) {
    var status = button.parentNode.querySelector(".copy-status");
    if (status) status.textContent = message;
  }

  function copyBySelection(button, source) {
    selectContents(source);
    var copied = false;
    try {
      copied = document.execCommand("copy");
    } catch (error) {
      copied = false;
    }
    say(button, button.getAttribute(copied ? "data-copied" : "data-selected") || "");
  }

  function copy(button) {
    var source = document.getElementById(button.getAttribute("data-copy"));
    if (!source) return;
    say(button, "");
    if (navigator.clipboard && window.isSecureContext) {
      navigator.clipboard.writeText(source.textContent).then(
        function () { say(button, button.getAttribute("data-copied") || ""); },
        function () { copyBySelection(button, source); }
      );
    } else {
      copyBySelection(button, source);
    }
  }

  var TYPES = { ris: "application/x-research-info-systems", csl: "application/vnd.citationstyles.csl+json" };

  function offerDownloads(links) {
    var list = globalThis.proceedingsReadingList;
    if (!links.length || !list || !list.citationsOf) return;
    var made = null;  // the files, asked for at the first click: a reader who never downloads loads nothing

    function fill(texts) {
      for (var i = 0; i < links.length; i++) {
        var format = links[i].getAttribute("data-cite-download");
        var file = new Blob([texts[format]], { type: TYPES[format] + ";charset=utf-8" });
        // A link to download has an address only once its file is made (a link without one is a placeholder).
        links[i].download = links[i].getAttribute("data-file");
        links[i].href = URL.createObjectURL(file);
      }
    }

    Array.prototype.forEach.call(links, function (link) {
      link.addEventListener("click", function (event) {
        if (link.href) return;  // made: the browser downloads it
        event.preventDefault();
        made = made || list.citationsOf(window.location.href);
        made.then(function (texts) {
          if (!texts) return;
          if (!link.href) fill(texts);
          link.click();
        });
      });
    });
    links[0].parentNode.hidden = false;
  }

  offerDownloads(document.querySelectorAll("a[data-cite-download]"));

  var buttons = document.querySelectorAll("button[data-copy]");
  for (var i = 0; i < buttons.length; i++) {
    var button = buttons[i];
    button.hidden = false;
    button.addEventListener("click", copy.bind(null, button));
  }
})();
