/* Proceedings search: the query half, shared by a volume's box and a series' (search.js and search-hits.js
   use it as globalThis.proceedingsQuery). It turns what a reader types into the terms generator/search/terms.py
   indexes, finds the papers and says what to highlight. No DOM here: tests/js runs it in node on a real index. */
(function () {
  "use strict";

  // Must match normalise(), _SPACES, _DASHES and _TRIM in generator/search/terms.py, or the words a reader
  // types turn into terms the index does not hold.
  var SPACES = "\\t\\n\\v\\f\\r \\u00a0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000\\ufeff";
  // Math punctuation separates words too, so "(2+ε)" is found by "ε" and "SE(3)" by "SE"; and so does
  // "*": the box offers no wildcard, and lunr would read one inside a word (dif*ion) as "every term".
  var MATH_PUNCTUATION = "()+/=<>,;:|\\[\\]{}*";
  var SEPARATORS = new RegExp("[" + SPACES + "\\-" + MATH_PUNCTUATION + "]+");
  var SPLIT_KEEP = new RegExp("([" + SPACES + "\\-\\u2010-\\u2015\\u2212" + MATH_PUNCTUATION + "]+)");
  var DASHES = /[\u2010-\u2015\u2212]/g;
  var TRIM = /^[^\p{L}\p{N}_]*?([\p{L}\p{N}_]+)[^\p{L}\p{N}_]*?$/u;
  var EDGES = /^([^\p{L}\p{N}_]*)([\s\S]*?)([^\p{L}\p{N}_]*)$/u;

  function normalise(text) {
    return text.normalize("NFKC").toLowerCase().replace(DASHES, "-");
  }

  function trim(word) {
    var match = TRIM.exec(word);
    return match ? match[1] : word;
  }

  function stem(word) {
    return lunr.stemmer(new lunr.Token(word)).toString();
  }

  // Must match CJK_RANGES and bigrams() in generator/cjk.py: a run of Han, Kana or
  // Hangul is indexed as its overlapping character pairs, so the query is turned
  // into the same pairs, every one required.
  var CJK_RANGES = "\\u1100-\\u11ff\\u3005-\\u3007\\u3041-\\u3096\\u309d-\\u309f\\u30a1-\\u30fa" +
    "\\u30fc-\\u30ff\\u3130-\\u318f\\u31f0-\\u31ff\\u3400-\\u4dbf\\u4e00-\\u9fff\\ua960-\\ua97f" +
    "\\uac00-\\ud7ff\\uf900-\\ufaff\\u{20000}-\\u{3134f}";
  var CJK = new RegExp("[" + CJK_RANGES + "]", "u");
  var CJK_ONLY = new RegExp("^[" + CJK_RANGES + "]+$", "u");
  var CJK_RUNS = new RegExp("([" + CJK_RANGES + "]+)", "u");
  var WORD_CHAR = /[\p{L}\p{N}_]/u;
  /* Whether a query ends in a lone Latin letter or digit ("graph n", "n"): most likely the start of
     a word being typed, which search.js asks for only when the reader pauses on it (the postings of
     "n" alone are 68 KB at 100,000 papers). A lone CJK character is a word: 扩 finds 扩散. */
  var UNFINISHED_LETTER = /(^|[^\p{L}\p{N}_])[\p{L}\p{N}_]$/u;
  function unfinishedLetter(query) {
    var text = normalise(query);
    return UNFINISHED_LETTER.test(text) && !CJK.test(Array.from(text).pop());
  }

  function bigrams(run) {
    var chars = Array.from(run);  // code points: a character beyond U+FFFF is one
    if (chars.length < 2) return chars;
    return chars.slice(1).map(function (c, i) { return chars[i] + c; });
  }

  /* A word also matches as a prefix from its fourth character (diff → diff*). From the third, a
     prefix of a common start (gra*, lea*, for*) spans the postings of every word it begins: at
     100,000 papers that is tens of kilobytes a keystroke for words the reader is not typing. */
  var PREFIX_FROM = 4;

  function latinWord(word) {
    return {
      word: word,
      stem: stem(word),
      prefix: Array.from(word).length >= PREFIX_FROM,
      required: lunr.stopWordFilter(new lunr.Token(word)) !== undefined,
    };
  }

  /* A bigram is an index term as it is. A lone character (a run of one) is also
     looked for at the start of every term, so 扩 finds 扩散 while the reader types
     (inside every term would be a leading wildcard: half a second at 5,000 papers). */
  function cjkWords(run) {
    var single = Array.from(run).length === 1;
    return bigrams(run).map(function (gram) {
      return { word: gram, stem: gram, prefix: false, required: true, cjk: true, single: single };
    });
  }

  /* The query's words; from the fourth character a word also matches as a
     prefix (diff → diff*), so results follow the typing. A word holding CJK runs
     becomes their bigrams and its other pieces words of their own (LoRA微调 →
     lora, 微调), as generator/search/terms.py indexes it. */
  function queryWords(query) {
    var words = [];
    normalise(query).split(SEPARATORS).forEach(function (raw) {
      if (!CJK.test(raw)) {
        var word = trim(raw);
        if (word) words.push(latinWord(word));
        return;
      }
      raw.split(CJK_RUNS).forEach(function (piece, i) {
        if (i % 2) words = words.concat(cjkWords(piece));
        else if (WORD_CHAR.test(piece)) words.push(latinWord(trim(piece)));
      });
    });
    return words;
  }

  /* A query pasted from LaTeX ("$O(N)$", "\epsilon", "\mathcal{O}(n)") asks for what
     the page shows: the index holds the text of the rendered formulas, in which
     \epsilon is ε (NFKC folds ϵ, ϕ and ϑ into the same letters) and $ is gone. */
  var GREEK = Object.create(null);  // \constructor in a query is no Greek letter
  ("alpha beta gamma delta epsilon zeta eta theta iota kappa lambda mu nu xi omicron " +
   "pi rho sigma tau upsilon phi chi psi omega").split(" ").forEach(function (name, i) {
    var code = 0x3b1 + i + (i >= 17 ? 1 : 0);  // after rho: skip final sigma, and reserved U+03A2
    GREEK[name] = GREEK["var" + name] = String.fromCharCode(code);
    GREEK[name[0].toUpperCase() + name.slice(1)] = String.fromCharCode(code - 0x20);
  });
  var MATH_DELIMITERS = /\$|\\[()[\]]/g;
  var FONT_COMMAND = /\\(?:math[a-z]*|text[a-z]*|operatorname|boldsymbol|bm)\s*\{([^{}]*)\}/g;
  var COMMAND = /\\([A-Za-z]+)/g;

  function fromLatex(query) {
    return query.replace(MATH_DELIMITERS, " ").replace(FONT_COMMAND, "$1")
      .replace(COMMAND, function (all, name) { return GREEK[name] || name; }).replace(/[{}]/g, "");
  }

  function matches(word, term) {
    if (word.fuzzy) return word.alternatives[term] !== undefined;
    return term === word.stem || (word.prefix && term.lastIndexOf(word.word, 0) === 0) ||
      (word.single === true && term.lastIndexOf(word.word, 0) === 0);
  }

  /* Every word that is not a stop word must match in some field: lunr ORs
     clauses, and a required clause cannot say "this stem or this prefix". */
  /* The lunr query of a box's words (for Index#query): each word as typed, and from its third
     character also as a prefix. */
  function lunrQuery(words) {
    return function (q) {
      words.forEach(function (w) {
        if (w.fuzzy) {  // a word tried again: the index's terms one edit from it, as they are
          Object.keys(w.alternatives).forEach(function (term) {
            q.term(term, { usePipeline: false, boost: w.boosts[term] });
          });
          return;
        }
        q.term(w.word, { usePipeline: !w.cjk });
        if (w.prefix) q.term(w.word, { usePipeline: false, wildcard: lunr.Query.wildcard.TRAILING });
        if (w.single) q.term(w.word, { usePipeline: false, wildcard: lunr.Query.wildcard.TRAILING });
      });
    };
  }

  /* The refs of lunr's results (of lunrQuery(words)) in which every required word matched some
     term: over the whole index (find) or over its shards (search.js with search-shards.js). */
  /* Whether a result matched in its own text (title, abstract, authors), not only through a topic's name. */
  function inText(result) {
    var metadata = result.matchData.metadata;
    return Object.keys(metadata).some(function (term) {
      return Object.keys(metadata[term]).some(function (field) { return field !== "tags"; });
    });
  }

  /* The results that hold every required word, as refs: those whose own text holds a word first, in
     lunr's order, then those found only through a topic's name ("bandit" in "Reinforcement learning &
     bandits"), in lunr's order. */
  function requiredHits(results, words) {
    var own = [], throughTopics = [];
    results.forEach(function (result) {
      var terms = Object.keys(result.matchData.metadata);
      var holds = words.every(function (w) {
        return !w.required || terms.some(function (t) { return matches(w, t); });
      });
      if (holds) (inText(result) ? own : throughTopics).push(Number(result.ref));
    });
    return own.concat(throughTopics);
  }

  /* One test of a term per required word: a result requiredHits keeps holds, for each, a term that
     passes it (search-shards.js leaves other documents out before lunr.js scores). */
  function requiredTests(words) {
    return words.filter(function (w) { return w.required; }).map(function (w) {
      return function (term) { return matches(w, term); };
    });
  }

  // A word tried again within one edit ------------------------------------------------------------
  var FUZZY_FROM = 5;  // letters: a shorter word one edit away is most often another word, not a typo
  var KEY_FROM = 3;  // code units: shorter terms are not in the buckets (generator/search/fuzzy.py)
  var EDIT_LETTERS = "abcdefghijklmnopqrstuvwxyz0123456789";

  /* Whether a word may be tried again within one edit when it finds nothing: a Latin word every
     result must hold, of FUZZY_FROM letters or more. */
  function fuzzable(w) {
    return !w.cjk && !w.fuzzy && w.required && Array.from(w.word).length >= FUZZY_FROM;
  }

  /* Every word one edit from `word` (two neighbouring letters swapped, a letter dropped, changed or
     added: lunr's `~1`, applied to the word as typed rather than to its stem, since the index holds
     stems: `learnng` stems to itself, two edits from `learn`) with its stem, the stems of three or more
     code units only; as [variant, stem], in that order of edits, each variant once. A letter changed or
     added is one of a-z, 0-9 or the word's own. */
  function oneEditAway(word) {
    var chars = Array.from(word), seen = Object.create(null), found = [];
    var letters = Array.from(new Set(EDIT_LETTERS.split("").concat(chars)));
    function add(variant) {
      var text = variant.join("");
      if (text === word || seen[text] === true) return;
      seen[text] = true;
      var s = stem(text);
      if (s.length >= KEY_FROM) found.push([text, s]);
    }
    var n = chars.length, i;
    for (i = 0; i + 1 < n; i++) add(chars.slice(0, i).concat(chars[i + 1], chars[i], chars.slice(i + 2)));
    for (i = 0; i < n; i++) add(chars.slice(0, i).concat(chars.slice(i + 1)));
    for (i = 0; i < n; i++) {
      letters.forEach(function (c) { add(chars.slice(0, i).concat(c, chars.slice(i + 1))); });
    }
    for (i = 0; i <= n; i++) {
      letters.forEach(function (c) { add(chars.slice(0, i).concat(c, chars.slice(i))); });
    }
    return found;
  }

  /* The word tried again: its alternatives, the stems one edit away that the index holds (`held`: stem →
     how many papers hold it), each with the longest variant that gave it (what the status shows when no
     result has the word: a letter dropped is the commonest typo) and a boost, its papers over those of the commonest (1 for that one): a speller
     takes the commonest word, so `lerning` ranks the papers on learning first, not those of a rarer
     surname `Leoning` that BM25 alone would put first; the rarer ones still come, after. */
  function fuzzyWord(w, away, held) {
    var alternatives = Object.create(null), boosts = Object.create(null), most = 0;
    Object.keys(held).forEach(function (term) { most = Math.max(most, held[term]); });
    away.forEach(function (pair) {
      var shown = alternatives[pair[1]];
      if (held[pair[1]] === undefined || (shown !== undefined && shown.length >= pair[0].length)) return;
      alternatives[pair[1]] = pair[0];  // the longest variant of a stem: agnostc → agnostic, not agnost
      boosts[pair[1]] = held[pair[1]] / most;
    });
    return { word: w.word, stem: w.stem, prefix: false, required: true, fuzzy: true, alternatives: alternatives,
             boosts: boosts };
  }

  /* The box's search: the words, and when they find nothing, each word of FUZZY_FROM letters or more
     that matches no term of the index tried again as the words one edit from it that the index holds
     (all required, as before). `engine` answers over the whole index or its shards alike:
     query(lunrQuery, requiredTests) → Promise of lunr's results; holds(lunrQuery of one word, test of a
     term) → Promise of whether some term the word can match passes; existing(stems, first three code
     units of the word) → Promise of {stem: how many documents hold it} for the stems the index holds.
     Promise of {hits (refs, in requiredHits' order), words (as asked the last time: a word tried again
     is `fuzzy`, with its `alternatives`), fixed (the words tried again), results (lunr's, of the last
     query asked)}. */
  function search(engine, words) {
    return engine.query(lunrQuery(words), requiredTests(words)).then(function (results) {
      var hits = requiredHits(results, words), eligible = words.filter(fuzzable);
      var none = { hits: hits, words: words, fixed: [], results: results };
      if (hits.length || !eligible.length) return none;
      return Promise.all(eligible.map(function (w) {
        return engine.holds(lunrQuery([w]), function (term) { return matches(w, term); });
      })).then(function (held) {
        var missing = eligible.filter(function (w, n) { return !held[n]; });
        if (!missing.length) return none;
        return Promise.all(missing.map(function (w) {
          var away = oneEditAway(w.word);
          var stems = Array.from(new Set(away.map(function (pair) { return pair[1]; })));
          return engine.existing(stems, w.word.slice(0, KEY_FROM)).then(function (found) {
            return fuzzyWord(w, away, found);
          });
        })).then(function (fixed) {
          if (fixed.some(function (w) { return !Object.keys(w.alternatives).length; })) return none;
          var asked = words.map(function (w) { return fixed[missing.indexOf(w)] || w; });
          return engine.query(lunrQuery(asked), requiredTests(asked)).then(function (again) {
            return { hits: requiredHits(again, asked), words: asked, fixed: fixed, results: again };
          });
        });
      });
    });
  }

  /* An engine for `search` over a whole lunr.Index (tests and benchmarks in node: the oracle). */
  function wholeEngine(index) {
    var terms = Object.keys(index.invertedIndex);
    return {
      query: function (fn) { return Promise.resolve(index.query(fn)); },
      holds: function (fn, test) { return Promise.resolve(terms.some(test)); },
      existing: function (stems) {
        var held = Object.create(null);
        stems.forEach(function (s) {
          if (!Object.prototype.hasOwnProperty.call(index.invertedIndex, s)) return;
          var posting = index.invertedIndex[s], refs = Object.create(null);
          index.fields.forEach(function (field) {
            Object.keys(posting[field]).forEach(function (ref) { refs[ref] = true; });
          });
          held[s] = Object.keys(refs).length;
        });
        return Promise.resolve(held);
      },
    };
  }

  /* The query as it was answered: each word tried again replaced by what the reader most likely meant,
     the first word of `text` (the first result's title, authors and preview) that it matched there,
     as written (in lower case if the reader typed the word so), else the variant that gave its
     commonest alternative. */
  function correctedQuery(query, fixed, text) {
    var shown = Object.create(null);
    fixed.forEach(function (w) {
      var ranges = markedRanges(text, [w]);
      var commonest = Object.keys(w.boosts).filter(function (t) { return w.boosts[t] === 1; })[0];
      shown[w.word] = ranges.length ? text.slice(ranges[0][0], ranges[0][1]) : w.alternatives[commonest];
    });
    return query.split(SPLIT_KEEP).map(function (piece, i) {
      if (i % 2) return piece;
      var word = trim(normalise(piece)), edges = EDGES.exec(piece), fix = shown[word];
      if (fix === undefined) return piece;
      return edges[1] + (piece === piece.toLowerCase() ? fix.toLowerCase() : fix) + edges[3];  // as typed: agnostic
    }).join("");
  }

  function find(search, words, tag) {
    var hits;
    if (words.length) {
      hits = requiredHits(search.index.query(lunrQuery(words)), words);
    } else {
      hits = search.data.docs.map(function (doc, n) { return n; });
    }
    if (tag < 0) return hits;
    return hits.filter(function (n) { return search.data.docs[n][2].indexOf(tag) >= 0; });
  }

  /* What to mark in a text: [start, end) code-unit ranges of the words the query matched.
     A Latin word is marked in the part the index holds, so "(learning)," marks
     "learning" and "SE(3)" marks all of "SE(3)"; in a CJK run each character of
     a matched bigram (or of a lone character asked for) is marked, and
     neighbouring marks join, so 扩散模型 is marked as one. */
  function markedRanges(text, words) {
    var grams = Object.create(null), ranges = [], at = 0;
    words.forEach(function (w) { if (w.cjk) grams[w.word] = w; });
    text.split(SPLIT_KEEP).forEach(function (piece, i) {
      if (i % 2 === 0 && piece) {
        if (CJK.test(normalise(piece))) markMixed(piece, at, words, grams, ranges);
        else markWord(piece, at, words, ranges);
      }
      at += piece.length;
    });
    return ranges.reduce(function (joined, range) {
      var last = joined[joined.length - 1];
      if (last && last[1] === range[0]) last[1] = range[1]; else joined.push(range.slice());
      return joined;
    }, []);
  }

  function markWord(piece, at, words, ranges) {
    var edges = TRIM.test(piece) ? EDGES.exec(piece) : [piece, "", piece, ""];
    var term = stem(trim(normalise(piece)));
    if (edges[2] && words.some(function (w) { return matches(w, term); })) {
      ranges.push([at + edges[1].length, at + edges[1].length + edges[2].length]);
    }
  }

  /* A piece holding CJK, split by character into CJK runs and the rest: as displayed
     (ｶﾀｶﾅ) but compared normalised (カタカナ), one displayed character at a time. */
  function markMixed(piece, at, words, grams, ranges) {
    var runs = [], run = null, offset = at;
    Array.from(piece).forEach(function (ch) {
      var norm = normalise(ch), cjk = CJK_ONLY.test(norm);
      if (!run || run.cjk !== cjk) runs.push(run = { cjk: cjk, start: offset, text: "", chars: [] });
      run.text += ch;
      run.chars.push({ start: offset, end: offset + ch.length, norm: Array.from(norm) });
      offset += ch.length;
    });
    runs.forEach(function (r) {
      if (r.cjk) markRun(r.chars, grams, ranges);
      else if (WORD_CHAR.test(r.text)) markWord(r.text, r.start, words, ranges);
    });
  }

  function markRun(chars, grams, ranges) {
    var points = [];  // normalised code points, each with the displayed character it came from
    chars.forEach(function (c, n) { c.norm.forEach(function (p) { points.push({ p: p, owner: n }); }); });
    var hit = chars.map(function () { return false; });
    points.forEach(function (point, k) {
      var next = points[k + 1];
      if (next && grams[point.p + next.p]) hit[point.owner] = hit[next.owner] = true;
      if (grams[point.p]) hit[point.owner] = true;  // a lone character asked for
    });
    chars.forEach(function (c, n) { if (hit[n]) ranges.push([c.start, c.end]); });
  }

  /* The one rule for what a box loads (issue 43): results are shown `step` at a time (the dropdown's
     first 8; the page's first 20, then 20 more at each scroll or click), and a result's display block
     is loaded only when the result is shown. `runs`: each volume's {hits, shown} in the order shown
     (one for a volume; a series' volumes, newest first). Returns each run's next refs, across volumes. */
  function nextStep(runs, step) {
    var room = step;
    return runs.map(function (run) {
      var refs = run.hits.slice(run.shown, run.shown + room);
      room -= refs.length;
      return refs;
    });
  }

  var api = { normalise: normalise, queryWords: queryWords, unfinishedLetter: unfinishedLetter, fromLatex: fromLatex,
              find: find, lunrQuery: lunrQuery, requiredHits: requiredHits, requiredTests: requiredTests, search: search,
              markedRanges: markedRanges, wholeEngine: wholeEngine, oneEditAway: oneEditAway, correctedQuery: correctedQuery,
              nextStep: nextStep };
  if (typeof module === "object" && module.exports) module.exports = api;  // node (tests/js)
  else globalThis.proceedingsQuery = api;
})();
