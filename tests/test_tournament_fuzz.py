"""Any text given to a tournament parser is parsed whole: no exception, every character accounted for
(headings out of order, lone part lead-ins, contents without a body, stray dashes and widths)."""

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rules_kb.ingest.accounting import account
from rules_kb.model import DocumentMeta, ParsedDocument
from rules_kb.sources.registry import FORMATS

PIECES = [
    "MAGIC: THE GATHERING® TOURNAMENT RULES", "Effective April 21, 2025", "Effective Smarch 40, 2025",
    "2025 年 5 月 1 日発効", "もくじ", "CONTENTS", "Introduction", "1. Tournament Fundamentals",
    "1.1 Tournament Types......5 1.2 Roles.....6", "1.10 Players", "2.1. Game Play Error — Missed Trigger No Penalty",
    "0. はじめに", "10.3 ゲーム上の誤り ─ 過剰なカードを引いた", "8.1 - 制限時間", "０．", "ペナルティ：", "【警告】*",
    "定義：", "例：", "Definition", "Examples", "Upgrade: more", "Appendix A—Changes", "Appendix B — X",
    "A. An example.", "see section 4.3 of the Magic Tournament Rules", "rule 103.4c", "〔非紳士的行為 ― 故意の違反〕",
    "Unsporting Conduct — Cheating", "All trademarks are property of Wizards of the Coast LLC", "", " ", "text.",
    "lower case continues", "1．", "9.1 一般理念", "99.99 Z", "3.", "—", "〔〕", "〔意思疎通〕(4)",
]
META = {name: DocumentMeta(id="fuzz", file="fuzz.txt", sha256="", game="dm" if name == "dm-competition" else "mtg",
                           languages=("ja",) if name == "dm-competition" else ("en",), format=name,
                           kind="tournament", versions=("2025-04-21",))
        for name in ("mtg-mtr", "mtg-ipg", "dm-competition")}


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.sampled_from(PIECES), max_size=40), st.sampled_from(sorted(META)),
       st.sampled_from(["\n", "\n\n", " \n"]))
def test_any_text_is_parsed_whole(pieces, name, joint):
    text = joint.join(pieces)
    parsed = FORMATS[name].parse(text, META[name])
    assert isinstance(parsed, ParsedDocument)
    assert account(parsed).complete
    for section in parsed.sections:
        section.to_record()
