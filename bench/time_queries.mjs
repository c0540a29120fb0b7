// Load a search-index.js as the browser would (its JSON.parse and lunr.Index.load) and time
// search.js's own find() for each query, in node; bench/cjk_payload.py --node runs it.
//
//   node bench/time_queries.mjs LUNR_JS SEARCH_JS INDEX_JS QUERIES_JSON
//
// Prints JSON: {"load_ms": …, "queries": [[query, hits, ms], …]}; each query runs 5 times, the median counts.
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import vm from "node:vm";

const [lunrPath, searchPath, indexPath, queriesPath] = process.argv.slice(2);
const require = createRequire(import.meta.url);
globalThis.lunr = require(lunrPath);
const search = require(searchPath);

let start = performance.now();
const sandbox = {};
vm.runInNewContext(readFileSync(indexPath, "utf8"), sandbox);
const data = sandbox.proceedingsSearchData;
const index = lunr.Index.load(data.index);
const loadMs = performance.now() - start;

const queries = JSON.parse(readFileSync(queriesPath, "utf8")).map((query) => {
  const times = [];
  let hits = [];
  for (let run = 0; run < 5; run++) {
    start = performance.now();
    hits = search.find({ data, index }, search.queryWords(query), -1);
    times.push(performance.now() - start);
  }
  times.sort((a, b) => a - b);
  return [query, hits.length, Math.round(times[2] * 10) / 10];
});
console.log(JSON.stringify({ load_ms: Math.round(loadMs), queries }));
