// rules-kb: compare any two versions in the browser, from the static JSON API. No network
// beyond the site itself, no library. Source text only ever reaches the page as textContent.
//
// Rules are paired by number (a renumbered rule shows as removed + added: the pre-built diff
// pages align moves). Text is diffed on tokens: runs of one script (kanji, katakana, Latin
// letters and digits), runs of spaces, and single characters otherwise (hiragana, punctuation),
// so English is diffed word by word and Japanese at script boundaries, with okurigana and
// particles character by character (使ったら → 実行したら keeps たら). An unchanged stretch of
// one character between two changes is folded into them, so a change reads as one piece.
(function () {
  "use strict";

  const form = document.getElementById("rk-compare");
  if (!form) return;
  const status = document.getElementById("rk-compare-status");
  const summary = document.getElementById("rk-compare-summary");
  const results = document.getElementById("rk-compare-results");
  const siteRoot = new URL(form.dataset.root, document.baseURI);
  const pinned = JSON.parse(form.dataset.pinned);      // lang -> label -> template with {chapter}, {anchor}
  const rulePage = form.dataset.rulePage;               // template with {anchor}
  const diffPages = JSON.parse(form.dataset.diffs);     // lang -> "old..new" -> root path of the pre-built diff
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

  // --- rule numbers: 100 < 100.1 < 100.1a < 100.2 < 100.10 (object keys do not keep this order)
  function numberKey(number) {
    const m = /^(\d+)(?:\.(\d+))?([a-z]?)$/.exec(number) || [number, "0", "", ""];
    return [parseInt(m[1], 10), m[2] === undefined || m[2] === "" ? -1 : parseInt(m[2], 10), m[3] || ""];
  }
  function byNumber(a, b) {
    const x = numberKey(a), y = numberKey(b);
    for (let i = 0; i < 3; i++) {
      if (x[i] < y[i]) return -1;
      if (x[i] > y[i]) return 1;
    }
    return 0;
  }
  function within(number, prefix) {
    return !prefix || number === prefix || number.indexOf(prefix + ".") === 0
      || (/^\d+\.\d+$/.test(prefix) && new RegExp("^" + prefix.replace(".", "\\.") + "[a-z]$").test(number));
  }

  // --- tokens and the diff
  const SCRIPTS = [
    ["s", /\s/], ["k", /[\u3400-\u9fff\uf900-\ufaff々〆ヵヶ]/],
    ["t", /[\u30a1-\u30ffー\uff66-\uff9f]/], ["w", /[A-Za-z0-9\u00c0-\u024f\uff10-\uff19\uff21-\uff3a\uff41-\uff5a'’]/],
  ];
  function scriptOf(ch) {
    for (let i = 0; i < SCRIPTS.length; i++) if (SCRIPTS[i][1].test(ch)) return SCRIPTS[i][0];
    return null;
  }
  function tokens(text) {
    const out = [];
    let current = "", kind = null;
    for (const ch of text) {
      const k = scriptOf(ch);
      if (k !== null && k === kind) { current += ch; continue; }
      if (current) out.push(current);
      current = ch;
      kind = k;
    }
    if (current) out.push(current);
    return out;
  }

  const MAX_CELLS = 4000000;
  // Longest common subsequence of two token lists -> [["=", text] | ["-", text] | ["+", text]].
  function diff(oldText, newText) {
    const a = tokens(oldText), b = tokens(newText);
    let start = 0;
    while (start < a.length && start < b.length && a[start] === b[start]) start++;
    let endA = a.length, endB = b.length;
    while (endA > start && endB > start && a[endA - 1] === b[endB - 1]) { endA--; endB--; }
    const ops = [];
    if (start) ops.push(["=", a.slice(0, start).join("")]);
    const n = endA - start, m = endB - start;
    if (n * m > MAX_CELLS) {
      ops.push(["-", a.slice(start, endA).join("")], ["+", b.slice(start, endB).join("")]);
    } else {
      const width = m + 1, table = new Uint32Array((n + 1) * width);
      for (let i = n - 1; i >= 0; i--) {
        for (let j = m - 1; j >= 0; j--) {
          table[i * width + j] = a[start + i] === b[start + j] ? table[(i + 1) * width + j + 1] + 1
            : Math.max(table[(i + 1) * width + j], table[i * width + j + 1]);
        }
      }
      let i2 = 0, j2 = 0;
      while (i2 < n || j2 < m) {
        if (i2 < n && j2 < m && a[start + i2] === b[start + j2]) { ops.push(["=", a[start + i2]]); i2++; j2++; }
        else if (j2 < m && (i2 === n || table[i2 * width + j2 + 1] >= table[(i2 + 1) * width + j2])) {
          ops.push(["+", b[start + j2]]); j2++;
        } else { ops.push(["-", a[start + i2]]); i2++; }
      }
    }
    if (endA < a.length) ops.push(["=", a.slice(endA).join("")]);
    return tidy(ops);
  }
  // Merge neighbours of one kind, fold one-character equalities between two changes into
  // them, and put each change's deletion before its insertion.
  function tidy(ops) {
    const parts = [];  // {same: text} or {del: text, ins: text}
    ops.forEach(function (op) {
      let last = parts[parts.length - 1];
      if (op[0] === "=") {
        if (last && last.same !== undefined) last.same += op[1];
        else parts.push({same: op[1]});
        return;
      }
      if (!last || last.same !== undefined) parts.push(last = {del: "", ins: ""});
      last[op[0] === "-" ? "del" : "ins"] += op[1];
    });
    const folded = [];
    parts.forEach(function (part) {
      const n = folded.length, gap = folded[n - 1], change = folded[n - 2];
      if (part.same === undefined && gap && gap.same !== undefined && Array.from(gap.same).length === 1
          && change && change.same === undefined) {
        folded.pop();
        change.del += gap.same + part.del;
        change.ins += gap.same + part.ins;
      } else {
        folded.push(part);
      }
    });
    const out = [];
    folded.forEach(function (part) {
      if (part.same !== undefined) { out.push(["=", part.same]); return; }
      if (part.del) out.push(["-", part.del]);
      if (part.ins) out.push(["+", part.ins]);
    });
    return out;
  }

  // --- building the page (textContent only)
  function el(tag, text, attributes) {
    const node = document.createElement(tag);
    if (text) node.textContent = text;
    Object.keys(attributes || {}).forEach(function (name) { node.setAttribute(name, attributes[name]); });
    return node;
  }
  function fill(template, number) {
    const chapter = String(Math.floor(numberKey(number)[0] / 100));
    return url(template.split("{chapter}").join(chapter).split("{anchor}").join(number));
  }
  function whole(rule) { return [rule.title, rule.text].filter(Boolean).join(" "); }
  function diffNode(oldText, newText, lang, cls) {
    const box = el("div", "", {"class": cls, lang: lang});
    diff(oldText, newText).forEach(function (op) {
      box.appendChild(op[0] === "=" ? document.createTextNode(op[1]) : el(op[0] === "-" ? "del" : "ins", op[1]));
    });
    return box;
  }

  function row(kind, number, choice, oldRule, newRule) {
    const box = el("div", "", {"class": "rk-row " + kind, id: number});
    const head = el("div", "", {"class": "rk-row-head"});
    const ends = [];
    if (oldRule) ends.push(el("a", number + " (" + choice.old + ")", {href: fill(pinned[choice.lang][choice.old], number)}));
    if (newRule) ends.push(el("a", number + " (" + choice["new"] + ")", {href: fill(pinned[choice.lang][choice["new"]], number)}));
    ends.forEach(function (a, i) {
      if (i) head.appendChild(document.createTextNode(" → "));
      head.appendChild(a);
    });
    head.appendChild(document.createTextNode(" "));
    head.appendChild(el("span", kind, {"class": "rk-kind"}));
    head.appendChild(document.createTextNode(" · "));
    head.appendChild(el("a", "every version", {href: fill(rulePage, number)}));
    box.appendChild(head);
    if (oldRule && newRule) {
      box.appendChild(diffNode(whole(oldRule), whole(newRule), choice.lang, "rk-diff"));
      const count = Math.max(oldRule.examples.length, newRule.examples.length);
      for (let i = 0; i < count; i++) {
        const before = oldRule.examples[i] || "", after = newRule.examples[i] || "";
        if (before !== after) box.appendChild(diffNode(before, after, choice.lang, "rk-example rk-diff"));
      }
    } else {
      box.appendChild(el("div", whole(oldRule || newRule), {"class": "rk-text", lang: choice.lang}));
    }
    return box;
  }

  function same(x, y) {
    return x.title === y.title && x.text === y.text && JSON.stringify(x.examples) === JSON.stringify(y.examples);
  }

  function info(lang, label) {
    return versions.find(function (v) { return v.lang === lang && v.label === label; });
  }

  function compare(choice, oldData, newData) {
    const oldInfo = info(choice.lang, choice.old), newInfo = info(choice.lang, choice["new"]);
    const numbers = Object.keys(oldData.rules).concat(Object.keys(newData.rules).filter(function (n) {
      return !(n in oldData.rules);
    })).filter(function (n) { return within(n, choice.rule); }).sort(byNumber);
    const counts = {changed: 0, added: 0, removed: 0, unchanged: 0, unknown: 0};
    const rows = document.createDocumentFragment();
    numbers.forEach(function (n) {
      const o = oldData.rules[n], w = newData.rules[n];
      if (o && w) {
        if (same(o, w)) { counts.unchanged++; return; }
        counts.changed++;
        rows.appendChild(row("changed", n, choice, o, w));
      } else if (w) {
        if (!oldInfo.complete) { counts.unknown++; return; }
        counts.added++;
        rows.appendChild(row("added", n, choice, null, w));
      } else {
        if (!newInfo.complete) { counts.unknown++; return; }
        counts.removed++;
        rows.appendChild(row("removed", n, choice, o, null));
      }
    });
    summary.textContent = "";
    const line = el("p", counts.changed + " changed, " + counts.added + " added, " + counts.removed + " removed, "
      + counts.unchanged + " unchanged" + (choice.rule ? " (rules " + choice.rule + ")" : ""), {"class": "rk-meta", id: "rk-compare-counts"});
    summary.appendChild(line);
    if (counts.unknown) {
      summary.appendChild(el("p", counts.unknown + " rules printed in only one of the two are not listed: "
        + "a partial version (an excerpt, a change notice) says nothing about the rules it does not print.", {"class": "rk-partial"}));
    }
    const prebuilt = (diffPages[choice.lang] || {})[choice.old + ".." + choice["new"]];
    if (prebuilt) {
      const p = el("p", "This pair also has a diff page, with renumbered rules aligned and editorial changes marked: ");
      p.appendChild(el("a", choice.old + " → " + choice["new"], {href: url(prebuilt)}));
      summary.appendChild(p);
    }
    results.textContent = "";
    results.appendChild(rows);
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
      const text = v.label + (v.date && v.date !== v.label ? " (" + v.date + ")" : "") + (v.complete ? "" : " — partial");
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
    if (!oldInfo || !newInfo) { status.textContent = "choose two versions"; return; }
    status.textContent = "loading " + choice.old + " and " + choice["new"] + " …";
    Promise.all([fetchVersion(oldInfo.api), fetchVersion(newInfo.api)]).then(function (data) {
      if (mine !== run) return;
      compare(choice, data[0], data[1]);
      status.textContent = choice.lang + ": " + choice.old + " → " + choice["new"];
      form.dataset.done = String(mine);
    }).catch(function (error) {
      if (mine === run) status.textContent = "could not load the versions: " + error.message;
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

  window.rkCompareDiff = diff;  // for tests and the curious: rkCompareDiff("old text", "new text")
})();
