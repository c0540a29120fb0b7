// What a word tried again within one edit costs (issue 38): for each query, asked whole by a reader with
// nothing cached, the files of the exact query (Shards#query, as the box asks it), then those the box's
// whole search adds when the words find nothing (search-query.js `search`: the buckets f<n>.js and the
// corrected words' term shards), gzip -6 as the other benches count.
//
//   node bench/typo_bytes.mjs LUNR_JS SITE QUERY…
//
// e.g. node bench/typo_bytes.mjs "$(python -c 'from generator.search import lunr_js_path; print(lunr_js_path())')" \
//        bench/out/search-authors-2000/site agnostc convolutonal srebor
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import vm from "node:vm";
import zlib from "node:zlib";

const [lunrPath, site, ...queries] = process.argv.slice(2);
const require = createRequire(import.meta.url);
const STATIC = new URL("../themes/default/static/", import.meta.url).pathname;
globalThis.lunr = require(lunrPath);
const search = require(path.join(STATIC, "search-query.js"));
const { Shards } = require(path.join(STATIC, "search-shards.js"));

let loaded = [];
const file = (name) => path.join(site, "assets", "search", name + ".js");
function load(name) {
  const box = { proceedingsShards: { arrived: (got, data) => { box.data = data; } } };
  vm.runInNewContext(readFileSync(file(name), "utf8"), box);
  loaded.push(name);
  return Promise.resolve(box.data);
}
const gzipped = (names) => names.reduce((sum, name) => sum + zlib.gzipSync(readFileSync(file(name)), { level: 6 }).length, 0);

for (const query of queries) {
  const shards = new Shards(load), words = search.queryWords(query);
  loaded = [];
  await shards.query(search.lunrQuery(words), search.requiredTests(words));
  const exact = loaded;
  loaded = [];
  const found = await search.search(shards, words);
  const retry = loaded;
  const fixed = found.fixed.map((w) => Object.values(w.alternatives).join("/")).join(" ");
  console.log(`${query}: ${found.hits.length} results${fixed ? ` (tried again as ${fixed})` : ""}; exact query `
    + `${exact.length} files ${(gzipped(exact) / 1e3).toFixed(1)} KB; tried again +${retry.length} files `
    + `(${retry.filter((n) => n[0] === "f").length} buckets) +${(gzipped(retry) / 1e3).toFixed(1)} KB`);
}
