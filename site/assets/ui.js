// rules-kb: the interface in Japanese, on every page that is not Magic's alone.
//
// Pages are built once, in English, so that a reader without JavaScript and every test read the
// same HTML; here the interface's words (labels, buttons, notices, dates, the search's and the
// link page's messages) are put into Japanese when the browser prefers Japanese
// (navigator.languages) or the reader chose it with the header's switch (kept in localStorage).
// The words come from one table, rules_kb/render/interface.py, written by the build as
// assets/interface.js (window.rulesKbInterface): nothing is spelt twice. Source text (rule texts,
// examples, titles, diffs, snippets) and whatever a page marks translate="no" are never touched.
// Text a page script adds later (search results, the link page's output) is put into Japanese as
// it arrives. Prose that a table cannot translate comes in both languages in the HTML
// (.rk-ui-ja / .rk-ui-en) and one of the two is shown.
(function () {
  "use strict";

  const table = window.rulesKbInterface;
  const here = document.currentScript ? document.currentScript.src : null;
  if (!here || !table) return;
  const root = new URL("../", here).href;
  const place = window.location.href.slice(root.length);
  if (table.englishOnly.some(function (folder) { return place.indexOf(folder) === 0; })) return;

  const KEY = "rk-interface";
  const WORDS = table.words;
  const PATTERNS = table.patterns.map(function (p) { return [new RegExp(p[0]), p[1]]; });
  // A date standing alone: inside a name ("dm-notice-2016-09-13", "before-2023-09-14") it is part of the name.
  const DATE = /(?<![\w-])(\d{4})-(\d{2})-(\d{2})(?![\w-])/g;
  const ATTRIBUTES = ["title", "aria-label", "placeholder"];
  const original = new WeakMap();  // text node → its English
  const originalUnits = new WeakMap();  // phrase element → its English child nodes
  const originalAttributes = new WeakMap();  // element → {attribute: its English}

  function date(text) {
    return text.replace(DATE, function (_, y, mo, d) { return y + "年" + Number(mo) + "月" + Number(d) + "日"; });
  }
  function word(text) { return text === undefined ? "" : (WORDS[text] === undefined ? text : WORDS[text]); }
  // A template's value: as it is, a word of the table, a date, a list of words ("a, b"), or a text of its own.
  const HOW = {
    word: word,
    date: date,
    words: function (value) { return value.split(", ").map(function (part) { return phrase(part) || part; }).join("、"); },
    text: function (value) { return phrase(value) || value; },
  };
  function fill(template, m) {
    return template.replace(/\{(\d+)(?::(\w+))?\}/g, function (_, i, how) {
      const value = m[Number(i)];
      if (value === undefined) return "";
      return how ? HOW[how](value) : value;
    }).trim();
  }

  // The Japanese of a whole interface text (a word, a pattern, or a list of them), or undefined.
  function phrase(trimmed) {
    let out = WORDS[trimmed];
    for (let i = 0; out === undefined && i < PATTERNS.length; i++) {
      const m = PATTERNS[i][0].exec(trimmed);
      if (m) out = fill(PATTERNS[i][1], m);
    }
    if (out === undefined && trimmed.indexOf(", ") > 0) {
      const parts = trimmed.split(", ").map(function (part) { return WORDS[part] === undefined ? phrase(part) : WORDS[part]; });
      if (parts.every(function (part) { return part !== undefined; })) out = parts.join("、");
    }
    return out;
  }

  function japanese(text, dated) {
    const trimmed = text.trim();
    if (!trimmed) return text;
    let out = phrase(trimmed);
    if (out === undefined && dated) out = date(trimmed);
    return out === undefined ? text : text.replace(trimmed, out);
  }

  function translateText(node, language) {
    const parent = node.parentElement;
    if (!parent || parent.closest(table.source)) return;
    if (!original.has(node)) original.set(node, node.nodeValue);
    const english = original.get(node);
    const shown = language === "ja" ? japanese(english, !!parent.closest(".rk-date, .rk-nw")) : english;
    if (node.nodeValue !== shown) node.nodeValue = shown;
  }

  function translateAttributes(element, language) {
    if (element.closest(table.source)) return;
    ATTRIBUTES.forEach(function (name) {
      if (!element.hasAttribute(name)) return;
      const kept = originalAttributes.get(element) || {};
      if (!(name in kept)) kept[name] = element.getAttribute(name);
      originalAttributes.set(element, kept);
      const shown = language === "ja" ? japanese(kept[name], false) : kept[name];
      if (element.getAttribute(name) !== shown) element.setAttribute(name, shown);
    });
  }

  // A phrase whose dates are kept whole (.rk-nw spans, html.dated_html) is several text nodes:
  // "2025-12-17" and " · against 1.38 ·". An element holding only such text and spans is put into
  // Japanese as one text, as the table has it; untranslated, its nodes are translated one by one.
  function isPhrase(element) {
    return !element.closest(table.source) && Array.from(element.childNodes).every(function (child) {
      return child.nodeType === Node.TEXT_NODE
        || (child.nodeType === Node.ELEMENT_NODE && child.classList.contains("rk-nw") && child.children.length === 0);
    });
  }
  function translatePhrase(element, language) {
    if (!originalUnits.has(element)) originalUnits.set(element, Array.from(element.childNodes));
    const nodes = originalUnits.get(element);
    const english = nodes.map(function (node) { return node.textContent; }).join("");
    const out = language === "ja" ? phrase(english.trim()) : undefined;
    const current = Array.from(element.childNodes);
    if (out === undefined) {
      if (current.length !== nodes.length || current.some(function (node, i) { return node !== nodes[i]; })) {
        element.replaceChildren.apply(element, nodes);
      }
      return;
    }
    const shown = english.replace(english.trim(), out);
    if (element.textContent !== shown) element.replaceChildren(document.createTextNode(shown));
  }
  const phrases = new Set();  // every phrase element met (put into Japanese, its spans are gone)
  function translatePhrases(top, language) {
    top.querySelectorAll(".rk-nw").forEach(function (span) {
      const parent = span.parentElement;
      if (parent && !phrases.has(parent) && isPhrase(parent)) phrases.add(parent);
    });
    phrases.forEach(function (element) { if (top.contains(element)) translatePhrase(element, language); });
  }

  function translate(top, language) {
    if (top.nodeType === Node.TEXT_NODE) { translateText(top, language); return; }
    if (top.nodeType !== Node.ELEMENT_NODE) return;
    translatePhrases(top, language);
    const walker = document.createTreeWalker(top, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) translateText(node, language);
    translateAttributes(top, language);
    top.querySelectorAll("[title], [aria-label], [placeholder]").forEach(function (e) { translateAttributes(e, language); });
  }

  function apply(language) {
    document.documentElement.lang = language === "ja" ? "ja" : "en";
    translate(document.body, language);
    document.querySelectorAll(".rk-ui-ja").forEach(function (e) { e.hidden = language !== "ja"; });
    document.querySelectorAll(".rk-ui-en").forEach(function (e) { e.hidden = language === "ja"; });
    const leads = table.switch[language === "ja" ? "ja" : "en"];  // to the other language
    toggle.textContent = leads.label;
    toggle.setAttribute("lang", leads.lang);
    toggle.title = leads.title;
  }

  function preferred() {
    let chosen = null;
    try { chosen = window.localStorage.getItem(KEY); } catch { /* storage off */ }
    if (chosen === "ja" || chosen === "en") return chosen;
    const languages = navigator.languages && navigator.languages.length ? navigator.languages : [navigator.language || "en"];
    return /^ja\b/i.test(languages[0]) ? "ja" : "en";
  }

  const toggle = document.createElement("button");
  toggle.type = "button";
  toggle.className = "rk-ui-switch";
  const header = document.querySelector(".md-header__inner");
  if (header) header.appendChild(toggle);
  let current = preferred();
  toggle.addEventListener("click", function () {
    current = current === "ja" ? "en" : "ja";
    try { window.localStorage.setItem(KEY, current); } catch { /* storage off: this page only */ }
    apply(current);
  });
  apply(current);
  // What a page's script adds afterwards (results, messages, a chapter drawn from JSON), as it arrives.
  new MutationObserver(function (records) {
    if (current !== "ja") return;
    records.forEach(function (record) {
      record.addedNodes.forEach(function (node) { translate(node, current); });
    });
  }).observe(document.body, { childList: true, subtree: true });
})();
