"""A tournament document's text as paragraphs with spans, the unit every later step classifies.

``read_pdf`` gives English paragraphs one a line; Japanese text keeps its printed lines, a line
ending a paragraph ending with a space (as the publisher's own text extraction does), so
Japanese lines are gathered up to that space or a blank line and joined with no space. An English
paragraph cut in two by a page break (the second half starts in lower case) is joined again.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from rules_kb.model import Span
from rules_kb.sources.common import iter_lines

# A Japanese line that opens a list item opens a paragraph even when the line before it does not
# end with the paragraph's space (the lists of DM 4.5: ``1．単独のプレイヤーによる任意のループ``).
_JA_ITEM = re.compile(r"(?:[0-9０-９]{1,2}[.．](?![0-9０-９])|[•・※]|[(（][A-ZＡ-Ｚ0-9０-９][)）])")


@dataclass(frozen=True)
class Paragraph:
    text: str
    spans: tuple[Span, ...]

    @property
    def start(self) -> int:
        return self.spans[0][0]


def _continues(before: str, line: str) -> bool:
    """Whether an English line is the rest of the paragraph above, cut by a page break (the PDF
    keeps no trace of it: ``… return them to the set that was`` / ``being selected from; …``)."""
    return line[:1].islower() and not before.endswith((".", ":", ";", "!", "?", "”", ")"))


def read_paragraphs(text: str, *, japanese: bool) -> list[Paragraph]:
    """Every paragraph of ``text`` in order; whitespace-only lines separate and belong to none.

    Lines are gathered as lists and joined once at the end: joining each continuation onto the
    paragraph so far made a paragraph of n cut lines cost n² (fuzzing found it)."""
    lines: list[list[str]] = []
    spans: list[list[Span]] = []
    taking = False  # whether the last paragraph takes the next line (Japanese: no closing space yet)
    for line in iter_lines(text):
        if not line.stripped:
            taking = False
            continue
        if japanese:
            starts = not taking or bool(_JA_ITEM.match(line.stripped))
            taking = not line.text.endswith((" ", "\u3000"))
        else:
            starts = not lines or not _continues(lines[-1][-1], line.stripped)
        if starts:
            lines.append([])
            spans.append([])
        lines[-1].append(line.stripped)
        spans[-1].append(line.span())
    joiner = "" if japanese else " "
    return [Paragraph(joiner.join(pieces), tuple(where)) for pieces, where in zip(lines, spans, strict=True)]
