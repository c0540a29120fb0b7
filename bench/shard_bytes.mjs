// What the sharded search loads while a reader types a query, keystroke by keystroke (bench/search_bench.py).
//
//   node shard_bytes.mjs LUNR_JS SEARCH_QUERY_JS SEARCH_SHARDS_JS SHARDS_DIR QUERIES_JSON [SHOWN]
//
// For each query (a fresh reader: nothing cached), every prefix of it is asked as the box asks it
// (but for one ending in a lone letter, which the box asks only when the reader pauses),
// then the first SHOWN results' display records are loaded (the dropdown shows 8); prints
// {"queries": [{"query", "hits", "files": [names in load order]}]}.
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import vm from "node:vm";

const [lunrPath, queryPath, shardsPath, shardsDir, queriesPath, shownArg] = process.argv.slice(2);
const shown = Number(shownArg || 8);
const require = createRequire(import.meta.url);
globalThis.lunr = require(lunrPath);
const search = require(queryPath);
const { Shards } = require(shardsPath);

let loaded = [];
function load(name) {
  const file = path.join(shardsDir, name + ".js");
  const box = { proceedingsShards: { arrived: (got, data) => { box.data = data; } } };
  vm.runInNewContext(readFileSync(file, "utf8"), box, { filename: file });
  loaded.push(name);
  return Promise.resolve(box.data);
}

const out = [];
for (const query of JSON.parse(readFileSync(queriesPath, "utf8"))) {
  loaded = [];
  const shards = new Shards(load);
  let hits = [];
  for (let end = 1; end <= query.length; end++) {
    if (end < query.length && search.unfinishedLetter(query.slice(0, end))) continue;  // the box waits for the next key
    const words = search.queryWords(query.slice(0, end));
    if (!words.length) continue;
    const results = await shards.query(search.lunrQuery(words));
    hits = results.map((r) => Number(r.ref));
  }
  await shards.records(hits.slice(0, shown));  // as Pagefind's side: the shown results of the query typed
  out.push({ query, hits: hits.length, files: loaded });
}
console.log(JSON.stringify({ queries: out }));
