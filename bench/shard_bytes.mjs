// What the sharded search loads while a reader types a query, keystroke by keystroke (bench/search_bench.py).
//
//   node shard_bytes.mjs LUNR_JS SEARCH_QUERY_JS SEARCH_SHARDS_JS SITE QUERIES_JSON [SHOWN]
//
// For each query (a fresh reader: nothing cached), every prefix of it is asked as the box asks it
// (search-query.js `search`: a word that finds nothing is tried again within one edit; but for a prefix
// ending in a lone letter, which the box asks only when the reader pauses), then the
// first SHOWN results' display records are loaded (the dropdown shows 8). SITE is a volume, or a
// series (its manifest names its volumes): then the series' index is asked, and the records come
// from the volumes' own files, the newest volume's first, as search.js shows them. Prints
// {"queries": [{"query", "hits", "files": [paths under SITE, in load order], "words": [how many had
// loaded as each further word began], "typed": how many had loaded before the records}]}.
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import vm from "node:vm";

const [lunrPath, queryPath, shardsPath, site, queriesPath, shownArg] = process.argv.slice(2);
const shown = Number(shownArg || 8);
const require = createRequire(import.meta.url);
globalThis.lunr = require(lunrPath);
const search = require(queryPath);
const { Shards } = require(shardsPath);

let loaded = [];
function loader(root) {
  return (name) => {
    const file = path.join(site, root, "assets", "search", name + ".js");
    const box = { proceedingsShards: { arrived: (got, data) => { box.data = data; } } };
    vm.runInNewContext(readFileSync(file, "utf8"), box, { filename: file });
    loaded.push(path.relative(site, file));
    return Promise.resolve(box.data);
  };
}

/* The records the box shows: a volume's first hits; a series' hits by volume (the manifest's
   order, newest first), as many of each volume's as still fit. */
async function records(shards, hits) {
  const manifest = await shards.manifest();
  if (!manifest.volumes) return shards.records(hits.slice(0, shown));
  let room = shown;
  for (const [volume, first, count] of manifest.volumes) {
    const mine = hits.filter((ref) => ref >= first && ref < first + count).map((ref) => ref - first);
    if (!mine.length || room <= 0) continue;
    await new Shards(loader(volume)).records(mine.slice(0, room));
    room -= Math.min(room, mine.length);
  }
}

const out = [];
for (const query of JSON.parse(readFileSync(queriesPath, "utf8"))) {
  loaded = [];
  const shards = new Shards(loader(""));
  let hits = [];
  const starts = [];  // how many files had loaded as each further word began (a space typed)
  for (let end = 1; end <= query.length; end++) {
    if (query[end - 1] === " ") starts.push(loaded.length);
    if (end < query.length && search.unfinishedLetter(query.slice(0, end))) continue;  // the box waits
    const words = search.queryWords(query.slice(0, end));
    if (!words.length) continue;
    hits = (await search.search(shards, words)).hits;  // as the box asks: a word that finds nothing tried again
  }
  await records(shards, hits);  // as Pagefind's side: the shown results of the query typed
  const typed = loaded.length;
  out.push({ query, hits: hits.length, files: loaded, words: starts, typed });
}
console.log(JSON.stringify({ queries: out }));
