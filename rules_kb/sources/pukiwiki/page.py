"""dmwiki page sources (PukiWiki markup): commentary about the rules, not rules.

A page becomes headings and residue: prose and list items (``commentary``), table rows
(``table``, ``table-format``), footnotes (``footnote``), ``#author`` lines (``meta``),
``&tag(…);`` (``tag``), contents entries inside ``#region(目次)`` (``contents``) and
comments. Residue ``text`` is the readable text; ``spans`` cover the raw markup.

Line structure comes from ``pukiwiki_lines`` (which also recovers lost line breaks) and
inline markup from ``pukiwiki_inline``. What the page says about itself is kept: items in
red bold are marked with the change date the page's own legend gives, and a stated
``Ver.`` with its ``最終更新日`` becomes a ``Version``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from rules_kb.errors import ParseError
from rules_kb.model import DocumentMeta, Heading, ParsedDocument, Residue, Version
from rules_kb.numbers import fold_width
from rules_kb.refs import cited_numbers
from rules_kb.sources.common import iso_date
from rules_kb.sources.pukiwiki.inline import (
    Carved,
    carve,
    is_marked_red,
    leading_cite,
    render,
    render_cells,
)
from rules_kb.sources.pukiwiki.lines import HEADING, SourceLine, block_kind, split_lines, unclosed_brackets

_SNIFF_SIGNS = (
    (re.compile(r"(?:^|\s)#author\(\""), 50),
    (re.compile(r"\[#[A-Za-z0-9_-]+\](?=\s|$)", re.MULTILINE), 30),
    (re.compile(r"&(?:tag|color|size|br|ref)\b"), 15),
    (re.compile(r"\[\[[^\[\]\n]{1,80}\]\][^\n]*\[\[[^\[\]\n]{1,80}\]\]"), 15),
    (re.compile(r"(?:BG)?COLOR\([^()\n]*\):"), 10),
    (re.compile(r"''[^'\n]+''"), 5),
    (re.compile(r"\(\([^()\n]+\)\)"), 5),
)
_AUTHOR = re.compile(r"#author\(\"(?P<stamp>(?P<date>\d{4}-\d{2}-\d{2})[^\"]*)\"")
_PLUGIN = re.compile(r"#(?P<name>[A-Za-z]\w*)(?:\((?P<args>[^\n]*?)\))?\{*")
_RED_LEGEND = re.compile(r"赤太字は(\d{4})年(\d{1,2})月(\d{1,2})日の変更")
_UPDATED = re.compile(r"最終更新日\s*[:：]?\s*(\d{4})\s*年\s*(\d{1,2})\s*月\s*(\d{1,2})\s*日")
_VERSION = re.compile(r"Ver\.?\s*(\d+(?:\.\d+)+)")
_LIST_MARKER = re.compile(r"[-+]{1,3}")
_ROW_FORMAT = re.compile(r"\|[cC]$")


@dataclass
class Block:
    """Consecutive PukiWiki lines that form one element (a list item and its continuation)."""

    kind: str
    lines: list[SourceLine] = field(default_factory=list)


@dataclass
class PageState:
    """What the emitters need to know beyond one block."""

    red_mark: str
    in_contents: bool = False
    region_start: int | None = None


def sniff(text: str) -> int:
    """Confidence (0-100) that ``text`` is PukiWiki source: sum of its distinctive markers."""
    head = text[:20000]
    return min(100, sum(weight for pattern, weight in _SNIFF_SIGNS if pattern.search(head)))


def parse(text: str, meta: DocumentMeta) -> ParsedDocument:
    """Headings and classified residue of one PukiWiki page source."""
    if sniff(text) < 10:
        raise ParseError(meta.file, "no PukiWiki markup found (no #author, anchors, links or inline plugins)", 0)
    parsed = ParsedDocument(meta=meta, text=text)
    lines, flattened = split_lines(text)
    for flat in flattened:
        parsed.anomaly(
            flat.start,
            "lost-line-breaks",
            f"one physical line holds {flat.recovered + 1} PukiWiki lines (line breaks became spaces)",
            "line starts recovered from block markup after whitespace, outside inline brackets",
        )
    state = PageState(red_mark=_red_mark(text))
    for block in group_blocks(text, lines):
        emit_block(parsed, block, state)
    report_unclosed(parsed, lines, state)
    add_versions(parsed)
    return parsed


def _red_mark(text: str) -> str:
    """The mark for red items, dated by the page's own legend (赤太字は…の変更によるもの)."""
    legend = _RED_LEGEND.search(fold_width(text))
    if legend is None:
        return "red"
    return f"changed:{iso_date(legend.groups())}"


def group_blocks(text: str, lines: list[SourceLine]) -> list[Block]:
    """Join plain lines to the paragraph or list item they continue (PukiWiki's own rule)."""
    blocks: list[Block] = []
    for line in lines:
        kind = block_kind(text, line)
        previous = blocks[-1].kind if blocks else None
        joins = (kind == "text" and previous in ("list", "definition", "text")) or kind == previous == "pre"
        if joins and not line.blank_before:
            blocks[-1].lines.append(line)
        else:
            blocks.append(Block(kind, [line]))
    return blocks


def emit_block(parsed: ParsedDocument, block: Block, state: PageState) -> None:
    """Turn one block into records, by kind."""
    emitter = _EMITTERS.get(block.kind, emit_markup)
    emitter(parsed, block, state)


def emit_heading(parsed: ParsedDocument, block: Block, state: PageState) -> None:
    line = block.lines[0]
    carved = carve(parsed.text, line.start, line.end)
    match = HEADING.match(carved.raw)
    level = len(carved.raw) - len(carved.raw.lstrip("*"))
    body = match["body"] if match else carved.raw.lstrip("*")
    parsed.headings.append(Heading(render(body), carved.spans, level))
    add_pieces(parsed, carved)


def emit_list(parsed: ParsedDocument, block: Block, state: PageState) -> None:
    carved_lines = [carve(parsed.text, line.start, line.end) for line in block.lines]
    first = carved_lines[0].raw
    marker = _LIST_MARKER.match(first)
    level = len(marker[0]) if marker else 1
    marks = ["ordered"] if first.startswith("+") else []
    raws = [first[len(marker[0]) if marker else 0 :]] + [c.raw for c in carved_lines[1:]]
    emit_prose(parsed, carved_lines, raws, state, level, marks)


def emit_definition(parsed: ParsedDocument, block: Block, state: PageState) -> None:
    """``:term|description`` reads as ``term: description``; it is the page's prose, not a rules term."""
    carved_lines = [carve(parsed.text, line.start, line.end) for line in block.lines]
    term, _, description = carved_lines[0].raw.lstrip(":").partition("|")
    raws = [f"{term}: {description}"] + [c.raw for c in carved_lines[1:]]
    emit_prose(parsed, carved_lines, raws, state, 1, ["definition"])


def emit_text(parsed: ParsedDocument, block: Block, state: PageState) -> None:
    carved_lines = [carve(parsed.text, line.start, line.end) for line in block.lines]
    marks = ["preformatted"] if block.kind == "pre" else []
    emit_prose(parsed, carved_lines, [c.raw for c in carved_lines], state, 0, marks)


def emit_prose(
    parsed: ParsedDocument, carved: list[Carved], raws: list[str], state: PageState, level: int, marks: list[str]
) -> None:
    """One residue item for a paragraph or list item; its lines keep their real breaks."""
    text = "\n".join(render(raw) for raw in raws)
    if any(is_marked_red(raw) for raw in raws):
        marks.append(state.red_mark)
    kind = "contents" if state.in_contents else "commentary"
    cites = leading_cite(text) if state.in_contents else cited_numbers(text, game=parsed.meta.game)
    spans = [span for c in carved for span in c.spans]
    parsed.residue.append(Residue(text, spans, kind, cites, tuple(marks), level))
    for piece in carved:
        add_pieces(parsed, piece)


def emit_align(parsed: ParsedDocument, block: Block, state: PageState) -> None:
    line = block.lines[0]
    carved = carve(parsed.text, line.start, line.end)
    text = render(carved.raw)
    kind = "meta" if _UPDATED.search(fold_width(text)) else "commentary"
    parsed.residue.append(Residue(text, carved.spans, kind, cited_numbers(text, game=parsed.meta.game)))
    add_pieces(parsed, carved)


def emit_row(parsed: ParsedDocument, block: Block, state: PageState) -> None:
    line = block.lines[0]
    carved = carve(parsed.text, line.start, line.end)
    raw = carved.raw.strip()
    if _ROW_FORMAT.search(raw):
        parsed.residue.append(Residue(raw, carved.spans, "table-format"))
    else:
        marks = {"h": ("header",), "f": ("footer",)}.get(raw[-1].lower(), ())
        text = render_cells(raw)
        parsed.residue.append(Residue(text, carved.spans, "table", cited_numbers(text, game=parsed.meta.game), marks))
    add_pieces(parsed, carved)


def emit_plugin(parsed: ParsedDocument, block: Block, state: PageState) -> None:
    line = block.lines[0]
    raw = parsed.text[line.start : line.end]
    spans = [(line.start, line.end)]
    author = _AUTHOR.match(raw)
    plugin = _PLUGIN.match(raw)
    name = plugin["name"] if plugin else ""
    args = (plugin["args"] or "") if plugin else ""
    if author:
        parsed.residue.append(Residue(author["stamp"], spans, "meta", marks=(f"edited:{author['date']}",)))
    elif name.startswith("region") and raw.endswith("{{"):
        state.in_contents = "目次" in args  # a folded table of contents: its list items are entries
        state.region_start = line.start
        parsed.residue.append(Residue(args, spans, "contents" if state.in_contents else "markup"))
    elif name == "contents":  # PukiWiki generates this one from the headings
        parsed.residue.append(Residue("", spans, "contents"))
    else:
        parsed.residue.append(Residue(raw, spans, "plugin"))


def emit_close(parsed: ParsedDocument, block: Block, state: PageState) -> None:
    line = block.lines[0]
    state.in_contents = False
    state.region_start = None
    parsed.residue.append(Residue("", [(line.start, line.end)], "markup"))


def emit_comment(parsed: ParsedDocument, block: Block, state: PageState) -> None:
    line = block.lines[0]
    raw = parsed.text[line.start : line.end]
    commented = _LIST_MARKER.sub("", raw[2:], count=1) if raw[2:3] in ("-", "+") else raw[2:]
    parsed.residue.append(Residue(render(commented), [(line.start, line.end)], "comment"))


def emit_tag(parsed: ParsedDocument, block: Block, state: PageState) -> None:
    line = block.lines[0]
    carved = carve(parsed.text, line.start, line.end)
    add_pieces(parsed, carved)
    if carved.spans:  # anything after the tag on its line is prose
        text = render(carved.raw)
        parsed.residue.append(Residue(text, carved.spans, "commentary", cited_numbers(text, game=parsed.meta.game)))


def emit_markup(parsed: ParsedDocument, block: Block, state: PageState) -> None:
    """Lines that are pure layout (horizontal rules): kept, with no readable text."""
    line = block.lines[0]
    parsed.residue.append(Residue("", [(line.start, line.end)], "markup"))


def add_pieces(parsed: ParsedDocument, carved: Carved) -> None:
    """Footnotes and tags carved out of an element become residue of their own."""
    for note in carved.footnotes:
        cites = cited_numbers(note.text, game=parsed.meta.game)
        parsed.residue.append(Residue(note.text, [note.span], "footnote", cites))
    for tag in carved.tags:
        parsed.residue.append(Residue(tag.text, [tag.span], "tag"))


_EMITTERS = {
    "heading": emit_heading,
    "list": emit_list,
    "text": emit_text,
    "pre": emit_text,
    "definition": emit_definition,
    "align": emit_align,
    "row": emit_row,
    "plugin": emit_plugin,
    "close": emit_close,
    "comment": emit_comment,
    "tag": emit_tag,
}


def report_unclosed(parsed: ParsedDocument, lines: list[SourceLine], state: PageState) -> None:
    """Markup left open: an excerpt cut mid-link, a region without its ``}}``, a cut-off end."""
    text = parsed.text
    cut_off = False
    for line in lines:
        for position in unclosed_brackets(text, line.start, line.end):
            opener = text[position : position + 2]
            parsed.anomaly(position, "unclosed-markup", f"{opener} is never closed on its line", "kept as text")
            cut_off = cut_off or line is lines[-1]
    if state.region_start is not None:
        parsed.anomaly(
            state.region_start, "unclosed-block", "the #region block has no closing }}", "region runs to the end"
        )
    if "\n" in text.rstrip("\n") and not text.endswith("\n"):
        cut_off = True
        parsed.anomaly(
            len(text.rstrip()),
            "cut-off-ending",
            "the text stops mid-line without a final line break (an excerpt cut at a byte limit)",
            "last item kept as it stands",
        )
    if cut_off:
        mark_last_truncated(parsed)


def mark_last_truncated(parsed: ParsedDocument) -> None:
    """The item the text ends in is incomplete: say so on the item itself."""
    ending = [item for item in parsed.residue if item.spans]
    if ending:
        last = max(ending, key=lambda item: item.spans[-1][1])
        last.marks = (*last.marks, "truncated")


def add_versions(parsed: ParsedDocument) -> None:
    """A ``Ver.x.y`` heading stated with its ``最終更新日`` is a version the page transcribes."""
    label = next((m[1] for h in parsed.headings if (m := _VERSION.search(fold_width(h.text)))), None)
    if label is None:
        return
    date = None
    for item in parsed.residue:
        updated = _UPDATED.search(fold_width(item.text))
        if item.kind == "meta" and updated:
            date = iso_date(updated.groups())
            break
    kind = "contents" if any(item.kind == "contents" for item in parsed.residue) else "excerpt"
    lang = parsed.meta.languages[0] if parsed.meta.languages else "ja"
    parsed.versions.append(Version(parsed.meta.game, lang, label, date, kind))
