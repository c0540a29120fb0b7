// Loads lunr.js, a generated search-index.js and the theme's search-query.js (the query
// code the search box, search.js, uses for a volume and a series alike) the way a browser
// would, then answers queries with its own code.
//
//   node load_index.mjs LUNR_JS SEARCH_QUERY_JS INDEX_JS QUERIES_JSON
//
// QUERIES_JSON holds [{"query": "...", "tag": -1} or {"terms": "some text"} or
// {"query": "...", "mark": "some text"} or {"latex": "a query as typed"}, ...]; prints one JSON object:
// {"loaded": true, "results": [...]}, each result the doc numbers a query finds
// (best first), the index terms search.js makes of a text (stop words left out), or
// the parts of a text a query highlights ([["marked", ...]]), the query as the box reads its LaTeX; or {"loaded": false, "error": "..."} when
// lunr.Index.load refuses the index.
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import vm from "node:vm";

const [lunrPath, searchPath, indexPath, queriesPath] = process.argv.slice(2);
const require = createRequire(import.meta.url);

globalThis.lunr = require(lunrPath);
const search = require(searchPath);

// The index is a classic script that assigns a global; run it in a sandbox.
const sandbox = {};
vm.runInNewContext(readFileSync(indexPath, "utf8"), sandbox, { filename: indexPath });
const data = sandbox.proceedingsSearchData;

let index;
try {
  index = lunr.Index.load(data.index);
} catch (error) {
  console.log(JSON.stringify({ loaded: false, error: String(error.message || error) }));
  process.exit(0);
}

const queries = JSON.parse(readFileSync(queriesPath, "utf8"));
function answer({ query, tag = -1, terms, mark, latex, unfinished }) {
  if (latex !== undefined) return search.fromLatex(latex);
  if (unfinished !== undefined) return search.unfinishedLetter(unfinished);
  if (terms !== undefined) return search.queryWords(terms).filter((w) => w.required).map((w) => w.stem);
  if (mark !== undefined) {
    return search.markedRanges(mark, search.queryWords(query)).map(([a, b]) => mark.slice(a, b));
  }
  return search.find({ data, index }, search.queryWords(query), tag);
}

const results = queries.map(answer);
console.log(JSON.stringify({ loaded: true, results }));
