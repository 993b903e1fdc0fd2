// rules-kb: the compare page's alignment, from the compare data rules_kb/render/compare_data.py
// writes: a rule followed from one neighbouring complete version's alignment to the next, from the
// old version to the new, as rules_kb/compare/compose.py composes them; a pair with a partial
// version as Python aligned it; the "rules" field read with Python's pattern (compare.alignment.SCOPE).
// Nothing is aligned here, only followed. compare.js draws the rows. One global, like refs.js.
window.RULES_KB_COMPARE_ALIGN = function (R) {
  "use strict";
  // the compare data of one language (its layout: compare_data.py's docstring)
  const parsed = new Map();
  function number(text) {
    if (!parsed.has(text)) parsed.set(text, R.parseNumber(text));
    return parsed.get(text);
  }
  function byNumber(a, b) { return R.compare(number(a), number(b)); }

  function prepare(index) {
    const labels = index.versions.map(function (v) { return v[0]; });
    const complete = index.versions.filter(function (v) { return v[1]; }).map(function (v) { return v[0]; });
    const maps = [];
    index.ids.forEach(function (delta, i) {
      if (i === 0) { maps.push(delta); return; }
      const now = Object.assign({}, maps[i - 1], delta[0]);
      delta[1].forEach(function (n) { delete now[n]; });
      maps.push(now);
    });
    const steps = index.steps.map(function (step) {
      return {notes: step.notes, pairs: new Map(step.pairs.map(function (p) { return [p[1], pairOf(p)]; }))};
    });
    const shards = Object.keys(index.diffs).map(function (first) { return [Number(first), index.diffs[first]]; })
      .sort(function (x, y) { return x[0] - y[0]; });
    const [IN_PLACE, MOVED, SPLIT, ADDED, REMOVED] = index.kinds.placements;
    return {
      labels: labels, complete: complete, steps: steps, direct: index.direct, kinds: index.kinds,
      place: {IN_PLACE: IN_PLACE, MOVED: MOVED, SPLIT: SPLIT, ADDED: ADDED, REMOVED: REMOVED},
      scope: new RegExp(index.scope[0], index.scope[1]),
      ids: function (label) { return maps[labels.indexOf(label)]; },
      shard: function (id) {
        let path = null;
        shards.forEach(function (s) { if (s[0] <= id) path = s[1]; });
        return path;
      },
    };
  }

  function pairOf(p) { return {kind: p[0], old: p[1], "new": p[2], similarity: p[3], forced: !!p[4], targets: p[5]}; }

  // A step leaves out the rules kept in place with the same words: a number it does not name.
  function pairAt(data, step, n) {
    return step.pairs.get(n) || {kind: data.place.IN_PLACE, old: n, "new": n, similarity: 1, forced: false, targets: []};
  }

  // compose.py's compose: every rule of the first version followed through each step to the last.
  function compose(data, steps, oldNumbers, newNumbers) {
    const P = data.place, pairs = [], reached = new Set();
    oldNumbers.forEach(function (start) {
      let k = 0, pair = pairAt(data, steps[0], start);
      let similarity = pair.similarity, forced = pair.forced;
      while (pair["new"] !== null && k + 1 < steps.length) {
        k++;
        pair = pairAt(data, steps[k], pair["new"]);
        similarity = Math.min(similarity, pair.similarity);
        forced = forced || pair.forced;
      }
      if (pair["new"] === null) {
        const targets = follow(data, pair.targets, steps.slice(k + 1));
        const kind = targets.length || pair.kind === P.REMOVED ? pair.kind : P.REMOVED;
        pairs.push({kind: kind, old: start, "new": null, similarity: pair.similarity, forced: forced, targets: targets});
        return;
      }
      reached.add(pair["new"]);
      pairs.push({kind: start === pair["new"] ? P.IN_PLACE : P.MOVED, old: start, "new": pair["new"],
        similarity: similarity, forced: forced, targets: []});
    });
    newNumbers.forEach(function (n) {
      if (!reached.has(n)) pairs.push({kind: P.ADDED, old: null, "new": n, similarity: 0, forced: false, targets: []});
    });
    const notes = new Set();
    steps.forEach(function (step) { step.notes.forEach(function (note) { notes.add(note); }); });
    return {pairs: pairs, notes: Array.from(notes).sort()};
  }

  // compose.py's _follow: where rules of a later version ended up in the last one.
  function follow(data, numbers, later) {
    let current = numbers.slice();
    later.forEach(function (step) {
      const moved = [];
      current.forEach(function (n) {
        const pair = pairAt(data, step, n);
        (pair["new"] !== null ? [pair["new"]] : pair.targets).forEach(function (t) {
          if (moved.indexOf(t) < 0) moved.push(t);
        });
      });
      current = moved;
    });
    return current;
  }

  // align.py's align_versions: composed between complete versions, else the pair's own alignment;
  // a rule only a partial version's counterpart prints is unknown there, not added or removed.
  function alignment(data, old, newer) {
    const oldNumbers = Object.keys(data.ids(old)), newNumbers = Object.keys(data.ids(newer));
    const a = data.complete.indexOf(old), b = data.complete.indexOf(newer);
    if (a >= 0 && b >= 0) {
      return Object.assign(compose(data, data.steps.slice(a, b), oldNumbers, newNumbers), {unknownOld: [], unknownNew: []});
    }
    const direct = data.direct[old + ".." + newer];
    const pairs = direct.pairs.map(pairOf);
    const named = function (side) { return new Set(pairs.map(function (p) { return p[side]; })); };
    const oldNamed = named("old"), newNamed = named("new");
    return {pairs: pairs, notes: direct.notes,
      unknownOld: b >= 0 ? [] : oldNumbers.filter(function (n) { return !oldNamed.has(n); }),
      unknownNew: a >= 0 ? [] : newNumbers.filter(function (n) { return !newNamed.has(n); })};
  }

  // --- the "rules" field: a chapter (5) or a rule and its subrules (509, 509.1a), as Scope reads it
  function scopeOf(data, text) {
    if (!text) return {contains: function () { return true; }, label: ""};
    const folded = R.fold(text).trim();
    const m = data.scope.exec(folded);
    if (m === null) throw new Error(JSON.stringify(text) + " is not a chapter (5) or a rule (509, 509.1a)");
    if (m.groups.chapter !== undefined) {
      const chapter = Number(m.groups.chapter);
      return {contains: function (n) { return Math.floor(number(n).section / 100) === chapter; }, label: folded};
    }
    const root = R.parseNumber(folded);
    return {root: root, label: R.show(root), contains: function (n) {
      const x = number(n);
      return x.section === root.section && (root.rule === null || (x.rule === root.rule
        && (root.letter === null || x.letter === root.letter)));
    }};
  }

  // align.py's pair_order: by the old number (else the new), then the new.
  function pairOrder(x, y) {
    const first = byNumber(x.old || x["new"], y.old || y["new"]);
    if (first) return first;
    if (x["new"] === null || y["new"] === null) return (x["new"] === null ? 0 : 1) - (y["new"] === null ? 0 : 1);
    return byNumber(x["new"], y["new"]);
  }

  return {number: number, byNumber: byNumber, prepare: prepare, alignment: alignment, scopeOf: scopeOf,
    pairOrder: pairOrder};
};
