// rules-kb: an older release's chapter page, drawn in the browser from the version's JSON.
//
// Static HTML of every chapter of every Magic release was a third of the site's bytes; the
// same texts are already in /api/{game}/{lang}/{version}.json (a keyframe, or a delta over
// one). The page (rules_kb/render/version_pages.py) carries the version's JSON address and
// its chapter; this script fetches the JSON, overlays a delta on its keyframe, and writes the
// chapter's rules with the markup of a static chapter page (ids = rule numbers, section anchors
// s507), citations linked by the shared grammar (refs.js). Source text only ever enters the
// page as text nodes. Then the address's #rule is shown and marked as the static pages do.
//
// An older glossary page (rules_kb/render/glossary_pages.py, data-kind="glossary") is drawn the
// same way from /api/{game}/{lang}/glossary/{version}.json: its definitions come as segments of
// text and links, so they too enter the page as text nodes only.
(function () {
  "use strict";

  const reader = document.querySelector(".rk-reader[data-api]");
  if (!reader) return;
  const root = new URL(reader.dataset.root, window.location.href);
  const at = (path) => new URL(path.replace(/^\//, ""), root).href;

  function load(url) {
    // XHR rather than fetch: it also reads a site opened from a folder (file://) in browsers that allow it.
    return new Promise(function (resolve, reject) {
      const request = new XMLHttpRequest();
      request.open("GET", url);
      request.onload = function () {
        if (request.status === 200 || (request.status === 0 && request.responseText)) {
          try { resolve(JSON.parse(request.responseText)); } catch (error) { reject(error); }
        } else {
          reject(new Error(url + ": HTTP " + request.status));
        }
      };
      request.onerror = function () { reject(new Error("cannot load " + url)); };
      request.send();
    });
  }

  function wholeVersion(record) {
    if (!record.base_api) return Promise.resolve(record.rules);
    return load(at(record.base_api)).then(function (base) {
      const removed = new Set(record.removed);
      const rules = {};
      for (const [n, rule] of Object.entries(base.rules)) if (!removed.has(n)) rules[n] = rule;
      return Object.assign(rules, record.rules);
    });
  }

  function node(tag, className, text) {
    const element = document.createElement(tag);
    if (className) element.className = className;
    if (text !== undefined) element.textContent = text;
    return element;
  }

  function citedText(parent, text, R, here, game) {
    let position = 0;
    for (const reference of R.findReferences(text, game)) {
      parent.appendChild(document.createTextNode(text.slice(position, reference.start)));
      const first = R.show(reference.numbers[0]);
      const link = node("a", "rk-cite", text.slice(reference.start, reference.end));
      if (here.has(first)) {
        link.href = "../" + Math.floor(reference.numbers[0].section / 100) + "/#" + first;
      } else {
        link.href = reader.dataset.rules + first + "/";
        link.className = "rk-cite rk-other";
        link.title = first + " is not in " + reader.dataset.lang + " " + reader.dataset.version
          + "; it may exist in other versions";
      }
      parent.appendChild(link);
      position = reference.end;
    }
    parent.appendChild(document.createTextNode(text.slice(position)));
  }

  function draw(rules, R) {
    const chapter = Number(reader.dataset.chapter);
    const game = reader.dataset.game;
    const here = new Set(Object.keys(rules));
    const numbers = Object.keys(rules).map((n) => [R.parseNumber(n), n])
      .filter(([parsed]) => Math.floor(parsed.section / 100) === chapter)
      .sort((a, b) => R.compare(a[0], b[0]));
    const out = document.createDocumentFragment();
    let section = null;
    for (const [parsed, n] of numbers) {
      if (parsed.section !== section) {
        section = parsed.section;
        const anchor = node("span", "rk-anchor");
        anchor.id = "s" + String(section).padStart(3, "0");
        out.appendChild(anchor);
      }
      const rule = rules[n];
      const block = node("div", "rk-rule");
      block.id = n;
      const head = node("div", "rk-head");
      const number = node("a", "rk-num", n);
      number.href = reader.dataset.rules + n + "/";
      head.appendChild(number);
      if (rule.title) {
        head.appendChild(document.createTextNode(" "));
        head.appendChild(node("span", "rk-title", rule.title));
      }
      block.appendChild(head);
      if (rule.text) {
        const text = node("div", "rk-text");
        citedText(text, rule.text, R, here, game);
        block.appendChild(text);
      }
      for (const example of rule.examples) {
        const box = node("div", "rk-example");
        box.appendChild(node("span", "rk-example-label", reader.dataset.example));
        citedText(box, example, R, here, game);
        block.appendChild(box);
      }
      out.appendChild(block);
    }
    reader.replaceChildren(out);
    shown("rk-chapter-drawn");
  }

  function wholeGlossary(record) {
    if (!record.base_api) return Promise.resolve(record);
    return load(at(record.base_api)).then(function (base) {
      return Object.assign({}, record, { entries: Object.assign({}, base.entries, record.entries) });
    });
  }

  function drawGlossary(record) {
    const list = node("dl", "rk-glossary");
    list.lang = reader.dataset.lang;
    for (const key of record.order) {
      const entry = record.entries[key];
      const term = node("dt");
      term.id = entry.id;
      const name = node("a", "rk-term", entry.term);
      name.href = entry.href;
      term.appendChild(name);
      const definition = node("dd");
      for (const [text, href, kind] of entry.definition) {
        if (href) {
          const link = node("a", kind, text);
          link.href = href;
          definition.appendChild(link);
        } else {
          definition.appendChild(document.createTextNode(text));
        }
      }
      list.append(term, definition);
    }
    reader.replaceChildren(list);
    shown("rk-glossary-drawn");
  }

  function shown(eventName) {
    reader.dataset.ready = "true";
    document.dispatchEvent(new CustomEvent(eventName));
    const wanted = decodeURIComponent(window.location.hash.slice(1));
    if (wanted && document.getElementById(wanted)) {
      // The target did not exist when the address was read: replacing the fragment makes it :target.
      const hash = window.location.hash;
      window.location.replace("#");
      window.location.replace(hash);
    }
  }

  const drawn = reader.dataset.kind === "glossary"
    ? load(at(reader.dataset.api)).then(wholeGlossary).then(drawGlossary)
    : load(at(reader.dataset.api))
      .then(function (record) { return wholeVersion(record); })
      .then(function (rules) { draw(rules, window.RULES_KB_REFS(window.RULES_KB_LINK_GRAMMAR)); });
  drawn.catch(function (error) {
    reader.replaceChildren(node("p", "rk-reader-error",
      "This text could not be loaded (" + error.message + "); it is in " + reader.dataset.api));
    reader.dataset.ready = "error";
  });
})();
