"""Large synthetic inputs built from real corpus documents, for scaling tests and benchmarks.

Every format gets the same shapes, so a parser that is linear on one shape and quadratic on
another shows it: ``repeated`` repeats the middle of a real document (many rules, numbers
out of sequence), ``prose`` inserts a run of unnumbered lines after a rule (one rule with
thousands of continuation lines), and Magic gets releases of its own:
``rules`` (distinct numbered rules), ``bare`` (numbered lines with no text),
``continuation`` (one rule of many lines), ``glossary`` (one definition of many lines).
"""

from __future__ import annotations

import functools
from pathlib import Path

from rules_kb.ingest.corpus import load_manifest, read_document_bytes
from rules_kb.ingest.decode import decode_document
from rules_kb.model import DocumentMeta

ROOT = Path(__file__).resolve().parent.parent
CORPUS = ROOT / "corpus"
# A typical sentence of rules text (about 80 characters, no number at its start).
PROSE = "the active player may choose any number of target creatures that are untapped now"
SAMPLES = {  # format -> a real document of that format to grow
    "fandom-text": "seeds/000_4db7e39e89e37720.txt",
    "fandom-module": "dm/fandom-excerpts/Module_Rules__GGR-v1.38.txt",
    "dm-change-notice": "seeds/001_875977f70958757f.txt",
    "pukiwiki": "seeds/003_0ef077b8a208b69b.txt",
    "mtg-rulings": "seeds/004_9e840b7733df29ed.txt",
    "dm-rulebook": "dm/official-rule-text/dm_rule-ja-v1.48.md",
    "mtg-cr": "mtg/CR-2024-11-08.txt",
    # the tournament documents are PDFs: their samples are the text the PDF reader gives
    "mtg-mtr": "mtg/MTG_MTR_2025_Apr_21_EN.pdf",
    "mtg-ipg": "mtg/MTG_IPG_2024Sep23_EN.pdf",
    "dm-competition": "dm/dm_competition_rule_20250501.pdf",
}
SHAPES = ("repeated", "prose")
LINE_FORMATS = ("mtg-mtr", "mtg-ipg", "dm-competition")  # shape "line": where contents lines are read apart
MTG_SHAPES = ("rules", "bare", "continuation", "glossary")


@functools.cache
def sample(format_name: str) -> tuple[DocumentMeta, str]:
    """The real document a format's synthetic inputs are grown from, decoded (read once: a PDF's
    text extraction took ~0.3 s, and the fuzz tests ask for each example's metadata)."""
    (meta,) = [m for m in load_manifest(CORPUS) if m.file == SAMPLES[format_name]]
    return meta, decode_document(read_document_bytes(CORPUS, meta), meta.file).text


def grow(text: str, shape: str, size: int) -> str:
    """``text`` grown to about ``size`` bytes (UTF-8) in the given shape."""
    lines = text.split("\n")
    low, high = len(lines) * 3 // 10, max(len(lines) * 7 // 10, len(lines) * 3 // 10 + 1)
    if shape == "repeated":
        block = "\n".join(lines[low:high]) + "\n"
        copies = max(1, (size - len(text.encode("utf-8"))) // max(len(block.encode("utf-8")), 1))
        middle = [block * copies]
    elif shape == "prose":
        middle = [(PROSE + "\n") * max(1, (size - len(text)) // (len(PROSE) + 1))]
    elif shape == "line":  # one line with no number in it, among the first lines (a contents page's)
        long_line = (PROSE + " ") * max(1, (size - len(text)) // (len(PROSE) + 1))
        return "\n".join([*lines[:5], long_line, *lines[5:]])
    else:
        raise ValueError(shape)
    return "\n".join(lines[:high]) + "\n" + "".join(middle) + "\n".join(lines[high:])


def magic_release(shape: str, size: int) -> str:
    """A whole Magic release in one of ``MTG_SHAPES``, about ``size`` characters long."""
    head = ["Magic: The Gathering Comprehensive Rules", "", "These rules are effective as of November 8, 2024.",
            "", "Contents", "", "1. Game Concepts", "100. General", "Glossary", "Credits", "",
            "1. Game Concepts", "", "100. General", ""]
    tail = ["", "Glossary", "", "Active Player", "The player whose turn it is.", "", "Credits", "",
            "Magic: The Gathering Comprehensive Rules Design: Someone"]
    body: list[str] = []
    length = 0
    if shape == "continuation":
        body = ["100.1. " + PROSE + "."] + [PROSE] * (size // (len(PROSE) + 1))
    elif shape == "glossary":  # one glossary definition of many lines
        body = ["100.1. " + PROSE.capitalize() + "."]
        tail[4:4] = [PROSE] * (size // (len(PROSE) + 1))
    else:
        section, rule = 100, 0
        while length < size:
            rule += 1
            if rule > 999:
                section, rule = section + 1, 1
                body += [f"{section}. Section {section}", ""]
            line = f"{section}.{rule}." + ("" if shape == "bare" else " " + PROSE.capitalize() + ".")
            body += [line, ""]
            length += len(line) + 2
    return "\n".join(head + body + tail) + "\n"


def synthetic(format_name: str, shape: str, size: int) -> tuple[DocumentMeta, str]:
    """A synthetic input of about ``size`` bytes (UTF-8), with the metadata to parse it."""
    meta, text = sample(format_name)
    if shape in MTG_SHAPES:
        return meta, magic_release(shape, size)
    return meta, grow(text, shape, size)
