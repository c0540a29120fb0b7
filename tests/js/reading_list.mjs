// Runs the theme's reading-list.js against a built site the way a paper page would, with just enough of a
// browser around it (a document whose script tags load files from the site), and prints what its Cite box
// would download for each paper: the citations reading-list.js makes from the paper's record in the
// site's assets/reading/ blocks (publish/reading_list.py).
//
//   node reading_list.mjs READING_LIST_JS SITE_DIR PAGES_JSON
//
// PAGES_JSON holds ["papers/<slug>.html", ...]; prints one JSON object {page: {texts, formats} or null}.
import { readFileSync } from "node:fs";
import { pathToFileURL, fileURLToPath } from "node:url";
import vm from "node:vm";

const [scriptPath, siteDir, pagesPath] = process.argv.slice(2);
const site = pathToFileURL(siteDir.endsWith("/") ? siteDir : siteDir + "/");
const pages = JSON.parse(readFileSync(pagesPath, "utf8"));

function element(tag) {
  return { tagName: tag, attributes: {}, getAttribute(name) { return this.attributes[name] ?? null; } };
}

const context = { URL, TextEncoder, Promise, JSON, Object, Array, String, Error };
const document = {
  baseURI: site.href,
  currentScript: Object.assign(element("script"), { src: new URL("assets/reading-list.js", site).href }),
  querySelector: () => null,
  querySelectorAll: () => [],
  addEventListener: () => {},
  createElement: element,
  // A script tag runs its file (as a browser would, with it as document.currentScript), then its onload.
  head: {
    appendChild(tag) {
      setTimeout(() => {
        let text;
        try {
          text = readFileSync(fileURLToPath(tag.src), "utf8");
        } catch (error) {
          tag.onerror();
          return;
        }
        const before = document.currentScript;
        document.currentScript = tag;
        vm.runInContext(text, context, { filename: tag.src });
        document.currentScript = before;
        tag.onload();
      }, 0);
    },
  },
};
const storage = new Map();
const window = {
  location: { href: site.href, hash: "" },
  addEventListener: () => {},
  localStorage: { getItem: (key) => storage.get(key) ?? null, setItem: (key, value) => storage.set(key, value) },
};
Object.assign(context, { document, window });
context.globalThis = context;
vm.createContext(context);
vm.runInContext(readFileSync(scriptPath, "utf8"), context, { filename: scriptPath });

const list = context.proceedingsReadingList;
const found = {};
for (const page of pages) {
  found[page] = await list.citationsOf(new URL(page, site).href);
}
console.log(JSON.stringify(found));
