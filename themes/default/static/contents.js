/* A list's "Abstract" toggles (the home, topic, session and author pages), opened in place: the
   abstract comes from the small script under assets/abstracts/ that holds it (generator/render/
   abstracts.py), injected when a reader first opens a toggle whose file has not come yet. A script,
   not fetch(), so that it works from file:// too. Without scripts a toggle links the paper's page. */
(function () {
  "use strict";

  var ROOT = new URL("../", document.currentScript.src);
  var files = Object.create(null);  // file name → Promise of {paper id: abstract HTML}
  var arrivals = Object.create(null);  // script URL → resolve of the load waiting for its data

  globalThis.proceedingsAbstracts = {
    arrived: function (name, data) {
      var current = document.currentScript, resolve = current && arrivals[current.src];
      if (!resolve) return;
      delete arrivals[current.src];
      resolve(data);
    },
  };

  function load(name) {
    if (!files[name]) {
      var url = new URL("assets/abstracts/" + name + ".js", ROOT).href;
      files[name] = new Promise(function (resolve, reject) {
        arrivals[url] = resolve;
        var tag = document.createElement("script");
        tag.src = url;
        tag.onload = function () {  // a file that ran without handing over its data is no file of ours
          if (arrivals[url] === resolve) { delete arrivals[url]; reject(new Error("no data in " + url)); }
        };
        tag.onerror = function () { delete arrivals[url]; reject(new Error("could not load " + url)); };
        document.head.appendChild(tag);
      });
      files[name].catch(function () { delete files[name]; });  // the next opening tries again
    }
    return files[name];
  }

  /* The abstract's HTML is the build's own rendering of it (as on the paper's page, everything from
     the content escaped); the page's CSP lets no script in it run. */
  function fill(details) {
    var name = details.getAttribute("data-abstract"), id = details.getAttribute("data-paper");
    load(name).then(function (abstracts) {
      if (!Object.prototype.hasOwnProperty.call(abstracts, id)) return;
      details.querySelector(".abstract").innerHTML = abstracts[id];
      details.setAttribute("data-loaded", "");
    }, function () {});  // the link to the paper's page stays
  }

  // "toggle" does not bubble: listened for on the way down.
  document.addEventListener("toggle", function (event) {
    var details = event.target;
    if (details.open && details.hasAttribute && details.hasAttribute("data-abstract") &&
        !details.hasAttribute("data-loaded")) {
      fill(details);
    }
  }, true);
})();
