// The oracle test of the sharded index: every query asked of lunr.js over the whole index
// (search-index.js) and over the shards (search-shards.js, loading assets/search/*.js from disk).
//
//   node shards_equal.mjs LUNR_JS SEARCH_QUERY_JS SEARCH_SHARDS_JS INDEX_JS SHARDS_DIR QUERIES_JSON
//
// QUERIES_JSON holds [{"box": "words as typed"} or {"lunr": "a lunr query string"} or {"typo": "words as
// typed"}, ...]; prints
// {"results": [[[whole refs and scores], [shard refs and scores], [shard files loaded], box]], ...]}, where
// box (for a box query, else null) is [[the results the box keeps of the whole index's: ref and score],
// [those of the shards asked as the box asks them, with its required words' tests], how many results
// lunr.js scored so]. For a typo query (the box's whole search, a word that finds nothing tried again within
// one edit: search-query.js `search`), the whole and the shards' answers are [hits, [ref, score] of each,
// the alternatives of each word tried again].
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import vm from "node:vm";

const [lunrPath, queryPath, shardsPath, indexPath, shardsDir, queriesPath] = process.argv.slice(2);
const require = createRequire(import.meta.url);
globalThis.lunr = require(lunrPath);
const search = require(queryPath);
const { Shards } = require(shardsPath);

const sandbox = {};
vm.runInNewContext(readFileSync(indexPath, "utf8"), sandbox, { filename: indexPath });
const whole = lunr.Index.load(sandbox.proceedingsSearchData.index);

// A shard file is a script calling proceedingsShards.arrived(name, data), as in a browser.
let loaded = [];
function load(name) {
  const file = path.join(shardsDir, name + ".js");
  const box = { proceedingsShards: { arrived: (got, data) => { box.data = data; box.name = got; } } };
  vm.runInNewContext(readFileSync(file, "utf8"), box, { filename: file });
  if (box.name !== name) throw new Error(`${file} says it is ${box.name}`);
  loaded.push(name);
  return Promise.resolve(box.data);
}
const shards = new Shards(load);

const scored = (results) => results.map((r) => [Number(r.ref), r.score, Object.keys(r.matchData.metadata).sort()]);
function kept(found, words) {
  const scores = new Map(found.map((r) => [Number(r.ref), r.score]));
  return search.requiredHits(found, words).map((ref) => [ref, scores.get(ref)]);
}
const results = [];
for (const q of JSON.parse(readFileSync(queriesPath, "utf8"))) {
  loaded = [];
  shards.files = Object.create(null);  // each query from a cold start: what it fetches alone
  let expected, got, box = null;
  if (q.typo !== undefined) {
    const words = search.queryWords(q.typo);
    const summary = (found) => [found.hits, kept(found.results, found.words),
                                found.fixed.map((w) => Object.keys(w.alternatives).sort())];
    const fromWhole = summary(await search.search(search.wholeEngine(whole), words));
    results.push([fromWhole, summary(await search.search(shards, words)), loaded, null]);
    continue;
  }
  if (q.box !== undefined) {
    const words = search.queryWords(q.box), fn = search.lunrQuery(words);
    expected = whole.query(fn);
    got = await shards.query(fn);
    const asBox = await shards.query(fn, search.requiredTests(words));
    box = [kept(expected, words), kept(asBox, words), asBox.length];
  } else {
    expected = whole.search(q.lunr);
    got = await shards.search(q.lunr);
  }
  results.push([scored(expected), scored(got), loaded, box]);
}
console.log(JSON.stringify({ results }));
