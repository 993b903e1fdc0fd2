"""The site's interface in Japanese: one table, written once, for the page generators and ``ui.js``.

Pages are built once, in English, so a reader without JavaScript and every test read the same
HTML. For a Japanese reader ``site/assets/ui.js`` puts the interface's words into Japanese in the
browser, from this table, which the build writes as ``assets/interface.js``; a generator that
needs both languages in its HTML (a Japanese document's pages) takes them from ``LABELS`` here.
Source text (rule texts, examples, titles, diffs, snippets) and anything marked
``translate="no"`` (identifiers, curated English prose, a language's own name) is never touched.

``WORDS`` are whole interface strings. ``PATTERNS`` are sentences with values in them: a regular
expression written so that Python and JavaScript read it alike, and a Japanese template where
``{1}`` is a group as it is, ``{1:word}`` a group looked up in ``WORDS``, ``{1:words}`` a list
("a, b") of them, ``{1:text}`` a group translated as a text of its own and ``{1:date}`` a date
written the Japanese way. The first pattern that matches wins: the specific ones come first.
"""

from __future__ import annotations

from pathlib import Path

from rules_kb.assemble.knowledge import Knowledge
from rules_kb.files import replace_file
from rules_kb.visible import people_json

SCRIPT = "assets/interface.js"
# What the interface never translates: source text, and what a page marks as not for translation.
SOURCE = (".rk-text, .rk-example, .rk-title, .rk-diff, .rk-snippet, .rk-excerpt, blockquote, code, pre, script, style, "
          ".rk-ui-switch, [translate=no]")
# Folders whose every page is about Magic alone, whose sources are English: their interface stays English.
ENGLISH_ONLY = ("mtg/",)

# Interface texts of more than a few words, kept apart so the table reads.
_TIMELINE = ("Every version the corpus knows of, newest first. Partial versions (excerpts, change notices) say "
             "nothing about the rules they do not print.")
_COMPARE = ("Choose any two versions: they are compared as rules-kb diff compares them, rule by rule. "
            "A renumbered rule is shown moved, with the words that changed; a rule whose sentences went to "
            "several rules is shown split; between two whole rulebooks each rule is followed release by "
            "release. Each change is named (editorial, substantive, a renumbered reference) and marked word "
            "by word. The rules field takes a chapter (5), a section (509) or a rule (509.1a). The address "
            "keeps the choice, so it can be pasted into a note.")
_DRIFT = ("Where a translation's version label claims one thing and its text says another: an English text "
          "labelled with a recent version that still states the rules as they were before a change, or the two "
          "languages of one version that differ in structure. Each row links both texts (pinned to their "
          "versions) and the rule page.")
_STORY = ("Old and new texts that say the same rule across the rewrite, each with the evidence for the pairing "
          "(curated by hand).")

WORDS: dict[str, str] = {
    # the header, the nav, the buttons every rule carries
    "Search": "検索", "Home": "ホーム", "Duel Masters": "デュエル・マスターズ", "Magic": "マジック",
    "Magic: The Gathering": "マジック:ザ・ギャザリング", "Skip to content": "本文へ移動",
    "How to cite": "引用のしかた", "Link a note": "メモのリンク", "JSON API": "JSON API",
    "Search the rules": "ルールを検索", "Search the rules / ルールを検索": "ルールを検索",
    "Search the site": "サイト内を検索",
    "Link a judge note": "ジャッジのメモをリンクする", "How to cite a rule": "ルールの引用のしかた",
    "copy rule link": "ルールのリンクをコピー", "copy pinned link": "この版のリンクをコピー",
    "copy this version's permalink": "この版の固定リンクをコピー",
    "copy the version-independent permalink": "版によらない固定リンクをコピー",
    "English": "英語", "Japanese": "日本語", "en": "英語", "ja": "日本語",
    # rule pages
    "Duel Masters: all versions": "デュエル・マスターズ: すべての版", "all versions": "すべての版",
    "The languages do not say the same rule here": "日本語と英語でこのルールの内容が異なります",
    "Cites": "引用しているルール", "Cited by": "引用されている箇所",
    "nothing in the corpus cites it": "引用している箇所はありません",
    "Analogue in the other game": "もう一方のゲームの対応ルール", "Renumbering trail": "番号の変遷",
    "Change notices and commentary": "変更告知と解説", "Neighbourhood": "周辺のルール",
    "cites": "引用", "cited by": "被引用", "unresolved: no such rule in the corpus": "未解決: コーパスにないルール",
    "Cited by tournament documents": "この規則を引用している大会文書",
    # versions, kinds, timelines
    "partial": "部分", "complete": "完全", "change notice": "変更告知", "excerpt": "抜粋",
    "mentioned only": "言及のみ", "contents only": "目次のみ", "complete rulebook": "ルールブック全体",
    "dated paragraphs": "日付つきの段落", "commentary": "解説", "rulings": "裁定",
    "date": "日付", "kind": "種類", "lang": "言語", "version": "版",
    "rules": "ルール", "complete?": "完全?", "cut off in its source document": "出典の文書で途中までしかありません",
    "compare any two versions": "任意の2つの版を比較", "translation drift": "翻訳のずれ",
    "changed in substance": "内容の変更", "editorial only": "表現のみ",
    "a cited rule renumbered only": "参照番号のみ変更",
    "no change.": "変更なし。", "Each is listed below.": "すべて下に挙げます。",
    "No rule changed in substance, was added, removed, split or moved.":
        "内容の変更・追加・削除・分割・移動のあったルールはありません。",
    "Added": "追加", "Removed": "削除", "Split": "分割", "Moved (renumbered)": "移動（番号変更）",
    "The rules it prints": "掲載しているルール", "same words": "同じ文言", "editorial changes": "表現のみの変更",
    "a cited rule renumbered": "引用先の番号のみ変更", "its words changed in substance": "文言の内容が変更",
    "cited by earlier texts only": "以前の文言だけが引用", "cited in earlier versions only": "以前の版だけが引用",
    "editorial": "表現のみ", "substantive": "内容の変更", "added": "追加", "removed": "削除",
    "renumbered": "番号変更", "moved": "移動", "split": "分割", "unchanged": "変更なし",
    "renumbered-reference": "参照番号のみ変更", "changed": "変更", "no change": "変更なし",
    "hide editorial changes": "表現のみの変更を隠す", "what's new": "新着",
    "Duel Masters: timeline": "デュエル・マスターズ: 年表", "Atom feed of releases": "改定の Atom フィード",
    "change notices and commentary": "変更告知と解説", _TIMELINE:
        "コーパスにあるすべての版(新しい順)。部分的な版(抜粋、変更告知)は、載せていないルールについて何も述べていません。",
    "document": "文書", "rules printed": "掲載ルール数", "source": "出典",
    # diff pages, what's new, compare
    "compare in the browser": "ブラウザで比較", "Changed chapters": "変更のあった章", "every change": "すべての変更",
    "Atom feed": "Atom フィード", "diff": "差分", "every version": "すべての版",
    "Nothing changed in substance.": "内容の変更はありません。", "nothing changed": "変更なし",
    "no rules in common": "共通のルールなし", "undated": "日付なし", "same": "同じ",
    "partial version: a rule absent here is unknown, not removed":
        "部分的な版: ここにないルールは不明で、削除ではありません",
    "[paired by hand]": "［手作業で対応づけ］",
    "[one side is cut off in its source: compared on the common part]": "［片方は出典で途中まで: 共通部分で比較］",
    "Duel Masters: compare any two versions": "デュエル・マスターズ: 任意の2つの版を比較",
    _COMPARE: "任意の2つの版を選んでください。rules-kb diff と同じ方法で、ルールごとに比較します。"
              "番号の変わったルールは移動として、変わった語句とともに示します。文が複数のルールに分かれたルールは分割として示します。"
              "2つの完全な版の間では、各ルールをリリースごとにたどります。変更にはそれぞれ種類(表現のみ、内容の変更、"
              "参照先の番号変更)を付け、語句ごとに示します。ルール欄には章(5)、節(509)、ルール(509.1a)を"
              "入力できます。アドレスに選択が残るので、メモに貼り付けられます。",
    "This pair also has a diff page, chapter by chapter:": "この2つの版には章ごとの差分ページもあります:",
    "509 or 509.1": "509 または 509.1",
    # the search page's field: its English example query gives way to a second Japanese one
    "ブロックした, declare blockers, 507.2a, cites:603.2e": "ブロックした, 攻撃クリーチャー, 507.2a, cites:603.2e",
    # the kinds of editorial change (rules_kb/compare/editorial.py), named in the compare page's notes,
    "width": "全角・半角", "punctuation": "句読点", "quotes": "引用符", "case": "大文字・小文字",
    "contraction": "短縮形", "hyphenation": "ハイフン", "spelling": "表記", "typo": "誤字",
    "relative-pronoun": "関係代名詞", "whitespace": "空白",
    # and those judged on the whole English text (rules_kb/compare/rewording.py)
    "dash": "ダッシュ", "pronoun": "代名詞", "numeral": "数の表記", "list-order": "列挙の順序",
    "wording": "言い回し",  # "commentary" is above: the word names both
    "every changed chapter": "変更のあったすべての章",  # a diff page's chapter leads back (render/diff_pages.py)
    "language": "言語", "old": "旧", "new": "新", "compare": "比較",
    "copy link to this comparison": "この比較のリンクをコピー",
    "choose two versions": "2つの版を選んでください",
    "This pair also has a diff page, with renumbered rules aligned and editorial changes marked:":
        "この組み合わせには差分ページもあります(番号の変わったルールを対応づけ、表現のみの変更に印つき):",
    "The comparison runs in the browser and needs JavaScript; rules-kb diff compares any two versions on the "
    "command line.": "比較はブラウザの中で動くため JavaScript が必要です。"
                     "コマンドラインでは rules-kb diff で任意の2つの版を比較できます。",
    # drift
    "Duel Masters: translation drift": "デュエル・マスターズ: 翻訳のずれ", _DRIFT:
        "翻訳の版ラベルが示すことと本文が述べることの食い違い: "
        "新しい版のラベルがついていながら改定前のルールを述べている英文や、"
        "同じ版の2つの言語で構成が違うもの。各行は両方の文(版を固定)とルールのページにリンクしています。",
    "rule": "ルール", "what": "内容", "curated correspondence": "手作業の対応づけ",
    "translation lag (explain)": "翻訳の遅れ", "structure differs (graph)": "構成の違い(グラフ)",
    # story pages
    "timeline": "年表", "Change notices": "変更告知", "Before and after": "改定の前と後",
    "before": "改定前", "after": "改定後", "what it means": "意味", "Translations": "翻訳",
    "Commentary": "解説", "What the corpus does not hold": "コーパスにないもの",
    _STORY: "書き換えの前後で同じルールを述べている新旧の文(手作業で対応づけ、それぞれに根拠つき)。",
    "prints:": "掲載:", "Evidence:": "根拠:",
    # notice pages
    "Entries, in the document's order": "項目(文書の順)", "nothing but page chrome": "ページの飾りのみ",
    "not recorded": "記録なし", "not recorded in the manifest": "マニフェストに記録なし", "none": "なし",
    "URL": "URL", "dates": "日付", "versions": "版", "languages": "言語", "sha256": "sha256", "note": "注記",
    "prose": "本文", "heading": "見出し", "example": "例", "cites:": "引用:",
    # what a notice prints besides rules: its residue's kinds and marks (sources/)
    "table": "表", "meta": "メタ情報", "faq": "よくある質問", "ruling": "裁定", "editions": "版の一覧", "tag": "タグ",
    "ordered": "番号つきの項目", "footnote": "脚注", "header": "ヘッダー", "footer": "フッター",
    "change-marker": "変更の目印", "event-rules": "大会ルール",
    # how the audit dated a citation (link.js), and what it says of one it could not audit
    "its version": "その版", "its entry's tag": "項目のタグ", "As of": "指定日", "unresolved": "未解決",
    "no audit data for this text": "この文の照合データはありません",
    "Duel Masters: all versions and notices": "デュエル・マスターズ: すべての版と告知",
    # search
    "every game": "すべてのゲーム", "every language": "すべての言語", "Game": "ゲーム", "Language": "言語",
    "Results": "結果", "more results": "さらに表示", "nothing found": "見つかりません",
    # the link page
    "Note": "メモ", "Format": "形式", "Pin version": "版を固定", "or as of": "または日付", "Base URL": "ベース URL",
    "Link": "リンク", "Copy result": "結果をコピー", "Audit against today's rules": "今日のルールと照合",
    "Linked note": "リンクしたメモ", "from each reference's tag": "各参照のタグから",
    "Plain text (footnotes)": "プレーンテキスト(脚注)",
    # tournament documents
    "Contents": "目次", "Versions": "版", "Penalty": "ペナルティ",
    # the 404 page
    "404 - Not found": "404 - ページが見つかりません",
}

PATTERNS: tuple[tuple[str, str], ...] = (
    # what's new (render/whats_new_pages.py): the counts add up to the total
    (r"^(\d+) changes?(?: against (\S+))?: (.+)\.$", "変更 {1} 件: {3:words}。"),
    (r"^(\d+) (changed in substance|editorial only|a cited rule renumbered only)$", "{2:word} {1}"),
    (r"^no rule in common with (\S+)\.?$", "{1} と共通のルールはありません。"),
    (r"^Listed below: the (\d+) that change what a rule says or where it is; the editorial changes and "
     r"renumbered references are on the page of every change\.$",
     "下に挙げるのは、ルールの内容か位置を変える {1} 件です。"
     "表現のみの変更と参照番号のみの変更は「すべての変更」のページにあります。"),
    (r"^(Added|Removed|Split|Moved \(renumbered\)|The rules it prints) \((\d+)\)$", "{1:word}（{2}）"),
    (r"^\((same words|editorial changes|a cited rule renumbered|its words changed in substance)\)$", "（{1:word}）"),
    # rule pages: citations only earlier versions made
    (r"^(cited by earlier texts only|cited in earlier versions only) \((\d+)\)$", "{1:word}（{2}）"),
    (r"^\(until (en|ja) (\S+)\)$", "（{1:word} {2} まで）"),
    (r"^\((en|ja) (\S+)\)$", "（{1:word} {2}）"),
    (r"^\((\d+) notes?\)$", "（注記 {1} 件）"),
    (r"^older versions \((\d+)\)$", "以前の版（{1}）"),
    (r"^changes from (.+) \(([\w-]+)\)$", "{1} からの変更（{2:word}）"),
    (r"^(.+)からの変更 \(([\w-]+)\)$", "{1} からの変更（{2:word}）"),
    (r"^(.+): what's new$", "{1:text}: 新着"),
    (r"^Magic: The Gathering (\S+)$", "マジック:ザ・ギャザリング {1}"),
    (r"^compare (\S+)\.\.(\S+) \(newest\)$", "{1} と最新の {2} を比較"),
    (r"^what's new in (\w+) (.+)$", "{2} の新着({1:word})"),
    (r"^diff page (\S+)$", "差分ページ {1}"),
    (r"^the story of (\d+)$", "{1} の経緯"),
    (r"^search: (.+)$", "検索: {1}"),
    (r"^as printed \((.+)\)$", "印刷どおり（{1}）"),
    (r"^contents \((.+)\)$", "目次（{1}）"),
    (r"^contents of (\S+)$", "{1} の目次"),
    (r"^glossary of (\S+)$", "{1} の用語集"),
    (r"^read it from the start \(a page per chapter, printable\)$", "最初から読む（章ごと、印刷可）"),
    (r"^this version's permalink: (.+)$", "この版の固定リンク: {1}"),
    (r"^(\d{4}-\d{2}-\d{2}), ([^;]+); from ([^;]+); (\d+) (?:rules|ルール数)$",
     "{1:date}、{2:words}。出典 {3}。{4} ルール"),
    (r"^(\d{4}-\d{2}-\d{2}), ([^;]+); from ([^;]+)$", "{1:date}、{2:words}。出典 {3}"),
    (r"^(\d+) (editorial|substantive|unchanged|added|removed|moved|split|renumbered|renumbered-reference|changed|"
     r"unresolved|undated)$",
     "{2:word} {1}"),
    (r"^: (.+)$", ": {1:text}"),
    # the neighbourhood (render/neighbourhood.py)
    (r"^(\d\S*): parent, siblings, children and citations$", "{1}: 親、兄弟、子と引用"),
    (r"^… (\d+) more$", "… ほか {1} 件"),
    # a language's rule in one version: "日本語 507.2a (2021-09-07)"
    (r"^(English|日本語) (\S+) \((\S+)\)$", "{1:word} {2} ({3})"),  # a link's words: ASCII brackets
    (r"^\(Magic (.+)\):$", "（マジック {1}）:"),
    (r"^(change notice|commentary)$", "{1:word}"),
    (r"^\((\d{4}-\d{2}-\d{2})\):$", "（{1:date}）:"),
    # rule notices (render/rule_notices.py) and the drift page
    (r"^The (English|日本語) text of (\S+) labelled (\S+) is the rule as it stood before the (\S+) change; "
     r"what it says is now$", "{1:word}の {2}（{3}）は {4:date} の改定前のルールです。その内容は現在"),
    (r"^The (English|日本語) (\S+) \((\S+)\) corresponds to the pre-(\S+)$",
     "{1:word}の {2}（{3}）は、{4:date} の改定前の次のルールに対応します:"),
    (r"^(English|日本語) (\S+) \((\S+)\) is the rule as it stood before the (\S+) change; it corresponds to "
     r"(English|日本語) (\S+) \((\S+)\)\.$",
     "{1:word}の {2}（{3}）は {4:date} の改定前のルールで、{5:word}の {6}（{7}）に対応します。"),
    (r"^(English|Japanese) and (English|Japanese) (\S+) differ in structure:$",
     "{3} の{1:word}と{2:word}は構成が異なります:"),
    (r"^(English|Japanese) and (English|Japanese) (\S+): (.+)$", "{3} の{1:word}と{2:word}: {4:text}"),
    (r"^children differ: only in English (.+); only in Japanese (.+)$",
     "子ルールが異なります: 英語のみ {1:word}、日本語のみ {2:word}"),
    (r"^citations differ: English cites (.+); Japanese cites (.+)$",
     "引用が異なります: 英語は {1:word}、日本語は {2:word} を引用"),
    (r"^(English|Japanese|en|ja) (\S+) \((\S+)\) only retouched (?:English|Japanese|en|ja) (\S+) \((\S+)\) "
     r"across the (.+) change \((\d+) editorial, (\d+) unchanged, nothing of substance\): it still states the "
     r"rules as they were before (\S+)\.$",
     "{1:word} {2}（{3}）は {4}（{5}）から {6:date} の改定をまたいで表現を直しただけです（表現のみ {7}、"
     "変更なし {8}、内容の変更なし）。{9:date} より前のルールのままです。"),
    (r"^(\d+) rules: (\d+) with a curated correspondence, (\d+) with a translation lag \(explain\), (\d+) with a "
     r"structure differs \(graph\) \((\d+) rules have texts in both languages\)\.$",
     "{1} ルール: 手作業の対応づけ {2}、翻訳の遅れ {3}、構成の違い {4}（両方の言語の文があるルールは {5}）。"),
    # diff pages (render/diff_pages.py)
    (r"^\(text ([\w-]+), similarity ([\d.]+)\)$", "（本文: {1:word}、類似度 {2}）"),
    (r"^\(its sentences are now in (.+)\)$", "（その文は現在 {1} にあります）"),
    (r"^(\d+) rules only in (\S+) and (\d+) only in (\S+) are unknown in the other \(a partial version\)$",
     "{2} だけのルール {1} 件と {4} だけのルール {3} 件は、もう一方では不明です(部分的な版)"),
    # what's new (render/whats_new_pages.py)
    (r"^undated · against (\S+) ·$", "日付なし · {1} との比較 ·"),
    (r"^(\S+) · against (\S+) ·$", "{1:date} · {2} との比較 ·"),
    (r"^(\d+) changes? in substance listed below \((.+)\); editorial changes and renumbered references are on "
     r"the diff page\.$",
     "内容の変更 {1} 件を下に示します（{2:words}）。表現のみの変更と参照番号の変更は差分ページにあります。"),
    (r"^(\S+) is a partial version: only the rules both hold are compared$",
     "{1} は部分的な版です: 両方にあるルールだけを比較しています"),
    (r"^Changed in substance \((\d+)\)$", "内容の変更（{1}）"),
    (r"^Added \((\d+)\)$", "追加（{1}）"), (r"^Removed \((\d+)\)$", "削除（{1}）"),
    (r"^Split \((\d+)\)$", "分割（{1}）"),
    (r"^Moved, with a change in substance \((\d+)\)$", "移動と内容の変更（{1}）"),
    # story pages (render/story_pages.py)
    (r"^(.+) (\d+): what changed and what it means$", "{1:word} {2}: 何が変わり、何を意味するか"),
    (r"^every version of (\S+)$", "{1} のすべての版"),
    (r"^\[(\S+), characters (\d+)–(\d+)\]$", "［{1}、{2}–{3} 文字目］"),
    (r"^No Japanese text of (?:rule|section) (\S+) from before the (\S+) change \((.+)\) is in the corpus; "
     r"the older structure survives only in the English translation \((.+)\)\.$",
     "{2:date} の改定より前の {1} の日本語の文はコーパスにありません（{3}）。"
     "古い構成は英訳（{4}）にだけ残っています。"),
    (r"^No Japanese text of (?:rule|section) (\S+) from before the (\S+) change \((.+)\) is in the corpus\.$",
     "{2:date} の改定より前の {1} の日本語の文はコーパスにありません（{3}）。"),
    # notice pages (render/notice_pages.py)
    (r"^(.+) (change notice|rulings|commentary): (\S+) \((.+)\)$", "{1:word} {2:word}: {3}（{4}）"),
    (r"^(.+) (change notice|rulings|commentary): (\S+)$", "{1:word} {2:word}: {3}"),
    (r"^rule text, version (\S+)$", "ルール本文、版 {1}"),
    (r"^(\S+): every version$", "{1}: すべての版"),
    (r"^before: (\S+)$", "前: {1}"),
    (r"^after: (\S+)$", "後: {1}"),
    (r"^as printed here: (\S+)$", "この文書での掲載: {1}"),
    (r"^unresolved: no rule (\S+) in any version of (\w+) in the corpus$",
     "未解決: コーパスのどの版にも {1} はありません"),
    # search (site/assets/search.js)
    (r"^(\d+) results?$", "{1} 件"),
    (r"^was (\S+) until (\S+)$", "{2:date} まで {1}"),
    (r"^also in$", "ほかの版:"),
    (r"^, (\d+) releases$", "、{1} 版"),
    (r"^too common to search for alone: (.+)$", "ありふれていて単独では検索できません: {1}"),
    (r"^nothing found; nearest terms: (.+)$", "見つかりません。近い語: {1}"),
    (r"^did you mean (.+)\? showing it$", "もしかして {1}? その結果を表示"),
    (r"^no text has (.+); showing (.+)$", "{1} を含む文はありません。{2} を表示"),
    (r"^(Duel Masters|Magic) · (.+)$", "{1:word} · {2:word}"),
    # a diff page's editorial note (render/diff_pages.py): the two spellings, then the kind of change
    (r"^editorial: (.+) → (.+) \(([\w-]+)\)$", "表現のみ: {1} → {2}（{3:word}）"),
    (r"^editorial: (.+)$", "表現のみ: {1}"),  # the audit's: each change as `diff` describes it
    # the link page (site/assets/link.js)
    (r"^(\d+) linked, (\d+) left unlinked$", "{1} 件リンク、{2} 件は未リンク"),
    (r"^(\d+) citations?: (.+)$", "引用 {1} 件: {2:words}"),
    # a reference left unlinked: "line:column: what the note says: why" (notes/resolve.py, link.js);
    # the why alone, as the audit's "not audited: why" says it too
    (r"^(\d+):(\d+): (.+?): ((?:no|ambiguous:) .+)$", "{1}:{2}: {3}: {4:text}"),
    (r"^no rule (.+) in (Duel Masters|Magic)$", "{2:word}に {1} はありません"),
    (r"^no rule (.+) in any game$", "どちらのゲームにも {1} はありません"),
    (r"^no rule (\S+) in (Duel Masters|Magic) (\S+)$", "{2:word} {3} に {1} はありません"),
    (r"^ambiguous: (\S+) exists in (Duel Masters|Magic) and (Duel Masters|Magic); "
     r"write DM or MTG before it, or choose the game above$",
     "あいまい: {1} は{2:word}にも{3:word}にもあります。前に DM か MTG と書くか、上でゲームを選んでください"),
    (r"^no (Duel Masters|Magic) rules in the corpus$", "コーパスに{1:word}のルールはありません"),
    (r"^no infraction or section named '(.+)' in the corpus$", "コーパスに「{1}」という違反や節はありません"),
    (r"^ambiguous: '(.+)' names a section of (\d+) documents$", "あいまい: 「{1}」は {2} つの文書の節の名前です"),
    (r"^no section (\S+) in (.+)$", "{2} に節 {1} はありません"),
    (r"^no version of (.+) (\S+) in force on (\S+) in the corpus$", "{3:date} に有効な {1} {2} はコーパスにありません"),
    (r"^no text of (Duel Masters|Magic) rule (\S+) dated on or before (\S+) in the corpus$",
     "コーパスに {3:date} 以前の{1:word}のルール {2} の文はありません"),
    (r"^no (\S+) in the corpus$", "コーパスに {1} はありません"),
    # the audit of a note (link.js, render/audit_text.py): each citation's head, then what became of it
    (r"^(\d+):(\d+) (.+), as of (\S+) \((its version|its entry's tag|As of)\)$",
     "{1}:{2} {3}（{4:date} 時点: {5:word}）"),
    (r"^(\d+):(\d+) (.+), as of (\S+) \((its version|its entry's tag|As of); (\w+) (\w+) (\S+)\)$",
     "{1}:{2} {3}（{4:date} 時点: {5:word}、{6:word} {7:word} {8}）"),
    (r"^not audited: (.+)$", "照合せず: {1:text}"),
    (r"^no date: fill in As of, or tag the entry \[CR YYYY-MM-DD\]$",
     "日付がありません。「または日付」を入れるか、項目に [CR YYYY-MM-DD] のタグを付けてください"),
    (r"^unchanged in (\S+)$", "{1} でも変更なし"),
    (r"^editorial changes only; still (\S+)$", "表現のみの変更。今も {1}"),
    (r"^renumbered to (\S+) \(same words\)$", "{1} に番号変更（同じ文言）"),
    (r"^renumbered to (\S+) \(same words but for editorial changes\)$", "{1} に番号変更（表現のみの違い）"),
    (r"^changed in substance on (.+); now (\S+)$", "{1:date} に内容の変更。今は {2}"),
    (r"^changed in substance on (.+)$", "{1:date} に内容の変更"),
    (r"^split on (\S+): its sentences are in (.+) today$", "{1:date} に分割: その文は今 {2} にあります"),
    (r"^removed on (\S+): no rule of that version continues its text$",
     "{1:date} に削除: その版のどのルールもこの文を引き継いでいません"),
    (r"^only the numbers of cited rules changed: (.+)$", "引用先の番号だけが変わりました: {1}"),
    # compare (site/assets/compare.js)
    (r"^loading (\S+) and (\S+) …$", "{1} と {2} を読み込み中 …"),
    (r"^(.+) \(rules (\S+)\)$", "{1:words}（ルール {2}）"),
    (r"^(.+) — partial$", "{1:text} — 部分的な版"),
    (r"^\(text ([\w-]+), similarity ([\d.]+)\) ·$", "（本文は{1:word}、類似度 {2}） ·"),
    (r"^\(its sentences are now in (.+)\) ·$", "（その文は現在 {1} にあります） ·"),
    (r"^(\S+), effective (\d{4}-\d{2}-\d{2})$", "{1}（{2:date} 発効）"),
    (r"^editorial \(([\w-]+)\): (.+)$", "表現のみ（{1:word}）: {2}"),
    (r"^changed: (.+)$", "変更: {1}"),
    (r"^example \(([\w-]+)\):$", "例（{1:word}）:"),
    (r"^example (added|removed):$", "例（{1:word}）:"),
    (r"^(\d+) rules only in (\S+) are not listed: (\S+) is partial \(an excerpt, a change notice\) and says "
     r"nothing about the rules it does not print\.$",
     "{2} にしかないルール {1} 件は載せていません。{3} は部分的な版（抜粋、変更告知）で、載せていないルールについては"
     "何も述べていません。"),
    (r"^(\w+): (\S+) → (\S+)$", "{1:word}: {2} → {3}"),
    # last: a page's title that is the game's name and what follows it, once nothing above matched
    (r"^Duel Masters (English|日本語) ([^:]+)$", "デュエル・マスターズ {1:word} {2}"),
    (r"^Duel Masters (English|日本語) ([^:]+): (.+)$", "デュエル・マスターズ {1:word} {2}: {3}"),
    (r"^Duel Masters ([^:]+)$", "デュエル・マスターズ {1:words}"),
    (r"^Duel Masters ([^:]+): (\S+) → (\S+)$", "デュエル・マスターズ {1:words}: {2} → {3}"),
    (r"^Duel Masters ([^:]+): ([^:]+)$", "デュエル・マスターズ {1:words}: {2}"),
)

# The header's switch, in the language it leads to: shown while the interface is in the other one.
SWITCH: dict[str, dict[str, str]] = {
    "en": {"label": "日本語", "lang": "ja", "title": "表示を日本語にする"},
    "ja": {"label": "English", "lang": "en", "title": "Show the interface in English"},
}

# Labels a generator writes in both languages (``.rk-ui-en`` / ``.rk-ui-ja``) for a page whose
# document is Japanese: English, Japanese, with ``{name}`` values filled in by the generator.
LABELS: dict[str, tuple[str, str]] = {
    "contents": ("Contents", "目次"), "versions": ("Versions", "版"),
    "whole": ("Read the whole document (printable)", "全文を読む（印刷可）"),
    "effective": ("effective {date}", "{date} 発効"), "newest": ("newest version", "最新の版"),
    "older": ("older versions ({count})", "以前の版（{count}）"), "subsections": ("Subsections", "下位の項目"),
    "cites": ("Cites", "引用している箇所"), "cited_by": ("Cited by", "引用されている箇所"),
    "analogue": ("Counterpart in the other game", "もう一方のゲームの対応項目"),
    "evidence": ("evidence", "根拠"), "differs": ("what differs", "相違点"),
    "no_counterpart": ("no counterpart", "対応する項目なし"),
    "penalty": ("Penalty", "ペナルティ"), "every_version": ("every version of this section", "この項目のすべての版"),
    "cited_by_rules": ("Cited by tournament documents", "この規則を引用している大会文書"),
    "as_of": ("as of {version}", "{version} 時点"),
    "repeat": ("The document prints a second section {number}:", "この文書は {number} をもう一度使っています:"),
}


def interface_table() -> dict[str, object]:
    """What ``ui.js`` reads: the words, the patterns, what is never translated, where English stays."""
    return {"words": WORDS, "patterns": [list(p) for p in PATTERNS], "source": SOURCE,
            "englishOnly": list(ENGLISH_ONLY), "switch": SWITCH}


def interface_script() -> str:
    """The table as a script assigning ``window.rulesKbInterface`` (same bytes every build)."""
    body = people_json(interface_table(), sort_keys=True, indent=0)
    return f"// Generated by rules_kb.render.interface; do not edit.\nwindow.rulesKbInterface = {body};\n"


def write_interface_script(knowledge: Knowledge, folder: Path) -> None:
    """Write ``assets/interface.js`` into the built site (the knowledge is not needed: the table is code)."""
    del knowledge
    target = folder / SCRIPT
    target.parent.mkdir(parents=True, exist_ok=True)
    text = interface_script()
    replace_file(target, lambda out: out.write(text), 0o644)
