"""The interface's one table (``rules_kb/render/interface.py``): what ``ui.js`` reads, written by the build.

The words live in Python once; the script that applies them holds none of them, and every pattern
reads the same in JavaScript as in Python.
"""

from __future__ import annotations

import html
import json
import re
import subprocess

from conftest import ROOT

from rules_kb.render.interface import PATTERNS, SCRIPT, WORDS, interface_script

UI = ROOT / "site" / "assets" / "ui.js"


def test_every_pattern_compiles_alike_and_fills_only_its_groups():
    for pattern, template in PATTERNS:
        groups = re.compile(pattern).groups
        used = [int(n) for n in re.findall(r"\{(\d+)(?::\w+)?\}", template)]
        assert all(1 <= n <= groups for n in used), (pattern, template)
        assert set(re.findall(r"\{\d+:(\w+)\}", template)) <= {"word", "date", "words", "text"}
    script = "const p = JSON.parse(require('fs').readFileSync(0, 'utf8')); p.forEach(s => new RegExp(s)); 'ok'"
    subprocess.run(["node", "-e", script], input=json.dumps([p for p, _ in PATTERNS]), text=True, check=True)


def test_ui_js_holds_no_word_of_the_table():
    """Nothing spelt twice: the script applies the table and spells none of its Japanese."""
    script = UI.read_text(encoding="utf-8")
    spelt = [ja for ja in WORDS.values() if len(ja) > 1 and re.search(r"[\u3040-\u30ff\u4e00-\u9fff]", ja)
             and ja in script]
    assert spelt == []


def test_the_build_writes_the_table(real_site):
    assert (real_site / SCRIPT).read_text(encoding="utf-8") == interface_script()
    assert "window.rulesKbInterface = " in interface_script()


def test_every_kind_a_notice_page_names_is_in_the_table(real_site):
    """Each entry of a Duel Masters notice page is labelled by its kind (a residue's kind from
    ``sources/``, "rule text, version …"): a kind the table lacks stays English in a Japanese page."""
    kinds = {html.unescape(kind) for page in (real_site / "dm" / "notice").glob("*/index.html")
             for kind in re.findall(r'class="rk-kind">([^<]+)<', page.read_text(encoding="utf-8"))}
    assert {"change-marker", "event-rules"} <= kinds  # the change notices' own marks (sources/change_notice)
    untranslated = [kind for kind in sorted(kinds) if kind not in WORDS
                    and not any(re.fullmatch(pattern, kind) for pattern, _ in PATTERNS)]
    assert untranslated == []


def test_a_diff_pages_editorial_note_reads_in_japanese():
    """The note under an editorial change names the two spellings and the kind of change, one
    of the kinds ``compare/editorial.py`` gives, each of them in the table."""
    from rules_kb.compare.editorial import FOLDS

    kinds = [kind for kind, _ in FOLDS] + ["punctuation", "hyphenation", "spelling", "typo"]
    for kind in kinds:
        note = f"editorial: {','!r} → {'、'!r} ({kind})"  # as render/diff_pages.py writes it
        template = next(t for p, t in PATTERNS if re.fullmatch(p, note))  # the first, as ui.js takes it
        assert template.startswith("表現のみ") and kind in WORDS, kind
