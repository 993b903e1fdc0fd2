/*
 * rules-kb search page: the browser twin of rules_kb/search/segment.py and query.py.
 *
 * The index (rules_kb/search/index.py) was cut with Sudachi at build time; here a query is
 * folded and segmented with the emitted vocabulary, exactly as the CLI does, and ranked with
 * the same integer weights, so both give the same results (tests/test_search_browser.py).
 * Files load lazily: meta and vocabulary first, then only the postings shards of the query's
 * terms and the group shards of the results shown. URLs come from the index, never built here.
 * Text from the rules is put into the page with textContent only.
 */
(function () {
  "use strict";

  // The query grammar arrives with the index (meta.json "grammar"): the very patterns and numbers
  // of rules_kb/search/segment.py and query.py, spelt for JavaScript by rules_kb/jsregex.py.
  let JAPANESE_CHAR, ENGLISH_TOKEN, WORD_CHAR, RULE_NUMBER, RUN_TOGETHER, CITES, QUOTES;
  let PLAIN_ENDINGS, NEAREST_EDITS, NEAREST_COUNT, UNKNOWN_COST, MAX_SURFACE, WHOLE_MAX;
  let SNIPPET_BEFORE, SNIPPET_LENGTH, NEGATION, FORM_WEIGHT, SYNONYM_WEIGHT, NAME_WEIGHT, JOINERS;
  const PAGE_RESULTS = 10;  // results on one page (the CLI's --limit default)

  function useGrammar(grammar) {
    const pattern = function (name) { return new RegExp(grammar.patterns[name][0], grammar.patterns[name][1]); };
    JAPANESE_CHAR = pattern("japaneseChar");
    ENGLISH_TOKEN = pattern("englishToken");
    WORD_CHAR = pattern("wordChar");
    RULE_NUMBER = pattern("ruleNumber");
    RUN_TOGETHER = pattern("runTogether");
    CITES = pattern("cites");
    QUOTES = new RegExp("[" + grammar.quotes.join("") + "]", "gu");
    PLAIN_ENDINGS = grammar.plainEndings;
    NEGATION = grammar.negation;
    FORM_WEIGHT = grammar.formWeight;
    SYNONYM_WEIGHT = grammar.synonymWeight;
    NAME_WEIGHT = grammar.nameWeight;
    JOINERS = grammar.joiners;
    NEAREST_EDITS = grammar.nearestEdits;
    NEAREST_COUNT = grammar.nearestCount;
    UNKNOWN_COST = grammar.unknownCost;
    MAX_SURFACE = grammar.maxSurface;
    WHOLE_MAX = grammar.wholeMax;
    SNIPPET_BEFORE = grammar.snippetBefore;
    SNIPPET_LENGTH = grammar.snippetLength;
  }

  // --- segmentation (segment.py) ------------------------------------------------------------

  // One character folded (segment.py's _fold_char): the same few thousand characters recur in every
  // snippet, and String.normalize on each one was a fifth of a query's script time.
  const FOLDED = new Map();

  function foldChar(char) {
    let folded = FOLDED.get(char);
    if (folded === undefined) {
      folded = Array.from(char.normalize("NFKC").toLowerCase().replace(QUOTES, "'"));
      FOLDED.set(char, folded);
    }
    return folded;
  }

  function fold(text) {
    const chars = [];
    const origin = [];
    let index = 0;
    for (const char of text) {
      for (const piece of foldChar(char)) { chars.push(piece); origin.push(index); }
      index++;
    }
    return { chars: chars, origin: origin };
  }

  function isWord(surface) {
    return WORD_CHAR.test(surface);
  }

  function englishTerm(word) {
    if (word.endsWith(NEGATION.ending) || NEGATION.words.includes(word)) return NEGATION.term;
    if (word.length < 4 || !/^[a-z]+$/i.test(word) || PLAIN_ENDINGS.some(function (e) { return word.endsWith(e); })) {
      return word;
    }
    if (word.endsWith("ies")) return word.slice(0, -3) + "y";
    if (word.endsWith("s")) return word.slice(0, -1);
    return word;
  }

  function segmentOther(run) {
    const text = run.join("");
    const codePointAt = [];  // UTF-16 index -> code point index
    let units = 0;
    run.forEach(function (char, index) {
      for (let k = 0; k < char.length; k++) codePointAt[units + k] = index;
      units += char.length;
    });
    codePointAt[units] = run.length;
    const out = [];
    for (const match of text.matchAll(ENGLISH_TOKEN)) {
      if (/^\s+$/u.test(match[0])) continue;
      out.push([codePointAt[match.index], codePointAt[match.index + match[0].length], englishTerm(match[0])]);
    }
    return out;
  }

  // The vocabulary's surfaces in a trie read from their last character back: the words ending at a
  // position are found by walking back from it, so only surfaces that exist are looked at (a lookup of
  // every substring up to MAX_SURFACE long was the page's costliest function).
  const ENDINGS = new WeakMap();

  function endingTrie(vocabulary) {
    let root = ENDINGS.get(vocabulary);
    if (root === undefined) {
      root = { next: new Map(), entry: undefined };
      for (const surface of Object.keys(vocabulary)) {
        const chars = Array.from(surface);
        if (chars.length > MAX_SURFACE) continue;  // never tried, as in segment.py
        let node = root;
        for (let k = chars.length - 1; k >= 0; k--) {
          let child = node.next.get(chars[k]);
          if (child === undefined) {
            child = { next: new Map(), entry: undefined };
            node.next.set(chars[k], child);
          }
          node = child;
        }
        node.entry = vocabulary[surface];
      }
      ENDINGS.set(vocabulary, root);
    }
    return root;
  }

  function segmentJapanese(run, vocabulary) {
    const size = run.length;
    const trie = endingTrie(vocabulary);
    const best = [0];
    const back = [0];
    const found = [null];  // the vocabulary entry of the surface ending at each position, if any
    for (let i = 1; i <= size; i++) { best.push(-1); back.push(0); found.push(null); }
    for (let end = 1; end <= size; end++) {
      // Shortest first, a tie going to the later (longer) surface: segment.py tries the longest first
      // and keeps it on a tie, so both choose alike.
      let node = trie;
      for (let length = 1; length <= Math.min(MAX_SURFACE, end); length++) {
        node = node.next.get(run[end - length]);
        if (node === undefined) {
          if (length === 1) relax(end, 1, UNKNOWN_COST, null);
          break;
        }
        if (node.entry !== undefined) relax(end, length, node.entry[1], node.entry);
        else if (length === 1) relax(end, 1, UNKNOWN_COST, null);
      }
    }
    function relax(end, length, cost, entry) {
      const total = best[end - length] + cost;
      if (best[end] < 0 || total <= best[end]) {
        best[end] = total;
        back[end] = end - length;
        found[end] = entry;
      }
    }
    const cuts = [];
    let end = size;
    while (end > 0) { cuts.push([back[end], end, found[end]]); end = back[end]; }
    cuts.reverse();
    return cuts.map(function (cut) {
      const entry = cut[2];
      return [cut[0], cut[1], entry !== null && entry[0] ? entry[0] : run.slice(cut[0], cut[1]).join("")];
    });
  }

  function segment(text, vocabulary) {
    const folded = fold(text);
    const chars = folded.chars;
    const origin = folded.origin.concat([Array.from(text).length]);
    const tokens = [];
    let position = 0;
    while (position < chars.length) {
      const japanese = JAPANESE_CHAR.test(chars[position]);
      let end = position;
      while (end < chars.length && JAPANESE_CHAR.test(chars[end]) === japanese) end++;
      const run = chars.slice(position, end);
      const pieces = japanese ? segmentJapanese(run, vocabulary) : segmentOther(run);
      for (const piece of pieces) {
        const surface = chars.slice(position + piece[0], position + piece[1]).join("");
        tokens.push({ surface: surface, term: piece[2], start: origin[position + piece[0]],
                      end: origin[position + piece[1]], word: isWord(surface) });
      }
      position = end;
    }
    return tokens;
  }

  function ruleNumber(text) {
    const match = RULE_NUMBER.exec(fold(text.trim()).chars.join(""));
    if (match === null) return null;
    if (match[2] === undefined) return match[1];
    return match[1] + "." + String(parseInt(match[2], 10)) + (match[3] || "");
  }

  function runTogether(text) {
    const match = RUN_TOGETHER.exec(fold(text.trim()).chars.join(""));
    if (match === null) return null;
    return match[1] + "." + String(parseInt(match[2], 10)) + match[3];
  }

  function editDistance(a, b, bound) {
    a = Array.from(a);
    b = Array.from(b);
    if (Math.abs(a.length - b.length) > bound) return bound + 1;
    let before = [];
    let previous = [];
    for (let j = 0; j <= b.length; j++) previous.push(j);
    for (let i = 1; i <= a.length; i++) {
      const current = [i];
      for (let j = 1; j <= b.length; j++) {
        let cost = Math.min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] !== b[j - 1] ? 1 : 0));
        if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) cost = Math.min(cost, before[j - 2] + 1);
        current.push(cost);
      }
      if (Math.min.apply(null, current) > bound && (i === a.length || Math.min.apply(null, previous) > bound)) {
        return bound + 1;
      }
      before = previous;
      previous = current;
    }
    return previous[b.length];
  }

  function byCodePoint(a, b) {
    const x = Array.from(a);
    const y = Array.from(b);
    for (let k = 0; k < Math.min(x.length, y.length); k++) {
      if (x[k] !== y[k]) return x[k].codePointAt(0) - y[k].codePointAt(0);
    }
    return x.length - y.length;
  }

  function nearestWords(word, words, bound, count) {
    const scored = [];
    for (const candidate of Object.keys(words)) {
      const distance = editDistance(word, candidate, bound);
      if (distance <= bound && candidate !== word) scored.push([distance, -words[candidate], candidate]);
    }
    scored.sort(function (a, b) { return a[0] - b[0] || a[1] - b[1] || byCodePoint(a[2], b[2]); });
    return scored.slice(0, count).map(function (item) { return item[2]; });
  }

  function typoBound(word) {
    const size = Array.from(word).length;
    return size < 4 || !/^[a-z]+$/i.test(word) ? 0 : size < 7 ? 1 : 2;
  }

  function isContent(term) {
    const chars = Array.from(term);
    return !(chars.length <= 2 && chars.every(function (c) { return c >= "\u3041" && c <= "\u309f"; }));
  }

  function isFunctionWord(term, stopWords) {  // a question word or a particle
    return stopWords.has(term) || !isContent(term);
  }

  function wholeTerm(words, stopWords) {  // its content words: ゾーンとは何か is "=ゾーン"
    const content = words.filter(function (w) { return !isFunctionWord(w, stopWords); });
    return content.length > 0 && content.length <= WHOLE_MAX ? "=" + content.join(" ") : null;
  }

  function nameTerms(tokens, stopWords) {  // segment.py's name_terms: each content word of several, as a name
    const content = [];
    for (const token of tokens) {
      if (token.word && !isFunctionWord(token.term, stopWords) && !content.includes(token.term)) content.push(token.term);
    }
    return content.length > 1 ? content.map(function (word) { return "=" + word; }) : [];
  }

  function queryTerms(tokens, stopWords) {
    const words = tokens.filter(function (t) { return t.word; }).map(function (t) { return t.term; });
    const whole = wholeTerm(words, stopWords);
    const alone = words.every(function (w) { return isFunctionWord(w, stopWords); });
    const terms = [];
    const pairs = [];
    let previous = null;
    for (const token of tokens) {
      if (!token.word) {
        if (!JOINERS.includes(token.surface)) previous = null;  // Ｗ・ブレイカー is Wブレイカー
        continue;
      }
      if (!terms.includes(token.term) && (alone || !isFunctionWord(token.term, stopWords))) terms.push(token.term);
      if (previous !== null) {
        const pair = previous + " " + token.term;
        if (!pairs.includes(pair)) pairs.push(pair);
      }
      previous = token.term;
    }
    if (whole !== null) pairs.push(whole);
    return { terms: terms, pairs: pairs };
  }

  // --- index files (query.py's SearchIndex) ----------------------------------------------------

  function shardOf(term, count) {
    let value = 0x811c9dc5;  // a name term is filed with the word it names (query.py)
    for (const char of term.startsWith("=") ? term.slice(1) : term) {
      value ^= char.codePointAt(0);
      value = Math.imul(value, 0x01000193) >>> 0;
    }
    return value % count;
  }

  function pad(number) {
    return String(number).padStart(3, "0");
  }

  function Index(base) {
    this.base = new URL(base, document.baseURI);
    this.siteRoot = new URL("../", this.base);
    this.files = new Map();
    this.bytes = 0;
  }

  Index.prototype.load = function (name) {
    if (!this.files.has(name)) {
      const self = this;
      this.files.set(name, fetch(new URL(name, this.base)).then(function (response) {
        if (!response.ok) throw new Error("search index: " + name + ": HTTP " + response.status);
        return response.text();
      }).then(function (text) { self.bytes += text.length; return JSON.parse(text); }));
    }
    return this.files.get(name);
  };

  Index.prototype.open = function () {
    const self = this;
    if (!this.ready) {
      this.ready = Promise.all([this.load("meta.json"), this.load("vocab.json"), this.load("forms.json"),
        this.load("synonyms.json")])
        .then(function (loaded) {
        self.meta = loaded[0];
        useGrammar(self.meta.grammar);
        self.vocabulary = loaded[1];
        self.forms = new Map(Object.entries(loaded[2]));
        self.synonyms = new Map(Object.entries(loaded[3]));
        self.stopWords = new Set(self.meta.stopWords);
        return self;
      });
    }
    return this.ready;
  };

  // The groups holding a rule number, current rules first, then the era's others: made on the first
  // question naming a number (a map over every group, 15-25 ms of a cold page that words need not wait for).
  Index.prototype.groupsOf = function (number) {
    if (!this.byNumber) {
      const meta = this.meta;
      const map = new Map();
      meta.groupNumber.forEach(function (n, group) {
        if (!map.has(n)) map.set(n, []);
        map.get(n).push(group);
      });
      for (const groups of map.values()) {
        groups.sort(function (a, b) { return meta.groupCurrent[b] - meta.groupCurrent[a]; });
      }
      this.byNumber = map;
    }
    return this.byNumber.get(number) || [];
  };

  Index.prototype.words = function () {
    return this.load("words.json");
  };

  Index.prototype.postings = function (term) {
    return this.load("p/" + pad(shardOf(term, this.meta.shards)) + ".json").then(function (shard) {
      return Object.prototype.hasOwnProperty.call(shard, term) ? shard[term] : [];
    });
  };

  Index.prototype.groupRecord = function (group) {
    const size = this.meta.groupsPerShard;
    return this.load("g/" + pad(Math.floor(group / size)) + ".json").then(function (shard) {
      return { record: shard.groups[group % size], texts: shard.texts };
    });
  };

  Index.prototype.url = function (rootPath) {
    return new URL(rootPath.replace(/^\//, ""), this.siteRoot).href;
  };

  // --- ranking (query.py's search) -------------------------------------------------------------

  function adjusted(meta, doc, raw) {
    const group = meta.docGroup[doc];
    return raw * (meta.docCurrent[doc] ? 2 : 1) * (meta.groupCurrent[group] ? 2 : 1);
  }

  function rankGroups(meta, scores, allowed) {
    const members = new Map();
    for (const [doc, raw] of scores) {
      const group = meta.docGroup[doc];
      if (!allowed[meta.groupLanguage[group]]) continue;
      if (!members.has(group)) members.set(group, []);
      members.get(group).push([doc, adjusted(meta, doc, raw)]);
    }
    const ranked = [];
    for (const [group, docs] of members) {
      let top = -1;
      for (const item of docs) top = Math.max(top, item[1]);
      let shown = null;
      for (const item of docs) {
        if (2 * item[1] < top) continue;
        const doc = item[0];
        if (shown === null || meta.docCurrent[doc] > meta.docCurrent[shown] ||
            (meta.docCurrent[doc] === meta.docCurrent[shown] && doc > shown)) shown = doc;
      }
      ranked.push([group, top, shown]);
    }
    ranked.sort(function (a, b) { return b[1] - a[1] || a[0] - b[0]; });
    return ranked;
  }

  function variants(term, forms, synonyms) {  // query.py's variants: [term, [share, whole]]
    const whole = [1, 1];
    if (term.startsWith("=")) return [[term, whole]];
    const others = function (word) {
      return (forms.get(word) || []).map(function (f) { return [f, FORM_WEIGHT]; })
        .concat((synonyms.get(word) || []).map(function (f) { return [f, SYNONYM_WEIGHT]; }));
    };
    const space = term.indexOf(" ");
    if (space < 0) return [[term, whole]].concat(others(term));
    const first = term.slice(0, space);
    const second = term.slice(space + 1);
    return [[term, whole]]
      .concat(others(first).map(function (o) { return [o[0] + " " + second, o[1]]; }))
      .concat(others(second).map(function (o) { return [first + " " + o[0], o[1]]; }));
  }

  function trivial(surface) {
    const chars = Array.from(surface);
    return chars.length === 1 && chars[0] >= "\u3041" && chars[0] <= "\u30ff";
  }

  function markedTerms(index, terms) {  // query.py's marked_terms
    const marked = new Set();
    for (const term of terms) {
      for (const option of variants(term, index.forms, index.synonyms)) marked.add(option[0]);
    }
    return marked;
  }

  function snippet(index, text, terms) {
    const chars = Array.from(text);
    const marks = segment(text, index.vocabulary).filter(function (t) {
      return t.word && terms.has(t.term) && !trivial(t.surface);
    });
    const start = marks.length ? Math.max(0, marks[0].start - SNIPPET_BEFORE) : 0;
    const end = Math.min(chars.length, start + SNIPPET_LENGTH);
    const pieces = [];
    if (start > 0) pieces.push(["…", false]);
    let position = start;
    for (const mark of marks) {
      if (mark.start < position || mark.end > end) continue;
      if (mark.start > position) pieces.push([chars.slice(position, mark.start).join(""), false]);
      pieces.push([chars.slice(mark.start, mark.end).join(""), true]);
      position = mark.end;
    }
    if (end > position) pieces.push([chars.slice(position, end).join(""), false]);
    if (end < chars.length) pieces.push(["…", false]);
    return pieces;
  }

  function held(index, number, allowed) {  // query.py's _held
    const meta = index.meta;
    const groups = index.groupsOf(number);
    const former = Object.prototype.hasOwnProperty.call(meta.formerNumbers, number) ? meta.formerNumbers[number] : [];
    return groups.concat(former).some(function (g) { return allowed[meta.groupLanguage[g]]; });
  }

  async function corrected(index, tokens, notes) {
    const out = [];
    const checked = function (token) { return token.word && typoBound(token.term) && !index.stopWords.has(token.term); };
    // Every word's shard is fetched at once (the search needs them next), not one after another.
    const lists = await Promise.all(tokens.map(function (t) { return checked(t) ? index.postings(t.term) : null; }));
    for (const [k, token] of tokens.entries()) {
      const bound = typoBound(token.term);
      if (checked(token) && !lists[k].length) {
        const nearest = nearestWords(token.term, await index.words(), bound, 1);
        if (nearest.length) {
          notes.push("no text has " + pyRepr(token.surface) + "; showing " + pyRepr(nearest[0]));
          out.push(Object.assign({}, token, { term: nearest[0] }));
          continue;
        }
      }
      out.push(token);
    }
    return out;
  }

  function pyRepr(text) {  // Python's repr of a plain string, so that both say the same notes
    return text.includes("'") && !text.includes('"') ? '"' + text + '"' : "'" + text.replace(/'/g, "\\'") + "'";
  }

  async function nearestTerms(index, terms) {
    const offered = [];
    let japanese = null;
    for (const term of terms) {
      let words;
      // eslint-disable-next-line no-control-regex -- ASCII, NUL included: the English index
      if (/^[\x00-\x7f]*$/.test(term)) {
        words = await index.words();
      } else {
        if (japanese === null) {
          japanese = {};
          for (const surface of Object.keys(index.vocabulary)) japanese[surface] = 1;
        }
        words = japanese;
      }
      for (const word of nearestWords(term, words, NEAREST_EDITS, 2 * NEAREST_COUNT)) {
        if (!offered.includes(word) && Array.from(word).length > 1 && !index.stopWords.has(word)) offered.push(word);
      }
    }
    return offered.slice(0, NEAREST_COUNT);
  }

  async function answer(index, query, options) {
    await index.open();
    const meta = index.meta;
    const game = options.game || null;
    const lang = options.lang || null;
    const limit = options.limit === undefined ? 10 : options.limit;
    const allowed = meta.languages.map(function (pair) {
      return (game === null || pair[0] === game) && (lang === null || pair[1] === lang);
    });
    query = query.trim();
    const cites = CITES.exec(query);
    let number = ruleNumber(query);
    const notes = [];
    if (number === null) {
      const guess = runTogether(query);
      if (guess !== null && held(index, guess, allowed)) {
        number = guess;
        notes.push("did you mean " + guess + "? showing it");
      }
    }
    const scores = new Map();
    let terms = [];
    let wanted = [];
    let names = [];  // a word of the question that is a text's name, at NAME_WEIGHT (query.py)
    if (cites) {
      const cited = ruleNumber(cites[1]);
      if (cited !== null) wanted = ["cites:" + cited];
    } else {
      const typed = segment(query, index.vocabulary);
      const guess = queryTerms(typed, index.stopWords);  // start every shard the query needs at once
      guess.terms.concat(guess.pairs).forEach(function (term) {  // and their variants' (one round trip less)
        for (const option of variants(term, index.forms, index.synonyms)) index.postings(option[0]).catch(function () {});
      });
      nameTerms(typed, index.stopWords).forEach(function (name) { index.postings(name).catch(function () {}); });
      const tokens = await corrected(index, typed, notes);
      const found = queryTerms(tokens, index.stopWords);
      terms = found.terms;
      wanted = found.terms.concat(found.pairs);
      names = nameTerms(tokens, index.stopWords);
    }
    // query.py: each term's variants (its inflections and synonyms, a pair with one side replaced), a
    // document taking the best of them; an inflection weighs FORM_WEIGHT of the typed word, a synonym
    // SYNONYM_WEIGHT.
    const choices = wanted.map(function (term) {
      return cites ? [[term, [1, 1]]] : variants(term, index.forms, index.synonyms);
    }).concat(names.map(function (name) { return [[name, NAME_WEIGHT]]; }));
    const lists = await Promise.all(choices.map(function (list) {
      return Promise.all(list.map(function (option) { return index.postings(option[0]); }));
    }));
    const matched = new Map();
    lists.forEach(function (flats, k) {
      const isWord = k < terms.length && isContent(terms[k]);
      const best = new Map();
      flats.forEach(function (flat, v) {
        const share = choices[k][v][1];
        let doc = 0;
        for (let position = 0; position < flat.length; position += 2) {
          doc += flat[position];
          const weight = Math.floor(flat[position + 1] * share[0] / share[1]);
          if (weight > (best.get(doc) || 0)) best.set(doc, weight);
        }
      });
      for (const [doc, weight] of best) {
        scores.set(doc, (scores.get(doc) || 0) + weight);
        if (isWord) matched.set(doc, (matched.get(doc) || 0) + 1);
      }
    });
    if (!cites) {
      for (const [doc, raw] of scores) scores.set(doc, raw * (matched.get(doc) || 1) ** 2);
    }
    const ranked = rankGroups(meta, scores, allowed);
    let order = ranked.map(function (item) { return item[0]; });
    const byGroup = new Map(ranked.map(function (item) { return [item[0], item]; }));
    if (number !== null) {
      const exact = [];
      for (const g of index.groupsOf(number).concat(meta.formerNumbers[number] || [])) {
        if (!exact.includes(g) && allowed[meta.groupLanguage[g]]) exact.push(g);
      }
      const seen = new Set(exact);
      order = exact.concat(order.filter(function (g) { return !seen.has(g); }));
    }
    order = order.slice(0, limit);
    const termSet = markedTerms(index, terms);
    const records = await Promise.all(order.map(function (g) { return index.groupRecord(g); }));
    const hits = order.map(function (group, i) {
      const item = byGroup.get(group) || [group, 0, null];
      const record = records[i].record;
      const doc = item[2] === null ? record.versions[0][2] : item[2];
      const shown = record.versions.find(function (v) { return v[2] === doc; });
      const pair = meta.languages[meta.groupLanguage[group]];
      return {
        game: pair[0], lang: pair[1], number: meta.groupNumber[group], version: shown[0], url: shown[1],
        rule_url: record.rule, score: item[1], was: record.was || [],
        snippet: snippet(index, records[i].texts[String(doc)], termSet),
        also: record.versions.filter(function (v) { return v[0] !== shown[0]; })
          .map(function (v) { return [v[0], v[1]]; }),
      };
    });
    if (!hits.length && limit > 0 && !cites) {
      const common = terms.filter(function (t) { return index.stopWords.has(t); });
      const offered = await nearestTerms(index, terms.filter(function (t) { return !index.stopWords.has(t); }));
      if (common.length) notes.push("too common to search for alone: " + common.join(", "));
      if (offered.length) notes.push("nothing found; nearest terms: " + offered.join(", "));
    }
    return { hits: hits, notes: notes };
  }

  async function search(index, query, options) {
    return (await answer(index, query, options)).hits;
  }

  // --- the page ----------------------------------------------------------------------------------

  const GAMES = { dm: "Duel Masters", mtg: "Magic" };
  // A browser refuses a page opened from files the index beside it; the one line that says what to do.
  const FROM_FILES = "Search needs the site served over HTTP: run `rules-kb serve --dir FOLDER` (the folder " +
    "holding this site) and open the address it prints.";
  const LANGS = { ja: "日本語", en: "English" };

  function element(tag, className, text) {
    const node = document.createElement(tag);
    if (className) node.className = className;
    if (text !== undefined) node.textContent = text;
    return node;
  }

  // The other releases printing the rule, in a few words: "also in 2009-07-08 – 2026-01-16, 86 releases",
  // the two ends linked (hit.also is newest first); "every version" lists them all.
  function alsoIn(index, also) {
    const link = function (version) {
      const a = element("a", "", version[0]);
      a.href = index.url(version[1]);
      return a;
    };
    if (also.length === 1) return ["also in ", link(also[0])];
    return ["also in ", link(also[also.length - 1]), " – ", link(also[0]), ", " + also.length + " releases"];
  }

  function renderHit(index, hit, position) {
    const item = element("li", "rk-hit");
    item.id = "rk-hit-" + position;
    const link = element("a", "rk-link");
    link.href = index.url(hit.url);
    link.append(element("span", "rk-number", hit.number), " ",
                element("span", "rk-badge", GAMES[hit.game] + " · " + LANGS[hit.lang]), " ",
                element("span", "rk-version", hit.version));
    item.append(link);
    if (hit.was.length) {
      item.append(element("p", "rk-was", hit.was.map(function (w) { return "was " + w[0] + " until " + w[1]; })
        .join(", ")));
    }
    const text = element("p", "rk-snippet");
    for (const piece of hit.snippet) text.append(piece[1] ? element("mark", "", piece[0]) : piece[0]);
    item.append(text);
    const more = element("p", "rk-more");
    if (hit.also.length) {
      more.append.apply(more, alsoIn(index, hit.also));
      more.append(" · ");
    }
    const all = element("a", "rk-rule", "every version");
    all.href = index.url(hit.rule_url);
    const cited = element("a", "rk-cites", "cited by");
    const params = new URLSearchParams({ q: "cites:" + hit.number, game: hit.game });
    cited.href = "?" + params.toString();
    more.append(all, " · ", cited);
    item.append(more);
    return item;
  }

  function start() {
    const root = document.getElementById("rk-search");
    if (!root) return;
    const index = new Index(root.dataset.index);
    const input = root.querySelector("#rk-query");
    const game = root.querySelector("#rk-game");
    const lang = root.querySelector("#rk-lang");
    const status = root.querySelector("#rk-status");
    const list = root.querySelector("#rk-results");
    const params = new URLSearchParams(window.location.search);
    input.value = params.get("q") || "";
    game.value = params.get("game") || "";
    lang.value = params.get("lang") || "";
    let sequence = 0;
    let selected = -1;
    let pages = 1;  // pages of PAGE_RESULTS shown; "more results" adds one, a new query starts again
    const moreButton = element("button", "rk-more-results", "more results");
    moreButton.type = "button";
    moreButton.hidden = true;
    list.after(moreButton);

    function select(position) {
      const items = list.querySelectorAll(".rk-hit");
      if (!items.length) { selected = -1; return; }
      selected = Math.max(0, Math.min(items.length - 1, position));
      // The chosen result is marked aria-current (its links are links: a list, not a listbox of options,
      // since an option may hold no link); Enter in the box opens it, Tab reaches each of its links.
      items.forEach(function (item, k) {
        if (k === selected) item.setAttribute("aria-current", "true"); else item.removeAttribute("aria-current");
      });
      items[selected].scrollIntoView({ block: "nearest" });
    }

    async function run(event) {
      if (event !== undefined && event.type !== "more") pages = 1;
      const mine = ++sequence;
      const query = input.value;
      const state = new URLSearchParams();
      if (query) state.set("q", query);
      if (game.value) state.set("game", game.value);
      if (lang.value) state.set("lang", lang.value);
      const search_ = state.toString();
      window.history.replaceState(null, "", search_ ? "?" + search_ : window.location.pathname);
      if (!query.trim()) {
        list.replaceChildren();
        status.textContent = "";
        return;
      }
      const started = performance.now();
      let found;
      try {
        found = await answer(index, query, { game: game.value, lang: lang.value, limit: PAGE_RESULTS * pages + 1 });
      } catch (error) {
        if (mine === sequence) status.textContent = window.location.protocol === "file:" ? FROM_FILES
          : "The search index could not be loaded (" + error.message + ").";
        return;
      }
      if (mine !== sequence) return;
      const hits = found.hits.slice(0, PAGE_RESULTS * pages);  // one more was asked for: is there a next page?
      list.replaceChildren.apply(list, hits.map(function (hit, k) { return renderHit(index, hit, k); }));
      moreButton.hidden = found.hits.length <= hits.length;
      selected = -1;
      const count = hits.length ? hits.length + (hits.length === 1 ? " result" : " results") : "nothing found";
      showStatus([count].concat(found.notes));
      const finished = performance.now();
      if (root.dataset.firstResults === undefined) root.dataset.firstResults = String(finished);
      root.dataset.lastQueryMs = String(finished - started);
      root.dataset.done = String(mine);
      if (hits.length) select(event !== undefined && event.type === "more" ? PAGE_RESULTS * (pages - 1) : 0);
    }

    // One element per phrase, so the interface's table (ui.js) translates each: joined into one
    // text, "2 results · did you mean 507.2a? showing it" matched none of its patterns.
    function showStatus(phrases) {
      const parts = [];
      phrases.forEach(function (phrase, k) {
        if (k) parts.push(document.createTextNode(" · "));
        const span = document.createElement("span");
        span.textContent = phrase;
        parts.push(span);
      });
      status.replaceChildren.apply(status, parts);
    }

    moreButton.addEventListener("click", function () {
      pages += 1;
      run({ type: "more" });
    });

    input.addEventListener("input", run);
    game.addEventListener("change", run);
    lang.addEventListener("change", run);
    input.addEventListener("keydown", function (event) {
      if (event.key === "ArrowDown") { select(selected + 1); event.preventDefault(); }
      else if (event.key === "ArrowUp") { select(selected - 1); event.preventDefault(); }
      else if (event.key === "Enter") {
        const items = list.querySelectorAll(".rk-hit");
        if (selected >= 0 && items[selected]) {
          event.preventDefault();
          window.location.href = items[selected].querySelector(".rk-link").href;
        }
      }
    });
    window.rulesKbSearch = {
      index: index,
      tokens: async function (query) {
        await index.open();
        return segment(query, index.vocabulary);
      },
      search: function (query, options) { return search(index, query, options || {}); },
      answer: function (query, options) { return answer(index, query, options || {}); },
    };
    if (window.location.protocol === "file:") status.textContent = FROM_FILES;
    else index.open();
    if (input.value) run();
    input.focus();
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
