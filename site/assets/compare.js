// rules-kb: compare any two versions in the browser, as `rules-kb diff` compares them, from the
// static JSON the build writes (rules_kb/render/compare_data.py). Python aligned every two
// neighbouring complete versions and every pair with a partial version, and diffed and classed
// every two texts a comparison can pair (rules_kb/render/compare_diffs.py); compare-align.js
// follows the alignments from the old version to the new, and the rows are drawn here. Nothing is
// aligned, diffed or classed in the browser. Rule numbers are read and ordered by the shared
// grammar (refs.js). Source text only ever reaches the page as textContent.
(function () {
  "use strict";

  const form = document.getElementById("rk-compare");
  if (!form) return;
  const R = window.RULES_KB_REFS(window.RULES_KB_LINK_GRAMMAR);
  const A = window.RULES_KB_COMPARE_ALIGN(R), number = A.number, byNumber = A.byNumber;
  const status = document.getElementById("rk-compare-status");
  const summary = document.getElementById("rk-compare-summary");
  const results = document.getElementById("rk-compare-results");
  const siteRoot = new URL(form.dataset.root, document.baseURI);
  const pinned = JSON.parse(form.dataset.pinned);      // lang -> label -> template with {chapter}, {anchor}
  const rulePage = form.dataset.rulePage;               // template with {anchor}
  const diffPages = JSON.parse(form.dataset.diffs);     // lang -> "old..new" -> root path of the pre-built diff
  const indexes = JSON.parse(form.dataset.compare);     // lang -> root path of the compare data's index
  const fields = {lang: form.elements.lang, old: form.elements.old, "new": form.elements["new"], rule: form.elements.rule};
  let versions = [];
  const files = new Map();
  let run = 0;

  function url(rootPath) { return new URL(rootPath.replace(/^\//, ""), siteRoot).href; }

  function fetchJson(rootPath) {
    if (!files.has(rootPath)) {
      files.set(rootPath, fetch(url(rootPath)).then(function (response) {
        if (!response.ok) throw new Error(rootPath + ": HTTP " + response.status);
        return response.json();
      }));
    }
    return files.get(rootPath);
  }

  // A version file either holds every rule, or names its "base_api" and holds only what differs
  // from it ("rules" overlaid, "removed" dropped): rules_kb/render/api.py writes every 8th whole.
  function fetchVersion(rootPath) {
    return fetchJson(rootPath).then(function (record) {
      if (!record.base_api) return record;
      return fetchJson(record.base_api).then(function (base) {
        const rules = {}, gone = {};
        record.removed.forEach(function (n) { gone[n] = true; });
        Object.keys(base.rules).forEach(function (n) { if (!gone[n]) rules[n] = base.rules[n]; });
        Object.keys(record.rules).forEach(function (n) { rules[n] = record.rules[n]; });
        return {game: record.game, lang: record.lang, version: record.version, rules: rules};
      });
    });
  }

  // --- building the page (textContent only)
  function el(tag, text, attributes) {
    const node = document.createElement(tag);
    if (text) node.textContent = text;
    Object.keys(attributes || {}).forEach(function (name) { node.setAttribute(name, attributes[name]); });
    return node;
  }
  function fill(template, n) {
    return url(template.split("{chapter}").join(String(Math.floor(number(n).section / 100))).split("{anchor}").join(n));
  }
  // What the comparison reads of a rule: its title and its text (compare/similarity.py's comparable_text).
  function comparable(rule) { return [rule.title, rule.text].filter(Boolean).join(" "); }

  // Python's ops as lengths in code points: equal, deleted, inserted, equal, …
  function drawOps(box, ops, oldText, newText) {
    const a = Array.from(oldText), b = Array.from(newText);
    let i = 0, j = 0;
    for (let k = 0; k < ops.length; k += 3) {
      if (ops[k]) box.appendChild(document.createTextNode(a.slice(i, i + ops[k]).join("")));
      i += ops[k];
      j += ops[k];
      if (k + 2 >= ops.length) break;
      if (ops[k + 1]) box.appendChild(el("del", a.slice(i, i + ops[k + 1]).join("")));
      if (ops[k + 2]) box.appendChild(el("ins", b.slice(j, j + ops[k + 2]).join("")));
      i += ops[k + 1];
      j += ops[k + 2];
    }
    return box;
  }

  // One row as the diff pages draw it (rules_kb/render/diff_pages.py), from Python's diff record.
  function row(choice, data, pair, texts, record, ids) {
    const P = data.place, kind = rowKind(data, pair, record);
    const box = el("div", "", {"class": "rk-row " + kind, "data-kind": kind, "data-old": pair.old || "",
      "data-new": pair["new"] || ""});
    if (ids.length) box.id = ids[0];
    ids.slice(1).forEach(function (other) { box.appendChild(el("span", "", {id: other, "class": "rk-anchor"})); });
    const head = el("div", "", {"class": "rk-row-head"});
    [[pair.old, choice.old], [pair["new"], choice["new"]]].forEach(function (end) {
      if (end[0] === null) return;
      if (head.childNodes.length) head.appendChild(document.createTextNode(" → "));
      head.appendChild(el("a", end[0] + " (" + end[1] + ")", {href: fill(pinned[choice.lang][end[1]], end[0])}));
    });
    head.appendChild(document.createTextNode(" "));
    head.appendChild(el("span", kind, {"class": "rk-kind"}));
    let said = "";
    if (pair.kind === P.MOVED) said = " (text " + record["class"] + ", similarity " + pair.similarity.toFixed(2) + ")";
    if (pair.kind === P.SPLIT) said = " (its sentences are now in " + pair.targets.join(", ") + ")";
    if (pair.forced) said += " [forced match: a person paired these two rules]";
    if (record && record.prefix) said += " [one side is cut off in its source: compared on the common part]";
    head.appendChild(document.createTextNode(said + " · "));
    head.appendChild(el("a", "every version", {href: fill(rulePage, pair["new"] || pair.old)}));
    box.appendChild(head);
    const oldRule = pair.old && texts[0].rules[pair.old], newRule = pair["new"] && texts[1].rules[pair["new"]];
    if (!record) {
      box.appendChild(el("div", comparable(oldRule || newRule), {"class": "rk-text", lang: choice.lang}));
      return box;
    }
    box.appendChild(drawOps(el("div", "", {"class": "rk-diff", lang: choice.lang}), record.ops,
      comparable(oldRule), comparable(newRule)));
    if (record.changed) box.appendChild(el("div", "changed: " + record.changed, {"class": "rk-note rk-changed"}));
    (record.editorial || []).forEach(function (line) { box.appendChild(el("div", line, {"class": "rk-note"})); });
    (record.examples || []).forEach(function (example, i) {
      if (example[0] === data.kinds.rows[0]) return;  // unchanged
      const line = el("div", "", {"class": "rk-example-row"});
      line.appendChild(el("span", "example (" + example[0] + "): ", {"class": "rk-meta"}));
      line.appendChild(drawOps(el("span", "", {"class": "rk-example rk-diff", lang: choice.lang}), example[1],
        oldRule.examples[i], newRule.examples[i]));
      box.appendChild(line);
    });
    const dropped = record.examples_dropped || [0, 0];
    [[oldRule, dropped[0], "removed", "del"], [newRule, dropped[1], "added", "ins"]].forEach(function (side) {
      side[0].examples.slice(side[0].examples.length - side[1]).forEach(function (text) {
        const line = el("div", "", {"class": "rk-example-row"});
        line.appendChild(el("span", "example " + side[2] + ": ", {"class": "rk-meta"}));
        const example = el("span", "", {"class": "rk-example rk-diff", lang: choice.lang});
        example.appendChild(el(side[3], text));
        line.appendChild(example);
        box.appendChild(line);
      });
    });
    return box;
  }

  // A kept rule's row is named by its text class, any other by where it went (compare/kinds.py).
  function rowKind(data, pair, record) {
    if (pair.kind !== data.place.IN_PLACE) return pair.kind;
    return record ? record["class"] : data.kinds.rows[0];
  }

  // The diff record of a continued rule, by its two text ids; two equal ids are one text, unchanged
  // (its record is written only when the text is cut off in its source).
  function recordOf(data, pair, diffs, ids, texts) {
    if (pair.old === null || pair["new"] === null) return null;
    const a = ids[0][pair.old], b = ids[1][pair["new"]];
    const found = diffs.get(data.shard(a));
    const record = found && found[a + "." + b];
    if (record) return record;
    if (a !== b) throw new Error("no diff of texts " + a + " and " + b + " in the compare data");
    return {"class": data.kinds.rows[0], ops: [Array.from(comparable(texts[0].rules[pair.old])).length]};
  }

  function info(lang, label) {
    return versions.find(function (v) { return v.lang === lang && v.label === label; });
  }

  function countsLine(data, rows, scope) {
    const counts = {};
    data.kinds.rows.forEach(function (k) { counts[k] = 0; });
    rows.forEach(function (r) { counts[r.kind]++; });
    // as the CLI prints them: every kind, renumbered-reference only when some row is one
    const shown = data.kinds.rows.filter(function (k) { return counts[k] || k !== data.kinds.rows[2]; });
    return shown.map(function (k) { return counts[k] + " " + k; }).join(", ") + (scope.label ? " (rules " + scope.label + ")" : "");
  }

  function compare(choice, data, found, texts, diffs) {
    const ids = [data.ids(choice.old), data.ids(choice["new"])];
    const rows = found.pairs.map(function (pair) {
      const record = recordOf(data, pair, diffs, ids, texts);
      return {pair: pair, record: record, kind: rowKind(data, pair, record)};
    });
    summary.textContent = "";
    summary.appendChild(el("p", countsLine(data, rows, found.scope), {"class": "rk-meta", id: "rk-compare-counts"}));
    [[found.unknownOld, choice.old, choice["new"]], [found.unknownNew, choice["new"], choice.old]].forEach(function (u) {
      if (!u[0].length) return;
      const details = el("details", "", {"class": "rk-partial"});
      details.appendChild(el("summary", u[0].length + " rules only in " + u[1] + " are not listed: " + u[2]
        + " is partial (an excerpt, a change notice) and says nothing about the rules it does not print."));
      details.appendChild(el("p", u[0].join(", ")));
      summary.appendChild(details);
    });
    if (found.notes.length) {
      const list = el("ul", "", {"class": "rk-notes"});
      found.notes.forEach(function (note) { list.appendChild(el("li", note)); });
      summary.appendChild(list);
    }
    const prebuilt = (diffPages[choice.lang] || {})[choice.old + ".." + choice["new"]];
    if (prebuilt) {
      const p = el("p", "This pair also has a diff page, chapter by chapter: ");
      p.appendChild(el("a", choice.old + " → " + choice["new"], {href: url(prebuilt)}));
      summary.appendChild(p);
    }
    const fragment = document.createDocumentFragment(), used = new Set();
    rows.forEach(function (r) {
      if (r.kind === data.kinds.rows[0]) return;
      const names = [r.pair["new"], r.pair.old].filter(function (n, i, all) {
        return n !== null && all.indexOf(n) === i && !used.has(n);
      });
      names.forEach(function (n) { used.add(n); });
      fragment.appendChild(row(choice, data, r.pair, texts, r.record, names));
    });
    results.textContent = "";
    results.appendChild(fragment);
    if (location.hash) {
      const target = document.getElementById(decodeURIComponent(location.hash.slice(1)));
      if (target) target.scrollIntoView();
    }
  }

  function labels(lang) {
    return versions.filter(function (v) { return v.lang === lang && v.api; });
  }

  function options(select, list, value) {
    select.textContent = "";
    list.forEach(function (v) {
      // a release named by its file's date (Magic's) took effect on the date its text states: say which
      // is which; a numbered version (Duel Masters' 1.48) is shown with its date
      const dated = /^\d{4}-\d{2}-\d{2}$/.test(v.label) ? ", effective " + v.date : " (" + v.date + ")";
      const text = v.label + (v.date && v.date !== v.label ? dated : "") + (v.complete ? "" : " — partial");
      select.appendChild(el("option", text, {value: v.label}));
    });
    if (value !== undefined) select.value = value;
  }

  function defaults(lang) {
    const list = labels(lang), complete = list.filter(function (v) { return v.complete; });
    const newest = list[list.length - 1];
    const older = complete.filter(function (v) { return v !== newest; });
    const old = older.length ? older[older.length - 1] : list[Math.max(0, list.length - 2)];
    return {old: old ? old.label : "", "new": newest ? newest.label : ""};
  }

  function choose(params) {
    const langs = [];
    versions.forEach(function (v) { if (v.api && langs.indexOf(v.lang) < 0) langs.push(v.lang); });
    fields.lang.textContent = "";
    const names = JSON.parse(form.dataset.languages);
    langs.forEach(function (lang) { fields.lang.appendChild(el("option", names[lang] || lang, {value: lang})); });
    const lang = langs.indexOf(params.get("lang")) >= 0 ? params.get("lang") : langs[0];
    fields.lang.value = lang;
    setVersions(lang, params.get("old"), params.get("new"));
    fields.rule.value = params.get("rule") || "";
  }

  function setVersions(lang, old, newer) {
    const list = labels(lang), known = list.map(function (v) { return v.label; }), fallback = defaults(lang);
    options(fields.old, list, known.indexOf(old) >= 0 ? old : fallback.old);
    options(fields["new"], list, known.indexOf(newer) >= 0 ? newer : fallback["new"]);
  }

  function current() {
    return {lang: fields.lang.value, old: fields.old.value, "new": fields["new"].value,
            rule: fields.rule.value.trim().replace(/\.$/, "")};
  }

  // What diff_asked (rules_kb/ask/diffs.py) refuses, refused here too, in its words.
  function asked(choice, data) {
    const i = data.labels.indexOf(choice.old), j = data.labels.indexOf(choice["new"]);
    if (i < 0 || j < 0) throw new Error("choose two versions");
    if (i === j) throw new Error("compare two different versions (both are " + choice.old + ")");
    if (i > j) throw new Error(choice.old + " is newer than " + choice["new"] + ": give the older version first (⇄ swaps them)");
    const scope = A.scopeOf(data, choice.rule);
    if (scope.root && !Object.keys(data.ids(choice.old)).concat(Object.keys(data.ids(choice["new"])))
      .some(function (n) { return R.compare(number(n), scope.root) === 0; })) {
      throw new Error("no rule " + scope.label + " in " + choice.old + " or " + choice["new"]);
    }
    return scope;
  }

  function show(push) {
    const choice = current();
    const query = "?lang=" + encodeURIComponent(choice.lang) + "&old=" + encodeURIComponent(choice.old)
      + "&new=" + encodeURIComponent(choice["new"]) + (choice.rule ? "&rule=" + encodeURIComponent(choice.rule) : "");
    if (push) history.replaceState(null, "", query);
    const copy = document.getElementById("rk-compare-copy");
    if (copy) copy.setAttribute("data-copy", query);
    const mine = ++run;
    form.dataset.done = "";
    const oldInfo = info(choice.lang, choice.old), newInfo = info(choice.lang, choice["new"]);
    if (!oldInfo || !newInfo || !indexes[choice.lang]) { status.textContent = "choose two versions"; return; }
    status.textContent = "loading " + choice.old + " and " + choice["new"] + " …";
    let data, found;
    fetchJson(indexes[choice.lang]).then(function (index) {
      if (!index.prepared) index.prepared = A.prepare(index);
      data = index.prepared;
      const scope = asked(choice, data);
      found = A.alignment(data, choice.old, choice["new"]);
      found.scope = scope;
      found.pairs = found.pairs.filter(function (p) {
        return (p.old !== null && scope.contains(p.old)) || (p["new"] !== null && scope.contains(p["new"]));
      }).sort(A.pairOrder);
      found.unknownOld = found.unknownOld.filter(scope.contains).sort(byNumber);
      found.unknownNew = found.unknownNew.filter(scope.contains).sort(byNumber);
      const ids = data.ids(choice.old), shards = new Set();
      found.pairs.forEach(function (p) { if (p.old !== null && p["new"] !== null) shards.add(data.shard(ids[p.old])); });
      const wanted = Array.from(shards).filter(Boolean);
      return Promise.all([fetchVersion(oldInfo.api), fetchVersion(newInfo.api)].concat(wanted.map(fetchJson)))
        .then(function (loaded) {
          return [loaded.slice(0, 2), new Map(wanted.map(function (path, k) { return [path, loaded[k + 2]]; }))];
        });
    }).then(function (loaded) {
      if (mine !== run) return;
      compare(choice, data, found, loaded[0], loaded[1]);
      status.textContent = choice.lang + ": " + choice.old + " → " + choice["new"];
      form.dataset.done = String(mine);
    }).catch(function (error) {
      if (mine !== run) return;
      status.textContent = error.message;
      summary.textContent = "";
      results.textContent = "";
      form.dataset.done = String(mine);
    });
  }

  form.addEventListener("submit", function (event) { event.preventDefault(); show(true); });
  fields.lang.addEventListener("change", function () { setVersions(fields.lang.value); show(true); });
  fields.old.addEventListener("change", function () { show(true); });
  fields["new"].addEventListener("change", function () { show(true); });
  fields.rule.addEventListener("change", function () { show(true); });
  document.getElementById("rk-compare-swap").addEventListener("click", function () {
    const old = fields.old.value;
    fields.old.value = fields["new"].value;
    fields["new"].value = old;
    show(true);
  });

  fetchJson(form.dataset.versions).then(function (index) {
    versions = index.versions;
    const params = new URLSearchParams(location.search);
    choose(params);
    show(false);
  }).catch(function (error) { status.textContent = "could not load the list of versions: " + error.message; });
})();
