"""Publishers' document formats to text: PDF and DOCX in, the text a TXT release would hold out.

Wizards publishes each Comprehensive Rules release as TXT, PDF and DOCX; Duel Masters publishes
its rulebook only as PDF. The parsers read text, so a document is turned into the text its
publisher's TXT export would hold: one line per paragraph, a blank line where the layout puts
space between paragraphs. Libraries were chosen by measurement on the real files (docs/corpus.md):

* DOCX: lxml over ``word/document.xml``. The paragraphs of Wizards' DOCX are the lines of its
  TXT, one for one (2019-05-03, 2024-11-08, 2026-01-16), so nothing is guessed.
* PDF: pypdfium2 (PDFium), 0.9 s for the 295 pages of 2024-11-08 where pypdf took 19 s and
  pdfminer.six 33 s. A PDF holds positioned lines, not paragraphs, so they are rebuilt from
  geometry: a line continues the previous one unless its first word would have fitted on the
  previous line (then the break was the author's: a new paragraph), or it does not start where
  a continuation would (continuation lines share one left edge; the line after a paragraph's
  first line may stand a little apart, for a hanging number or a first-line indent); more
  space than a line's between two lines is a blank line.

Page furniture (running headers and footers, page numbers) is dropped and a wrap inside a word
is joined; each is reported as a note (an anomaly of the parsed document), never left in a rule.
Formats that are not read (Word 97 ``.doc``, RTF, a PDF without a text layer, another ZIP) are
refused with one line saying what to do instead.
"""

from __future__ import annotations

import io
import itertools
import re
import statistics
import zipfile
import zlib
from collections import Counter
from dataclasses import dataclass, field

from rules_kb.errors import SourceError

_OLE2 = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"
_ZIP = b"PK\x03\x04"
_W = "{http://schemas.openxmlformats.org/wordprocessingml/2006/main}"
MAX_DOCX_XML = 16 * 1024 * 1024  # uncompressed document.xml; the largest real one is 4.5 MB
# Japanese wraps anywhere and kinsoku moves a wrap by a character or two: a printed line ending
# within this many characters of the column's edge is taken as wrapped, not as a paragraph's end.
_JA_SLACK = 4
# A line whose text (digits as #) recurs at the same height on this share of pages is furniture.
_FURNITURE_SHARE = 0.5
_PAGE_NUMBER = re.compile(r"[-–—\s]*(?:page\s*|p\.\s*)?[0-9０-９]+(?:\s*(?:/|of)\s*[0-9０-９]+)?[-–—\s]*", re.I)
# Lines that start a paragraph whatever the geometry says: a rule number or an example. Both
# rulebooks print an example right under its rule, at the same left edge as the example before.
_EXAMPLE = re.compile(r"(?:Example:|例[：:])")
_PARAGRAPH_START = re.compile(r"(?:[0-9]{3}\.[0-9]+[a-z]?\.?\s|Example:|例[：:])")
# A numbered section heading standing alone at the top of a page (``3.8 Game Markers`` in the
# Tournament Rules): when the page before ended on a full line, nothing in the geometry says the
# break was a paragraph's, so the heading would be run into the last sentence of the section above.
_PAGE_TOP_HEADING = re.compile(r"[0-9]{1,2}\.(?:[0-9]{1,2}\.?)?[ \t]+[A-Z][^.:;!?]{0,80}")


@dataclass
class Extracted:
    """Text recovered from a PDF or DOCX, with what was dropped or joined on the way."""

    text: str
    kind: str  # "pdf" or "docx"
    pages: int = 0
    notes: list[tuple[int, str, str, str]] = field(default_factory=list)


def container_kind(data: bytes) -> str | None:
    """``pdf``, ``docx``, ``doc``, ``rtf`` or ``zip`` when the bytes are a document container."""
    head = data[:1024].lstrip(b"\xef\xbb\xbf\r\n\t ")
    if head.startswith(b"%PDF-"):
        return "pdf"
    if data.startswith(_OLE2):
        return "doc"
    if head.startswith(b"{\\rtf"):
        return "rtf"
    if data.startswith(_ZIP):
        return "docx" if b"word/document.xml" in data else "zip"
    return None


def extract_document(data: bytes, document: str) -> Extracted | None:
    """The text of a PDF or DOCX, ``None`` for anything else (plain text), ``SourceError`` when refused."""
    kind = container_kind(data)
    if kind is None:
        return None
    if kind == "doc":
        raise SourceError(document, "Word 97-2003 .doc is not read: save it as .docx (or use the publisher's "
                                    ".txt) and add that", 0)
    if kind == "rtf":
        raise SourceError(document, "RTF is not read: save it as .docx or plain text (or use the publisher's "
                                    ".txt) and add that", 0)
    if kind == "zip":
        raise SourceError(document, "a ZIP archive that is not a Word .docx (no word/document.xml): "
                                    "not a rules document", 0)
    return read_docx(data, document) if kind == "docx" else read_pdf(data, document)


# --- DOCX ---------------------------------------------------------------------------------


def read_docx(data: bytes, document: str) -> Extracted:
    """One line per body paragraph, in document order (tables and text boxes included once).

    ``word/document.xml`` is decompressed and parsed as a stream, a paragraph at a time: memory
    holds one paragraph, not the tree (a tree of 60 MB of paragraphs took 1 GB), and the bytes are
    counted as they come out, so an entry whose header understates its size is stopped at
    ``MAX_DOCX_XML`` all the same. The parser keeps libxml2's nesting limit and never resolves an
    entity (an entity reference is kept as written, ``&xxe;``)."""
    lines: list[str] = []
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as archive:
            info = archive.getinfo("word/document.xml")
            if info.file_size > MAX_DOCX_XML:
                raise SourceError(document, f"DOCX: word/document.xml is {info.file_size:,} bytes uncompressed "
                                            f"(the limit is {MAX_DOCX_XML:,})")
            with archive.open(info) as stream:
                _read_paragraphs(stream, document, lines)
    except (zipfile.BadZipFile, zipfile.LargeZipFile, KeyError, OSError, EOFError, zlib.error, NotImplementedError,
            RuntimeError, ValueError) as exc:
        raise SourceError(document, f"damaged DOCX: {exc}") from None
    text = "\n".join(lines).rstrip("\n") + "\n"
    if not text.strip():
        raise SourceError(document, "DOCX with no text in its body", 0)
    return Extracted(text, "docx")


def _read_paragraphs(stream, document: str, lines: list[str]) -> None:
    """Feed the XML to a pull parser in chunks; each outermost paragraph becomes a line and is freed."""
    from lxml import etree

    parser = etree.XMLPullParser(events=("start", "end"), tag=f"{_W}p", resolve_entities=False, no_network=True)
    size, depth = 0, 0
    try:
        while chunk := stream.read(1 << 20):
            size += len(chunk)
            if size > MAX_DOCX_XML:
                raise SourceError(document, f"DOCX: word/document.xml is over {MAX_DOCX_XML:,} bytes uncompressed "
                                            "(the limit), whatever its header says")
            parser.feed(chunk)
            for event, paragraph in parser.read_events():
                depth += 1 if event == "start" else -1
                if event == "end" and depth == 0:  # a text box's paragraph is read with the one holding it
                    lines.append(_paragraph_text(paragraph) if len(paragraph) else "")
                    paragraph.clear(keep_tail=False)
                    while paragraph.getprevious() is not None:
                        del paragraph.getparent()[0]
        parser.close()
    except etree.XMLSyntaxError as exc:
        raise SourceError(document, f"damaged DOCX: word/document.xml: {exc}") from None


_TEXT_TAGS = {f"{_W}tab": "\t", f"{_W}br": "\n", f"{_W}cr": "\n", f"{_W}p": "\n", f"{_W}noBreakHyphen": "-"}


def _paragraph_text(paragraph) -> str:
    parts = []
    for element in paragraph.iter():  # one walk, tags told apart here (five tag filters cost five times more)
        tag = element.tag
        if tag == f"{_W}t":
            parts.append("".join(element.itertext()))  # an unresolved entity's tail is the rest of the text
        elif tag in _TEXT_TAGS and element is not paragraph:
            parts.append(_TEXT_TAGS[tag])
    return "".join(parts)


# --- PDF ----------------------------------------------------------------------------------


@dataclass
class _Line:
    page: int
    text: str
    left: float
    right: float
    top: float
    bottom: float
    first_word: float  # width of the first word, to test whether it would have fitted above
    height: float = 0.0  # the page's


_PAGE_COUNT = re.compile(rb"/Count\s*(\d+)")


def _declares_no_pages(data: bytes) -> bool:
    """Whether every page tree of a PDF that PDFium would not open counts 0 pages."""
    counts = _PAGE_COUNT.findall(data)
    return bool(counts) and all(int(count) == 0 for count in counts)


def read_pdf(data: bytes, document: str) -> Extracted:
    """Paragraphs rebuilt from PDFium's positioned lines; furniture dropped, wraps joined."""
    import pypdfium2 as pdfium

    try:
        pdf = pdfium.PdfDocument(data)
    except pdfium.PdfiumError as exc:
        if _declares_no_pages(data):  # PDFium refuses it, and its error code is whatever an earlier call left
            raise SourceError(document, "PDF with no pages: nothing to read", 0) from None
        raise SourceError(document, f"damaged PDF: {exc}") from None
    try:
        pages = [_page_lines(pdf, index) for index in range(len(pdf))]
    finally:
        pdf.close()
    if not any(pages):
        raise SourceError(document, f"PDF with no text layer ({len(pages)} page(s), no text): a scan? "
                                    "Use the publisher's TXT, DOCX or a PDF with text", 0)
    notes: list[tuple[int, str, str, str]] = []
    dropped = _furniture(pages)
    body = [line for lines in pages for line in lines if id(line) not in dropped]
    text = _paragraphs(body, notes)
    for line in (line for lines in pages for line in lines if id(line) in dropped):
        notes.append((_page_offset(text, body, line.page), "page-furniture",
                      f"page {line.page + 1}: header, footer or page number {line.text.strip()!r}",
                      "dropped from the text (not part of any rule)"))
    notes.sort(key=lambda note: (note[0], note[1], note[2]))
    return Extracted(text, "pdf", len(pages), notes)


def _page_lines(pdf, index: int) -> list[_Line]:
    page = pdf[index]
    height = page.get_height()
    textpage = page.get_textpage()
    try:
        count = textpage.count_chars()
        text = textpage.get_text_range(0, count) if count else ""
        if len(text) != count:  # characters outside the BMP: indices no longer line up; box per line only
            text = text[:count]
        # PDFium marks a hyphen it found at a line's end as U+FFFE; in these rulebooks it is always
        # a printed hyphen ("turn-based" broken after "turn-"), so it is put back.
        text = text.replace("\ufffe", "-")
        lines = []
        for match in re.finditer(r"[^\r\n]+", text):
            segment = match.group()
            if not segment.strip():
                continue
            start = match.start() + len(segment) - len(segment.lstrip())
            end = match.start() + len(segment.rstrip()) - 1
            left = textpage.get_charbox(start)[0]
            _, bottom, _, top = textpage.get_charbox(start, loose=True)  # the font's line box, not the glyph's
            right = textpage.get_charbox(end)[2]
            # The first word; in Japanese, which wraps anywhere, the first character.
            word = 1 if _is_cjk(text[start]) else re.match(r"\S+", text[start:match.end()]).end()
            word_right = textpage.get_charbox(start + word - 1)[2]
            lines.append(_Line(index, segment.strip(), left, right, top, bottom, word_right - left, height))
        return lines
    finally:
        textpage.close()
        page.close()


def _shape(text: str) -> str:
    return re.sub(r"[0-9０-９]+", "#", text.strip())


def _furniture(pages: list[list[_Line]]) -> set[int]:
    """Lines that are running headers, footers or page numbers: ids of the ``_Line`` objects.

    A line in a page's top or bottom tenth is furniture when it is a bare page number, or when
    the same words (digits aside) stand at the same height on at least half the pages. The
    band, not the order of lines: Chromium, for one, draws its header after the body.
    """
    edges = [line for lines in pages for line in lines
             if line.top > line.height * 0.9 or line.bottom < line.height * 0.1]
    recurring = Counter((_shape(line.text), round(line.top)) for line in edges)
    threshold = max(2, int(len(pages) * _FURNITURE_SHARE))
    return {id(line) for line in edges
            if _PAGE_NUMBER.fullmatch(line.text) or recurring[(_shape(line.text), round(line.top))] >= threshold}


def _paragraphs(lines: list[_Line], notes: list) -> str:
    """Join wrapped lines into paragraphs: one paragraph a line, blank lines where space was left.

    Japanese text keeps its printed lines, as the text extracted from the official Duel Masters
    PDF does (the ``dm-rulebook`` parser rejoins them, without spaces): a line that ends a
    paragraph ends with a space, one that wraps does not.
    """
    if not lines:
        return ""
    pitches = [above.bottom - below.bottom for above, below in itertools.pairwise(lines)
               if above.page == below.page and above.bottom - below.bottom > 0]
    pitch = statistics.median(pitches) if pitches else 12.0
    rights = sorted(line.right for line in lines)
    space = 0.22 * pitch
    # Where the layout wraps: a little inside the column's right edge (glyph boxes overhang it).
    margin = rights[int(len(rights) * 0.95)] - 2 * space
    lows = sorted(above.bottom for above, below in itertools.pairwise(lines) if above.page != below.page)
    floor = lows[len(lows) // 10] if lows else 0.0  # where a full page's last line stands
    first = True  # whether ``above`` is the first line of its paragraph
    japanese = _mostly_cjk(lines)
    out: list[str] = [lines[0].text]
    for above, line in itertools.pairwise(lines):
        same_page = above.page == line.page
        gap = above.bottom - line.bottom
        if japanese:  # wraps fall anywhere, kinsoku shifts them: a line is full within a few characters
            fitted = above.right + line.first_word * _JA_SLACK <= margin
        else:
            fitted = above.right + space + line.first_word <= margin
        if first:  # a hanging number or a first-line indent: the next line may start a little apart
            continues = -3 * pitch <= line.left - above.left <= 2 * pitch
        else:  # continuation lines share one left edge
            continues = abs(line.left - above.left) < 0.2 * pitch
        first = True
        starts = fitted or not continues or _PARAGRAPH_START.match(line.text) \
            or (not same_page and _PAGE_TOP_HEADING.fullmatch(line.text))
        if same_page and gap > pitch * 1.35:
            joint = "\n\n"
        elif not same_page and above.bottom - floor > pitch * 0.5 and not japanese:
            joint = "\n\n"  # the page ended early: a paragraph kept with the next went over
        elif starts and not same_page and not japanese and not _EXAMPLE.match(line.text) \
                and line.left <= above.left + 2:
            joint = "\n\n"  # the space between paragraphs is lost at a page break: the usual one
        elif starts:
            joint = "\n"
        else:
            first = False
            joint = "\n" if japanese else _wrap_joint(above.text, line.text)
            if joint == "" and above.text.endswith("-"):
                notes.append((sum(map(len, out)), "wrap-in-word",
                              f"page {line.page + 1}: line ends {above.text[-12:]!r}, the next starts "
                              f"{line.text[:12]!r}", "joined without a space (a hyphenated word)"))
        if japanese and first:
            joint = " " + joint  # a paragraph's end, as the official PDF's text extraction marks it
        out.append(joint)
        out.append(line.text)
    return "".join(out) + "\n"


def _mostly_cjk(lines: list[_Line]) -> bool:
    sample = "".join(line.text for line in lines[:2000] if not line.text.isspace())
    return sum(map(_is_cjk, sample)) > 0.3 * len(sample.replace(" ", ""))


def _wrap_joint(before: str, after: str) -> str:
    """What joins a wrapped line to the next: a space, or nothing inside a word or CJK text."""
    last, first = before[-1], after[0]
    if _is_cjk(last) or _is_cjk(first):
        return ""
    if last in "-–—" and len(before) > 1 and not before[-2].isspace():
        return ""  # kept: Wizards' PDFs break only at printed hyphens and dashes ("turn-", "[-", "601.2f–h")
    return " "


def _is_cjk(char: str) -> bool:
    code = ord(char)
    return 0x3000 <= code <= 0x30FF or 0x3400 <= code <= 0x9FFF or 0xFF00 <= code <= 0xFFEF


def _page_offset(text: str, body: list[_Line], page: int) -> int:
    """Where page ``page``'s text starts in ``text`` (approximately: the first body line of it)."""
    first = next((line for line in body if line.page >= page), None)
    if first is None:
        return max(len(text) - 1, 0)
    found = text.find(first.text)
    return max(found, 0)
