/* Proceedings search over a sharded index (generator/search/shards.py): a query loads the term
   shards it can match, builds from them a small lunr.Index holding every term the query can expand
   to and, for each document those terms name, their entries of its field vectors, and asks lunr.js.
   lunr.js scores over the query's terms only, so the results and their order are those of the
   whole index (tests/test_search_shards.py). No DOM here: `load(name)` is given, a Promise of a
   file's data (a script tag in a browser, a file read in node). */
(function () {
  "use strict";

  function Shards(load) {
    this.load = load;
    this.files = Object.create(null);  // name → Promise of its data; no prototype, so no name is taken
  }

  Shards.prototype.file = function (name) {
    var files = this.files;
    if (!files[name]) {
      files[name] = this.load(name);
      files[name].catch(function () { delete files[name]; });  // the next query tries again
    }
    return files[name];
  };

  Shards.prototype.manifest = function () { return this.file("manifest"); };

  /* The last shard whose first term is not after `term` (JavaScript compares UTF-16 code units,
     the order the shards are cut in), or -1 when `term` sorts before every shard. */
  function shardOf(firsts, term) {
    var lo = 0, hi = firsts.length - 1, found = -1;
    while (lo <= hi) {
      var mid = (lo + hi) >> 1;
      if (firsts[mid] <= term) { found = mid; lo = mid + 1; } else hi = mid - 1;
    }
    return found;
  }

  /* The shards a clause's term may match in: one for a plain term, the run of shards a trailing
     wildcard's prefix spans, every shard for a typo distance or any other wildcard. */
  function shardsOfTerm(firsts, term, editDistance) {
    var star = term.indexOf("*");
    if (editDistance > 0 || (star >= 0 && star !== term.length - 1)) {
      return firsts.map(function (first, n) { return n; });
    }
    if (star < 0) {
      var one = shardOf(firsts, term);
      return one < 0 ? [] : [one];
    }
    var prefix = term.slice(0, -1), lo = Math.max(shardOf(firsts, prefix), 0), hi = lo, wanted = [];
    while (hi + 1 < firsts.length && firsts[hi + 1].lastIndexOf(prefix, 0) === 0) hi += 1;
    for (var n = lo; n <= hi && n < firsts.length; n++) wanted.push(n);
    return wanted;
  }

  /* Each clause's terms as lunr.js's Index#query looks them up: [term, typo distance] each. */
  function clauseTerms(query, pipeline) {
    var found = [];
    query.clauses.forEach(function (clause) {
      var terms = clause.usePipeline ? pipeline.runString(clause.term, { fields: clause.fields }) : [clause.term];
      terms.forEach(function (term) { found.push([term, clause.editDistance || 0]); });
    });
    return found;
  }

  function neededShards(manifest, looked) {
    var wanted = Object.create(null);
    looked.forEach(function (pair) {
      shardsOfTerm(manifest.shards, pair[0], pair[1]).forEach(function (n) { wanted[n] = true; });
    });
    return Object.keys(wanted).map(Number).sort(function (a, b) { return a - b; });
  }

  /* Whether a term of the loaded shards can match a clause of the query: lunr.js expands a clause
     only to such terms (the term itself, or those its trailing wildcard begins) and scores over them
     only, so the index needs no other; a typo distance or another wildcard may match any term. */
  function matcher(looked) {
    var exact = Object.create(null), prefixes = [], any = false;
    looked.forEach(function (pair) {
      var term = pair[0], star = term.indexOf("*");
      if (pair[1] > 0 || (star >= 0 && star !== term.length - 1)) any = true;
      else if (star < 0) exact[term] = true;
      else prefixes.push(term.slice(0, -1));
    });
    return function (term) {
      return any || exact[term] === true || prefixes.some(function (p) { return term.lastIndexOf(p, 0) === 0; });
    };
  }

  var NO_METADATA = Object.freeze({});  // a posting's metadata: lunr.js only reads its keys

  /* A lunr.Index of the shards' terms the query can match. Field vectors hold only those terms'
     entries: all a score over them reads. A negated query ("-word" alone) goes through every
     document's field vectors in the whole index's order (document by document, field by field), so
     they are all made. */
  function miniIndex(manifest, shards, negated, wanted, kept) {
    var fields = manifest.fields, invertedIndex = Object.create(null), vectors = Object.create(null);
    var terms = [];
    if (negated) {
      for (var doc = 0; doc < manifest.documents; doc++) {
        fields.forEach(function (field) { vectors[field + "/" + doc] = []; });
      }
    }
    shards.forEach(function (shard) {
      shard.forEach(function (entry) {
        if (!wanted(entry[0])) return;
        var posting = { _index: entry[1] };
        fields.forEach(function (field, f) {
          var list = entry[2 + f], byRef = {}, ref = 0;
          for (var k = 0; k < list.length; k += 2) {
            ref += list[k];
            if (kept && kept[ref] !== true) continue;
            byRef[ref] = NO_METADATA;
            var key = field + "/" + ref;
            (vectors[key] || (vectors[key] = [])).push([entry[1], list[k + 1] / 1000]);
          }
          posting[field] = byRef;
        });
        invertedIndex[entry[0]] = posting;
        terms.push(entry[0]);
      });
    });
    var fieldVectors = Object.create(null);
    Object.keys(vectors).forEach(function (key) {
      var pairs = vectors[key].sort(function (a, b) { return a[0] - b[0]; }), flat = [];
      pairs.forEach(function (pair) { flat.push(pair[0], pair[1]); });
      fieldVectors[key] = new lunr.Vector(flat);
    });
    return new lunr.Index({
      invertedIndex: invertedIndex, fieldVectors: fieldVectors, tokenSet: lunr.TokenSet.fromArray(terms),
      fields: fields, pipeline: lunr.Pipeline.load(["stemmer"]),
    });
  }

  /* The documents that hold, for each of `required` (a test of a term: a word every result must
     match), some term of the loaded shards that passes it, in any field: as an object ref → true. */
  function holdingEvery(manifest, shards, wanted, required) {
    var counts = Object.create(null), kept = Object.create(null);
    required.forEach(function (test, r) {
      var seen = Object.create(null);
      shards.forEach(function (shard) {
        shard.forEach(function (entry) {
          if (!wanted(entry[0]) || !test(entry[0])) return;
          manifest.fields.forEach(function (field, f) {
            var list = entry[2 + f], ref = 0;
            for (var k = 0; k < list.length; k += 2) {
              ref += list[k];
              if (seen[ref] === true) continue;
              seen[ref] = true;
              if ((counts[ref] || 0) === r) counts[ref] = r + 1;
            }
          });
        });
      });
    });
    Object.keys(counts).forEach(function (ref) { if (counts[ref] === required.length) kept[ref] = true; });
    return kept;
  }

  /* lunr's Index#query over the shards a query needs: `build` fills a lunr.Query as
     Index#query's function does, or parses a query string as Index#search does. `required`
     (optional): tests of a term, one per word every result the caller keeps must match (the
     box's words: search-query.js requiredTests); a document that holds no term passing one of
     them is left out of the index lunr.js scores. Its results are then the ones the caller keeps,
     with the same scores and in the same order (a score reads only the document's own vectors),
     and a query of several words, one of them common, scores the few documents holding them all
     instead of every document holding any of them. */
  Shards.prototype.run = function (build, required) {
    var self = this;
    return this.manifest().then(function (manifest) {
      var query = new lunr.Query(manifest.fields), pipeline = lunr.Pipeline.load(["stemmer"]);
      build(query);
      var looked = clauseTerms(query, pipeline), wanted = neededShards(manifest, looked);
      return Promise.all(wanted.map(function (n) { return self.file("t" + n); })).then(function (shards) {
        var negated = query.isNegated(), terms = matcher(looked);
        var kept = required && required.length && !negated ? holdingEvery(manifest, shards, terms, required) : null;
        var index = miniIndex(manifest, shards, negated, terms, kept);
        return index.query(function (q) { q.clauses = query.clauses; });
      });
    });
  };

  Shards.prototype.query = function (fn, required) {
    return this.run(function (query) { fn.call(query, query); }, required);
  };

  Shards.prototype.search = function (text) {
    return this.run(function (query) { new lunr.QueryParser(text, query).parse(); });
  };

  /* Whether the index holds a term passing `test` among those the query `fn` makes (as for `query`) can
     match: the shards its clauses need, most often loaded already by the query that found nothing.
     With `query` and `existing`, what search-query.js's `search` asks of an engine. */
  Shards.prototype.holds = function (fn, test) {
    var self = this;
    return this.manifest().then(function (manifest) {
      var query = new lunr.Query(manifest.fields);
      fn.call(query, query);
      var wanted = neededShards(manifest, clauseTerms(query, lunr.Pipeline.load(["stemmer"])));
      return Promise.all(wanted.map(function (n) { return self.file("t" + n); })).then(function (shards) {
        return shards.some(function (shard) { return shard.some(function (entry) { return test(entry[0]); }); });
      });
    });
  };

  /* FNV-1a (32 bits) of a bucket's key, over UTF-16 code units: generator/search/fuzzy.py key_hash. */
  function keyHash(key) {
    var h = 0x811c9dc5;
    for (var i = 0; i < key.length; i++) h = Math.imul(h ^ key.charCodeAt(i), 0x01000193) >>> 0;
    return h;
  }

  var KEY_FROM = 3;  // generator/search/fuzzy.py: a term is listed under its first three code units and the rest

  /* Which of `terms` (each of three or more code units) the index holds, told by the buckets of terms
     (generator/search/fuzzy.py): a term beginning with `prefix` (three code units) is looked for in the
     bucket of its first three, any other in the bucket of the rest, so the variants of one word need a
     few buckets, not every term shard. Promise of {term: how many documents hold it} for those held. */
  Shards.prototype.existing = function (terms, prefix) {
    var self = this;
    return this.manifest().then(function (manifest) {
      var count = manifest.fuzzy || 0, byBucket = Object.create(null);
      if (!count) return Object.create(null);
      terms.forEach(function (term) {
        var key = term.slice(0, KEY_FROM) === prefix ? "<" + prefix : ">" + term.slice(KEY_FROM);
        byBucket[keyHash(key) % count] = true;
      });
      var numbers = Object.keys(byBucket);
      return Promise.all(numbers.map(function (n) { return self.file("f" + n); })).then(function (buckets) {
        var listed = Object.create(null), held = Object.create(null);
        buckets.forEach(function (bucket) {
          for (var k = 0; k < bucket.length; k += 2) listed[bucket[k]] = bucket[k + 1];
        });
        terms.forEach(function (term) { if (listed[term] !== undefined) held[term] = listed[term]; });
        return held;
      });
    });
  };

  /* The display records of some documents (title, URL, tag numbers, preview…), from their blocks.
     `arrived`, if given, is called with the records of the longest run of `refs` from the first
     whose blocks have come, each time that run grows: the first results can be shown while a
     later block is still on its way (a browser opens at most six connections to a host over
     HTTP/1.1, so the seventh block of a first query waits a round trip more). */
  Shards.prototype.records = function (refs, arrived) {
    var self = this;
    return this.manifest().then(function (manifest) {
      var size = manifest.block, byBlock = Object.create(null), numbers = [], ready = 0;
      refs.forEach(function (ref) {
        var n = Math.floor(ref / size);
        if (!(n in byBlock)) { byBlock[n] = null; numbers.push(n); }
      });
      function record(ref) { return byBlock[Math.floor(ref / size)][ref % size]; }
      function grew() {
        var until = ready;
        while (until < refs.length && byBlock[Math.floor(refs[until] / size)]) until += 1;
        if (until > ready && until < refs.length && arrived) arrived(refs.slice(0, until).map(record));
        ready = until;
      }
      return Promise.all(numbers.map(function (n) {
        return self.file("d" + n).then(function (block) { byBlock[n] = block; grew(); });
      })).then(function () { return refs.map(record); });
    });
  };

  var api = { Shards: Shards, shardOf: shardOf, shardsOfTerm: shardsOfTerm, keyHash: keyHash };
  if (typeof module === "object" && module.exports) module.exports = api;  // node (tests/js)
  else globalThis.proceedingsShardedSearch = api;
})();
