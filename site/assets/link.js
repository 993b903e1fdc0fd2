// The note linker of the site: a judge pastes a note, gets it back with rule references linked.
//
// It runs entirely in the browser. The reference grammar is not written here: the patterns and
// tables come from assets/link-grammar.js, generated at build time from the Python definition
// (rules_kb/refs.py, rules_kb/notes/protect.py) by rules_kb/notes/assets.py; which numbers exist
// in which version comes from assets/link-data.js, generated from the same catalog the
// `rules-kb link` command reads. This file holds only the steps that apply them, in the order of
// rules_kb/refs.py (find_references, find_note_references), rules_kb/notes/resolve.py,
// rules_kb/notes/link.py and rules_kb/notes/markup.py; a browser test checks that page and
// command give the same output for every fixture note.
(function () {
  "use strict";

  const here = document.currentScript ? document.currentScript.src : window.location.href;

  function loadScript(name) {
    return new Promise(function (resolve, reject) {
      const element = document.createElement("script");
      element.src = new URL(name, here).href;
      element.onload = resolve;
      element.onerror = function () { reject(new Error("cannot load " + name)); };
      document.head.appendChild(element);
    });
  }

  function makeLinker(grammar, data) {
    const R = window.RULES_KB_REFS(grammar);
    const { T, regex, matchAt, search, end, fold, show, findReferences } = R;

    // Python's bisect: how many of the ascending ``sorted`` come before ``value`` (left: those
    // below it; right: those not above it).
    function bisectLeft(sorted, value) {
      let lo = 0, hi = sorted.length;
      while (lo < hi) { const mid = (lo + hi) >> 1; if (sorted[mid] < value) lo = mid + 1; else hi = mid; }
      return lo;
    }
    function bisectRight(sorted, value) {
      let lo = 0, hi = sorted.length;
      while (lo < hi) { const mid = (lo + hi) >> 1; if (sorted[mid] <= value) lo = mid + 1; else hi = mid; }
      return lo;
    }

    // refs.overlap_test: whether [start, end) overlaps one of ``spans``, each test a bisection
    // (testing every span made a long note quadratic).
    function overlapTest(spans) {
      const ordered = spans.slice().sort((a, b) => a[0] - b[0] || a[1] - b[1]);
      const starts = ordered.map((span) => span[0]);
      const reach = [];
      let far = -Infinity;
      for (const span of ordered) { far = Math.max(far, span[1]); reach.push(far); }
      return function (start, stop) {
        const k = bisectLeft(starts, stop);
        return k > 0 && reach[k - 1] > start;
      };
    }

    // ---------------------------------------------------------------- refs.find_note_references
    function findNoteReferences(text, game) {
      const found = [];
      for (let reference of findReferences(text, game)) {
        const tag = search("game_tag", text, Math.max(0, reference.start - T.tag_window), reference.start);
        const keyword = matchAt("keyword_game", reference.raw, 0);
        const tagged = tag !== null ? T.game_tags[tag.groups.tag]
          : keyword !== null ? T.keyword_games[keyword.groups.tag] : null;
        if (tagged !== null && tagged !== game) reference = expandedFor(text, reference, tagged);
        const suffix = matchAt("version_suffix", text, reference.end);
        const start = tag !== null ? tag.index : reference.start;
        const stop = suffix !== null ? end(suffix) : reference.end;
        const items = reference.items.map((item) => item.slice());
        items[0][0] = start;
        items[items.length - 1][1] = stop;
        found.push({
          start: start, end: stop, numbers: reference.numbers, raw: text.slice(start, stop), items: items,
          game: tagged, version: suffix !== null ? fold(suffix.groups.version) : null,
        });
      }
      return found;
    }

    function expandedFor(text, reference, game) {
      const again = findReferences(text.slice(reference.start, reference.end), game);
      if (again.length !== 1 || again[0].raw !== reference.raw) return reference;
      const shift = reference.start;
      return {
        start: reference.start, end: reference.end, numbers: again[0].numbers, raw: reference.raw,
        items: again[0].items.map(([s, e, n]) => [s + shift, e + shift, n]),
      };
    }

    // ---------------------------------------------------------------- notes.protect
    function maskProtected(text, fmt) {
      const re = regex("protected_" + fmt, "g");
      re.lastIndex = 0;
      let out = "", position = 0, m;
      while ((m = re.exec(text)) !== null) {
        if (m[0].length === 0) { re.lastIndex++; continue; }
        out += text.slice(position, m.index) + m[0].replace(/[^\n]/g, grammar.mask);
        position = end(m);
      }
      return out + text.slice(position);
    }

    // ---------------------------------------------------------------- notes.index and notes.resolve
    const names = data.names;
    const languages = data.languages;
    const gameNumbers = {};
    for (const [game, row] of Object.entries(data.games)) gameNumbers[game] = new Set(row.numbers);
    const versions = data.versions.map((row) => Object.assign({}, row, {
      numbers: new Set(row.numbers.map((i) => data.games[row.game].numbers[i])),
    }));
    const ofGame = (game) => versions.filter((v) => v.game === game);
    const fill = (template, n) => template.replace("{chapter}", String(Math.floor(n.section / 100)))
      .replace("{anchor}", show(n));

    function resolve(reference, options) {
      if (reference.section) return resolveSection(reference, options);
      let game = reference.game || options.game;
      const wanted = reference.numbers.map(show);
      if (game === null) {
        const [guessed, problem] = guessGame(reference, wanted);
        if (problem !== null) return [{ start: reference.start, end: reference.end, url: null, problem: problem }];
        game = guessed;
      }
      if (!(game in gameNumbers)) {
        return [{ start: reference.start, end: reference.end, url: null, problem: "no " + names[game] + " rules in the corpus" }];
      }
      return reference.items.map(([s, e, numbers]) => resolveItem(s, e, numbers, game, reference.version, options));
    }

    function resolveItem(start, stop, numbers, game, version, options) {
      const missing = numbers.map(show).filter((n) => !gameNumbers[game].has(n));
      if (missing.length) return { start: start, end: stop, url: null, problem: "no rule " + missing.join(", ") + " in " + names[game] };
      version = version || options.pin;
      let chosen = null;
      for (const n of numbers) {
        let found = null, problem = null;
        if (version !== null) [found, problem] = pinned(game, version, n);
        else if (options.asOf !== null) [found, problem] = inForce(game, options.asOf, n);
        if (problem !== null) return { start: start, end: stop, url: null, problem: problem };
        chosen = chosen || found;
      }
      const template = chosen !== null ? chosen.pinned : data.games[game].rule_page;
      return { start: start, end: stop, url: options.baseUrl.replace(/\/+$/, "") + fill(template, numbers[0]), problem: null };
    }

    function guessGame(reference, wanted) {
      const games = Object.keys(data.games);
      if (reference.version !== null) {
        const withVersion = games.filter((g) => ofGame(g).some((v) => v.label === reference.version));
        if (withVersion.length === 1) return [withVersion[0], null];
      }
      const holding = games.filter((g) => wanted.every((n) => gameNumbers[g].has(n)));
      if (holding.length === 1) return [holding[0], null];
      if (!holding.length) return [null, "no rule " + wanted.join(" ") + " in any game"];
      return [null, "ambiguous: " + wanted[0] + " exists in " + holding.map((g) => names[g]).join(" and ") +
        "; write DM or MTG before it, or pass --game"];
    }

    function pinned(game, label, n) {
      const candidates = ofGame(game).filter((v) => v.label === label);
      if (!candidates.length) return [null, names[game] + " has no version " + label + " with rule texts in the corpus"];
      for (const lang of languages[game]) {
        for (const v of candidates) if (v.lang === lang && v.numbers.has(show(n))) return [v, null];
      }
      return [null, "no rule " + show(n) + " in " + names[game] + " " + label];
    }

    function inForce(game, date, n) {
      const key = show(n), rank = languages[game];
      const holding = ofGame(game).filter((v) => v.numbers.has(key));
      let chosen = null;
      for (const v of holding) {
        if (v.date === null || v.date > date) continue;
        if (chosen === null || v.date > chosen.date ||
            (v.date === chosen.date && rank.indexOf(v.lang) < rank.indexOf(chosen.lang))) chosen = v;
      }
      if (chosen !== null) {
        const gone = ofGame(game).filter((v) => v.complete && v.lang === chosen.lang && v.date !== null &&
          chosen.date < v.date && v.date <= date && !v.numbers.has(key));
        if (gone.length) return [null, "rule " + key + " is not in " + names[game] + " " + gone[0].label + ", in force on " + date];
        return [chosen, null];
      }
      let before = null;
      for (const v of holding) {
        if (v.until === null || !(v.until > date)) continue;
        if (before === null || v.until < before.until ||
            (v.until === before.until && rank.indexOf(v.lang) < rank.indexOf(before.lang))) before = v;
      }
      if (before !== null) return [before, null];
      return [null, "no text of " + names[game] + " rule " + key + " dated on or before " + date + " in the corpus"];
    }

    function checkOptions(options) {
      if (options.pin !== null && options.asOf !== null) throw new Error("--pin and --as-of exclude each other");
      if (options.asOf !== null && !isDate(options.asOf)) {
        throw new Error("--as-of '" + options.asOf + "': expected a date YYYY-MM-DD");
      }
      if (options.pin !== null && !versions.some((v) => v.label === options.pin)) {
        const held = versions.filter((v) => !v.label.startsWith("before-"));
        throw new Error("--pin '" + options.pin + "': no version with rule texts has that label (nearest: " +
          nearestLabels(options.pin, held).join(", ") + "; rules-kb versions lists them all)");
      }
    }
    // Twin of rules_kb.ask.versions.nearest_labels: a date by days, a version number by value.
    function asDay(text) {
      const m = /^(\d{4})(?:-(\d{1,2})(?:-(\d{1,2}))?)?$/.exec(text.trim());
      if (m === null) return null;
      const y = +m[1], mo = +(m[2] || 1), d = +(m[3] || 1);
      const t = Date.UTC(y, mo - 1, d), back = new Date(t);
      if (back.getUTCFullYear() !== y || back.getUTCMonth() !== mo - 1 || back.getUTCDate() !== d) return null;
      return Math.round(t / 86400000);
    }
    function asNumber(text) {
      text = text.trim();
      if (!/^(\d+(?:\.\d+)+|\d+)$/.test(text) || /^\d{4}$/.test(text)) return null;
      return text.split(".").reduce((sum, part, i) => sum + parseInt(part, 10) / Math.pow(1000, i), 0);
    }
    function nearestLabels(wanted, held) {
      const labels = [...new Set(held.map((v) => v.label))], dates = new Map(held.map((v) => [v.label, v.date]));
      const day = asDay(wanted);
      const pick = (scored) => scored.sort((a, b) => a[0] - b[0] || a[1] - b[1] || a[2] - b[2]).slice(0, 5).map((s) => s[3]);
      if (day !== null) {
        const scored = [];
        labels.forEach((label, position) => {
          const other = (dates.get(label) && asDay(dates.get(label))) || asDay(label);
          if (other !== null) scored.push([Math.abs(other - day), -other, -position, label]);
        });
        if (scored.length) return pick(scored);
      }
      const value = asNumber(wanted);
      if (value !== null) {
        const scored = labels.map((label) => [asNumber(label), label]).filter((p) => p[0] !== null)
          .map(([v, label]) => [Math.abs(v - value), -v, 0, label]);
        if (scored.length) return pick(scored);
      }
      return labels.sort().slice(0, 5);
    }
    function isDate(text) {
      if (!/^[0-9]{4}-[0-9]{2}-[0-9]{2}$/.test(text)) return false;
      const d = new Date(text + "T00:00:00Z");
      return !isNaN(d) && d.toISOString().slice(0, 10) === text;
    }

    // ---------------------------------------------------------------- refs.find_section_references, notes.sections
    function findSectionReferences(text) {
      const found = [];
      for (const m of text.matchAll(regex("section_reference", "g"))) {
        const [game, documentId] = T.section_tags[m.groups.tag];
        found.push({ start: m.index, end: end(m), raw: m[0], game: game, document: documentId,
          number: fold(m.groups.number).replace(/\.$/, ""), name: m.groups.name === undefined ? null : m.groups.name });
      }
      const taken = overlapTest(found.map((r) => [r.start, r.end]));
      for (const m of text.matchAll(regex("bracketed_name", "g"))) {
        if (taken(m.index, end(m))) continue;
        found.push({ start: m.index, end: end(m), raw: m[0], game: null, document: null, number: null, name: m.groups.name });
      }
      return found.sort((a, b) => a.start - b.start);
    }

    const separators = new RegExp("\\s*[" + T.separators + "]\\s*", "g");
    const nameKey = (text) => text.normalize("NFKC").trim().replace(/^[〔〕[\]]+|[〔〕[\]]+$/g, "")
      .replace(separators, "—").replace(/\s+/g, "").toLowerCase();

    function resolveSection(reference, options) {
      const documents = data.sections || [];
      let doc, number;
      if (reference.document === null) {
        const key = nameKey(reference.name || "");
        const hits = documents.filter((d) => key in d.names);
        if (!hits.length) {
          if (![...T.separators].some((s) => (reference.name || "").includes(s))) return [];
          return [{ start: reference.start, end: reference.end, url: null,
            problem: "no infraction or section named '" + reference.name + "' in the corpus" }];
        }
        if (hits.length > 1) {
          return [{ start: reference.start, end: reference.end, url: null,
            problem: "ambiguous: '" + reference.name + "' names a section of " + hits.length + " documents" }];
        }
        doc = hits[0];
        number = doc.names[key];
      } else {
        doc = documents.find((d) => d.game === reference.game && d.document === reference.document) || null;
        if (doc === null) return [{ start: reference.start, end: reference.end, url: null, problem: "no " + reference.raw.split(/\s/)[0] + " in the corpus" }];
        number = reference.number;
        if (!doc.versions.some((v) => v.numbers.includes(number))) {
          return [{ start: reference.start, end: reference.end, url: null, problem: "no section " + number + " in " + doc.short }];
        }
      }
      const asked = reference.name !== null && /^\d{4}-\d{2}-\d{2}$/.test(reference.name) ? reference.name : null;
      const when = asked || options.pin || options.asOf;
      const base = options.baseUrl.replace(/\/+$/, "");
      if (when === null) return [{ start: reference.start, end: reference.end, url: base + doc.page.replace("{anchor}", number), problem: null }];
      const labels = doc.versions.filter((v) => v.numbers.includes(number)).map((v) => v.label);
      const chosen = labels.includes(when) ? when : labels.filter((l) => l <= when).sort().pop();
      if (chosen === undefined) {
        return [{ start: reference.start, end: reference.end, url: null,
          problem: "no version of " + doc.short + " " + number + " in force on " + when + " in the corpus" }];
      }
      return [{ start: reference.start, end: reference.end, url: base + doc.pinned.replace("{anchor}", chosen) + "#" + number, problem: null }];
    }

    // ---------------------------------------------------------------- notes.link
    function findIn(text, fmt, options) {
      const masked = maskProtected(text, fmt);
      const rules = findNoteReferences(masked, options.game);
      const taken = overlapTest(rules.map((r) => [r.start, r.end]));
      const sections = findSectionReferences(masked).map((r) => Object.assign(r, { section: true }))
        .filter((s) => !taken(s.start, s.end));
      return rules.concat(sections).sort((a, b) => a.start - b.start);
    }

    function linkNote(text, fmt, options) {
      if (fmt === "html") return linkHtml(text, options);
      const pieces = [], problems = [], footnotes = new Map(), spans = [];
      let firstFootnote = 1;
      const lines = regex("footnote_line", "g");
      lines.lastIndex = 0;
      for (let m; (m = lines.exec(text)) !== null;) firstFootnote = Math.max(firstFootnote, parseInt(m.groups.footnote, 10) + 1);
      let position = 0, links = 0;
      for (const reference of findIn(text, fmt, options)) {
        for (const item of resolve(reference, options)) {
          if (fmt === "text" && matchAt("footnote_mark", text, item.end) !== null) continue;
          if (item.problem !== null) {
            problems.push({ offset: item.start, raw: text.slice(item.start, item.end), message: item.problem });
            continue;
          }
          pieces.push(text.slice(position, item.start));
          spans.push({ start: item.start, end: item.end, url: item.url });
          if (fmt === "md") {
            pieces.push("[" + text.slice(item.start, item.end) + "](" + item.url + ")");
          } else {
            if (!footnotes.has(item.url)) footnotes.set(item.url, firstFootnote + footnotes.size);
            pieces.push(text.slice(item.start, item.end) + "[" + footnotes.get(item.url) + "]");
          }
          position = item.end;
          links += 1;
        }
      }
      pieces.push(text.slice(position));
      let linked = pieces.join("");
      if (footnotes.size) {
        let head = linked.endsWith("\n") ? "" : "\n";
        head += firstFootnote > 1 ? "" : "\n";
        linked += head + [...footnotes].map(([url, n]) => "[" + n + "]: " + url + "\n").join("");
      }
      return { text: linked, problems: problems, links: links, spans: spans };
    }

    // ---------------------------------------------------------------- notes.markup
    const skipped = new Set(grammar.skipped_elements);
    const markers = grammar.markers;

    function eligibleTexts(source) {
      const doc = new DOMParser().parseFromString(source, "text/html");
      const walker = doc.createTreeWalker(doc, NodeFilter.SHOW_TEXT);
      const texts = [];
      while (walker.nextNode()) {
        let parent = walker.currentNode.parentNode, skip = false;
        for (; parent !== null && parent.nodeType === 1; parent = parent.parentNode) {
          if (skipped.has(parent.localName)) { skip = true; break; }
        }
        if (!skip) texts.push(walker.currentNode.data);
      }
      return texts;
    }

    function marker(n) {
      return markers.start + [...String(n)].map((d) => String.fromCharCode(markers.zero + Number(d))).join("") + markers.end;
    }

    function readMarkers(text) {
      let clean = "";
      const found = new Map();
      let position = 0;
      while (position < text.length) {
        const char = text[position];
        if (char === markers.start) {
          const stop = text.indexOf(markers.end, position);
          if (stop < 0) break;
          const digits = [...text.slice(position + 1, stop)].map((c) => c.charCodeAt(0) - markers.zero).join("");
          if (!found.has(clean.length)) found.set(clean.length, []);
          found.get(clean.length).push(parseInt(digits, 10));
          position = stop + 1;
          continue;
        }
        clean += char;
        position += 1;
      }
      return [clean, found];
    }

    function occurrences(source, raws) {
      const places = new Set();
      for (const raw of raws) {
        for (let at = source.indexOf(raw); at >= 0; at = source.indexOf(raw, at + 1)) places.add(at);
      }
      return [...places].sort((a, b) => a - b);
    }

    const escapeHtml = (text) => text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;")
      .replace(/"/g, "&quot;").replace(/'/g, "&#x27;");

    function linkHtml(source, options) {
      const raws = new Set();
      for (const text of eligibleTexts(source)) for (const ref of findIn(text, "html", options)) raws.add(ref.raw);
      const places = occurrences(source, raws);
      let marked = "", previous = 0;
      places.forEach((place, n) => { marked += source.slice(previous, place) + marker(n); previous = place; });
      marked += source.slice(previous);
      const splices = [], problems = [];
      for (const text of eligibleTexts(marked)) {
        const [clean, found] = readMarkers(text);
        for (const reference of findIn(clean, "html", options)) {
          const at = (found.get(reference.start) || []).map((n) => places[n])
            .find((place) => source.startsWith(reference.raw, place));
          if (at === undefined) {
            problems.push({ offset: 0, raw: reference.raw, message: grammar.unlocated });
            continue;
          }
          const shift = at - reference.start;
          for (const item of resolve(reference, options)) {
            if (item.problem !== null) {
              problems.push({ offset: item.start + shift, raw: clean.slice(item.start, item.end), message: item.problem });
            } else {
              splices.push([item.start + shift, item.end + shift, item.url]);
            }
          }
        }
      }
      splices.sort((a, b) => a[0] - b[0] || a[1] - b[1] || (a[2] < b[2] ? -1 : a[2] > b[2] ? 1 : 0));
      let out = "";
      previous = 0;
      for (const [start, stop, url] of splices) {
        out += source.slice(previous, start) + '<a href="' + escapeHtml(url) + '">' + source.slice(start, stop) + "</a>";
        previous = stop;
      }
      out += source.slice(previous);
      problems.sort((a, b) => a.offset - b.offset);
      return { text: out, problems: problems, links: splices.length };
    }

    // notes.link.Lines: where each line of ``text`` starts, found once; the function it returns gives
    // the 1-based line and column in characters (code points, as Python counts them) of an offset.
    function lineIndex(text) {
      const starts = [0];
      for (let k = text.indexOf("\n"); k !== -1; k = text.indexOf("\n", k + 1)) starts.push(k + 1);
      return function (offset) {
        const line = bisectRight(starts, offset);
        return [line, [...text.slice(starts[line - 1], offset)].length + 1];
      };
    }

    // ---------------------------------------------------------------- notes.audit: each citation and its date
    // The verdicts are not computed here: the page reads them from /api/{game}/audit/{section}.json,
    // written at build time by rules_kb/render/audit_data.py with the command's own code.
    function dateTags(text) {
      const out = [], re = regex("audit_date_tag", "g");
      re.lastIndex = 0;
      for (let m; (m = re.exec(text)) !== null;) {
        out.push({ start: m.index, end: end(m), date: m.groups.y + "-" + m.groups.m + "-" + m.groups.d,
          game: T.audit_tag_games[m.groups.word || ""] || null });
      }
      return out;
    }
    // notes.audit.Entries: the note's entries and date tags found once, each citation's by bisection.
    function entries(text, tags) {
      const starts = [0], re = regex("audit_entry_start", "g");
      re.lastIndex = 0;
      for (let m; (m = re.exec(text)) !== null;) starts.push(end(m));
      const tagStarts = tags.map((t) => t.start);
      return {
        inTag: function (at) {
          const k = bisectRight(tagStarts, at);
          return k > 0 && at < tags[k - 1].end;
        },
        // The entry's tag after the citation, else the last before it.
        tagFor: function (at) {
          const k = bisectRight(starts, at);
          const start = starts[k - 1], stop = k < starts.length ? starts[k] : text.length;
          const first = bisectLeft(tagStarts, start), after = bisectLeft(tagStarts, at), last = bisectLeft(tagStarts, stop);
          return after < last ? tags[after] : after > first ? tags[after - 1] : null;
        },
      };
    }
    function citation(where, reference, n, tag, options) {
      const [line, column] = where(reference.start);
      const datedBy = reference.version ? "version" : tag !== null ? "tag" : options.asOf ? "as-of" : "";
      const dated = reference.version || (tag !== null ? tag.date : null) || options.asOf || null;
      const found = { line: line, column: column, cited: reference.raw, number: show(n), game: null, dated: dated,
        datedBy: datedBy, lang: null, version: null, verdict: null, problem: null };
      let game = reference.game || options.game || (tag !== null && !reference.version ? tag.game : null);
      if (game === null) {
        const [guessed, problem] = guessGame(reference, [show(n)]);
        if (problem !== null) return Object.assign(found, { verdict: "unresolved", problem: problem });
        game = guessed;
      }
      found.game = game;
      if (dated === null) {
        return Object.assign(found, { verdict: "undated", problem: "no date: give --as-of, or tag the entry [CR YYYY-MM-DD]" });
      }
      let version = null, problem;
      if (datedBy === "version" && ofGame(game).some((v) => v.label === dated)) [version, problem] = pinned(game, dated, n);
      else if (isDate(dated)) [version, problem] = inForce(game, dated, n);
      else problem = names[game] + " has no version " + dated + " with rule texts in the corpus";
      if (problem !== null) return Object.assign(found, { verdict: "unresolved", problem: problem });
      return Object.assign(found, { lang: version.lang, version: version.label });
    }
    function audit(text, fmt, options) {
      const tags = dateTags(text);
      const tagGames = [...new Set(tags.map((t) => t.game).filter((g) => g !== null))];
      if (options.game === null && tagGames.length === 1) options = Object.assign({}, options, { game: tagGames[0] });
      const out = [], found = entries(text, tags), where = lineIndex(text);
      for (const reference of findIn(text, fmt, options)) {
        if (reference.section) continue;  // a tournament section: one version of each document, nothing to audit against
        if (found.inTag(reference.start)) continue;
        const tag = found.tagFor(reference.start);
        for (const n of reference.numbers) out.push(citation(where, reference, n, tag, options));
      }
      return out;
    }
    // The run of identical texts holding the citation's version, in the order the audit file gives.
    function runOf(found, record) {
      const order = (record.order || {})[found.lang] || [];
      const at = order.indexOf(found.version);
      return ((record.rules || {})[found.number] || []).find((r) => r[0] === found.lang && at >= 0 &&
        order.indexOf(r[1]) <= at && at <= order.indexOf(r[2])) || null;
    }

    return {
      audit: function (text, fmt, options) {
        if (options.asOf !== null && !isDate(options.asOf)) throw new Error("--as-of '" + options.asOf + "': expected a date YYYY-MM-DD");
        return audit(text, fmt, options);
      },
      runOf: runOf,
      link: function (text, fmt, options) {
        checkOptions(options);
        const result = linkNote(text, fmt, options);
        const where = lineIndex(text);
        result.problems = result.problems.map(function (p) {
          const [line, column] = where(p.offset);
          return line + ":" + column + ": " + p.raw + ": " + p.message;
        });
        return result;
      },
      versions: versions,
    };
  }

  // ---------------------------------------------------------------- the page
  function setUp(linker) {
    const form = document.getElementById("link-form");
    if (form === null) return;
    const field = (id) => document.getElementById(id);
    const labels = [...new Set(linker.versions.map((v) => v.label).filter((l) => !l.startsWith("before-")))].sort();
    const list = field("link-versions");
    for (const label of labels) {
      const option = document.createElement("option");
      option.value = label;
      list.appendChild(option);
    }
    if (!field("link-base").value) field("link-base").value = new URL("..", window.location.href).href.replace(/\/+$/, "");
    // The page's own words for the linker's messages, which name the command's options.
    function pageWording(message) {
      return message.replace("or pass --game", "or choose the game above").replace(/--pin '/g, "Pin version '")
        .replace("no date: give --as-of,", "no date: fill in As of,")
        .replace(/--as-of '/g, "As of '").replace("--pin and --as-of exclude each other",
          "Pin version and As of exclude each other: fill in one").replace("; rules-kb versions lists them all", "");
    }
    // The preview: built node by node, so nothing in the note runs or loads (text is text, only links are made).
    const previewTags = new Set(["p", "br", "ul", "ol", "li", "strong", "b", "em", "i", "code", "pre", "blockquote",
      "h1", "h2", "h3", "h4", "h5", "h6", "table", "thead", "tbody", "tr", "td", "th"]);
    function copySafe(node, into) {
      for (const child of node.childNodes) {
        if (child.nodeType === 3) { into.appendChild(document.createTextNode(child.data)); continue; }
        if (child.nodeType !== 1) continue;
        const name = child.localName;
        if (name === "script" || name === "style" || name === "template") continue;
        let made = null;
        if (name === "a") {
          made = document.createElement("a");
          const href = child.getAttribute("href") || "";
          if (/^(http:|https:|\.|\/|#)/i.test(href)) made.href = href;  // no javascript: or data:
        } else if (previewTags.has(name)) {
          made = document.createElement(name);
        }
        if (made === null) { copySafe(child, into); continue; }
        copySafe(child, made);
        into.appendChild(made);
      }
    }
    function showPreview(source, fmt, result) {
      const preview = field("link-preview");
      if (preview === null) return;
      preview.textContent = "";
      if (fmt === "html") {
        copySafe(new DOMParser().parseFromString(result.text, "text/html").body, preview);
        return;
      }
      const block = document.createElement("div");
      block.className = "link-preview-text";
      let position = 0;
      for (const span of result.spans) {
        block.appendChild(document.createTextNode(source.slice(position, span.start)));
        const a = document.createElement("a");
        a.href = span.url;
        a.textContent = source.slice(span.start, span.end);
        block.appendChild(a);
        position = span.end;
      }
      block.appendChild(document.createTextNode(source.slice(position)));
      preview.appendChild(block);
    }
    function run(event) {
      if (event) event.preventDefault();
      const value = (id) => (field(id).value.trim() === "" ? null : field(id).value.trim());
      const options = { baseUrl: field("link-base").value.trim(), game: value("link-game"), pin: value("link-pin"), asOf: value("link-as-of") };
      const problems = field("link-problems");
      problems.textContent = "";
      try {
        const result = linker.link(field("link-input").value, field("link-format").value, options);
        field("link-output").value = result.text;
        showPreview(field("link-input").value, field("link-format").value, result);
        for (const line of result.problems) {
          const item = document.createElement("li");
          item.textContent = pageWording(line);
          item.dataset.message = line;  // the command's words, which the browser test compares
          problems.appendChild(item);
        }
        field("link-status").textContent = result.links + " linked, " + result.problems.length + " left unlinked";
      } catch (error) {
        field("link-output").value = "";
        if (field("link-preview") !== null) field("link-preview").textContent = "";
        field("link-status").textContent = "Error: " + pageWording(error.message);
      }
    }
    form.addEventListener("submit", run);
    // The audit: each citation at its date against today's rules, in the lines `rules-kb audit` prints.
    const byDate = { "version": "its version", "tag": "its entry's tag", "as-of": "As of" };
    async function runAudit() {
      const value = (id) => (field(id).value.trim() === "" ? null : field(id).value.trim());
      const out = field("link-audit-result");
      out.textContent = "";
      let found;
      try {
        found = linker.audit(field("link-input").value, field("link-format").value, { game: value("link-game"), asOf: value("link-as-of") });
      } catch (error) {
        field("link-status").textContent = "Error: " + pageWording(error.message);
        return;
      }
      const files = new Map();
      for (const f of found) {
        if (f.version === null) continue;
        const path = "../api/" + f.game + "/audit/" + String(Math.floor(parseFloat(f.number))).padStart(3, "0") + ".json";
        if (!files.has(path)) files.set(path, fetch(new URL(path, here)).then((r) => (r.ok ? r.json() : {})).catch(() => ({})));
        f.path = path;
      }
      const counts = {};
      for (const f of found) {
        const item = document.createElement("li");
        let lines = ["not audited: " + (f.problem === null ? "no audit data for this text" : pageWording(f.problem))];
        let verdict = f.verdict || "unresolved";
        if (f.version !== null) {
          const run = linker.runOf(f, await files.get(f.path));
          if (run !== null) [verdict, lines] = [run[3], run[4]];
        }
        counts[verdict] = (counts[verdict] || 0) + 1;
        const when = f.dated === null ? "" : ", as of " + f.dated + " (" + byDate[f.datedBy] +
          (f.version !== null ? "; " + f.game + " " + f.lang + " " + f.version : "") + ")";
        const head = document.createElement("strong");
        head.textContent = f.line + ":" + f.column + " " + f.cited + (f.cited.includes(f.number) ? "" : " [" + f.number + "]") + when;
        item.appendChild(head);
        item.dataset.verdict = verdict;
        item.dataset.number = f.number;
        for (const line of lines) {
          const div = document.createElement("div");
          div.textContent = line;
          item.appendChild(div);
        }
        out.appendChild(item);
      }
      field("link-status").textContent = found.length + " citations: " +
        Object.entries(counts).map(([k, n]) => n + " " + k).join(", ");
      out.dataset.done = "true";
    }
    field("link-audit").addEventListener("click", runAudit);
    field("link-copy").addEventListener("click", function () {
      if (navigator.clipboard) navigator.clipboard.writeText(field("link-output").value);
    });
    form.dataset.ready = "true";
  }

  Promise.all([loadScript("link-grammar.js"), loadScript("refs.js"), loadScript("link-data.js")]).then(function () {
    const linker = makeLinker(window.RULES_KB_LINK_GRAMMAR, window.RULES_KB_LINK_DATA);
    window.rulesKbLinker = linker;
    setUp(linker);
  }).catch(function (error) {
    const status = document.getElementById("link-status");
    if (status !== null) status.textContent = "Error: " + error.message;
  });
})();
