// rules-kb: the interface in Japanese on the home page and the Duel Masters pages.
//
// Most Duel Masters readers read Japanese first. The pages are built once, in English, so that
// a reader without JavaScript and every test read the same HTML; here the interface's words
// (labels, buttons, notices' titles, dates) are put into Japanese when the browser prefers
// Japanese (navigator.languages) or the reader chose it with the header's switch (kept in
// localStorage). Rule texts, examples, titles and diffs are source text and never touched.
// Magic pages stay English. Prose that a table cannot translate comes in both languages in
// the HTML (.rk-ui-ja / .rk-ui-en) and one of the two is shown.
(function () {
  "use strict";

  const here = document.currentScript ? document.currentScript.src : null;
  if (!here) return;
  const root = new URL("../", here).href;
  const place = window.location.href.slice(root.length);
  const home = place === "" || /^(index\.html)?([?#].*)?$/.test(place);
  if (!home && place.indexOf("dm/") !== 0) return;

  const KEY = "rk-interface";
  const WORDS = {
    "Search": "検索", "Home": "ホーム", "Duel Masters": "デュエル・マスターズ", "Magic": "マジック",
    "How to cite": "引用のしかた", "Link a note": "メモのリンク", "JSON API": "JSON API",
    "copy rule link": "ルールのリンクをコピー", "copy pinned link": "この版のリンクをコピー",
    "Duel Masters: all versions": "デュエル・マスターズ: すべての版", "all versions": "すべての版",
    "The languages do not say the same rule here": "日本語と英語でこのルールの内容が異なります",
    "Cites": "引用しているルール", "Cited by": "引用されている箇所", "nothing in the corpus cites it": "引用している箇所はありません",
    "Analogue in the other game": "もう一方のゲームの対応ルール", "Renumbering trail": "番号の変遷",
    "Change notices and commentary": "変更告知と解説", "English": "英語",
    "partial": "部分", "complete": "完全", "change notice": "変更告知", "excerpt": "抜粋",
    "mentioned only": "言及のみ", "contents only": "目次のみ", "complete rulebook": "ルールブック全体",
    "commentary": "解説", "rulings": "裁定", "date": "日付", "kind": "種類", "lang": "言語", "version": "版",
    "rules": "ルール数", "complete?": "完全?", "cut off in its source document": "出典の文書で途中までしかありません",
    "compare any two versions": "任意の2つの版を比較", "translation drift": "翻訳のずれ",
    "editorial": "表現のみ", "substantive": "内容の変更", "added": "追加", "removed": "削除",
    "renumbered": "番号変更", "moved": "移動", "split": "分割", "unchanged": "変更なし",
    "hide editorial changes": "表現のみの変更を隠す", "what's new": "新着",
    "Duel Masters: timeline": "デュエル・マスターズ: 年表", "Atom feed of releases": "改定の Atom フィード",
    "change notices and commentary": "変更告知と解説",
    "Every version the corpus knows of, oldest first. Partial versions (excerpts, change notices) say nothing about the rules they do not print.":
      "コーパスにあるすべての版(古い順)。部分的な版(抜粋、変更告知)は、載せていないルールについて何も述べていません。",
  };
  const KIND = function (kind) { return WORDS[kind] || kind; };
  const PATTERNS = [
    [/^\((\d+) notes?\)$/, function (m) { return "（注記 " + m[1] + " 件）"; }],
    [/^older versions \((\d+)\)$/, function (m) { return "以前の版（" + m[1] + "）"; }],
    [/^changes from (.+) \((\w+)\)$/, function (m) { return m[1] + " からの変更（" + KIND(m[2]) + "）"; }],
    [/^(.+)からの変更 \((\w+)\)$/, function (m) { return m[1] + " からの変更（" + KIND(m[2]) + "）"; }],
    [/^Duel Masters (.+)$/, function (m) { return "デュエル・マスターズ " + m[1]; }],
    [/^compare (\S+)\.\.(\S+) \(newest\)$/, function (m) { return m[1] + " と最新の " + m[2] + " を比較"; }],
    [/^what's new in (\w+) (.+)$/, function (m) { return m[2] + " の新着(" + m[1] + ")"; }],
    [/^diff page (\S+)$/, function (m) { return "差分ページ " + m[1]; }],
    [/^the story of (\d+)$/, function (m) { return m[1] + " の経緯"; }],
    [/^search: (.+)$/, function (m) { return "検索: " + m[1]; }],
    [/^as printed \((.+)\)$/, function (m) { return "印刷どおり（" + m[1] + "）"; }],
    [/^contents \((.+)\)$/, function (m) { return "目次（" + m[1] + "）"; }],
    [/^read it from the start \(a page per chapter, printable\)$/, function () { return "最初から読む（章ごと、印刷可）"; }],
    [/^this version's permalink: (.+)$/, function (m) { return "この版の固定リンク: " + m[1]; }],
  ];
  const DATE = /(\d{4})-(\d{2})-(\d{2})/g;
  const SOURCE = ".rk-text, .rk-example, .rk-title, .rk-diff, .rk-snippet, code, pre, script, style, .rk-ui-switch";
  const original = new WeakMap();  // text node → its English

  function japanese(text, dated) {
    const trimmed = text.trim();
    if (!trimmed) return text;
    let out = WORDS[trimmed];
    for (let i = 0; out === undefined && i < PATTERNS.length; i++) {
      const m = PATTERNS[i][0].exec(trimmed);
      if (m) out = PATTERNS[i][1](m);
    }
    if (out === undefined && dated) {
      out = trimmed.replace(DATE, function (_, y, mo, d) { return y + "年" + Number(mo) + "月" + Number(d) + "日"; });
    }
    return out === undefined ? text : text.replace(trimmed, out);
  }

  function apply(language) {
    document.documentElement.lang = language === "ja" ? "ja" : "en";
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const parent = node.parentElement;
      if (!parent || parent.closest(SOURCE)) continue;
      if (!original.has(node)) original.set(node, node.nodeValue);
      const english = original.get(node);
      node.nodeValue = language === "ja" ? japanese(english, !!parent.closest(".rk-date")) : english;
    }
    document.querySelectorAll(".rk-ui-ja").forEach(function (e) { e.hidden = language !== "ja"; });
    document.querySelectorAll(".rk-ui-en").forEach(function (e) { e.hidden = language === "ja"; });
    if (toggle) {
      toggle.textContent = language === "ja" ? "English" : "日本語";
      toggle.setAttribute("lang", language === "ja" ? "en" : "ja");
      toggle.title = language === "ja" ? "Show the interface in English" : "表示を日本語にする";
    }
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
  document.addEventListener("rk-copy-buttons", function () { apply(current); });
})();
