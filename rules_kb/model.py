"""The data model every stage shares: documents, versions, rule texts and what is not rules.

Every record carries ``spans``: half-open character ranges in the decoded text of its
document. Together the records of a document must cover each non-whitespace character
exactly once (see ``accounting``); that is how "nothing is lost" is checked, not assumed.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any

from rules_kb.numbers import RuleNumber

Span = tuple[int, int]


def span_extent(spans: list[Span]) -> list[int]:
    """``[start, end]`` from a record's first span to its last: the one range JSON and the
    graph give for a record that may be cut into pieces (a hard-wrapped paragraph)."""
    return [spans[0][0], spans[-1][1]]



class Record:
    """Mixed into a frozen dataclass that a command prints as JSON: ``to_record`` gives its fields,
    tuples as the lists JSON writes them as (the answers of ``ask/``)."""

    def to_record(self) -> dict[str, Any]:
        return {k: list(v) if isinstance(v, tuple) else v for k, v in asdict(self).items()}

@dataclass(frozen=True)
class DocumentMeta:
    """One manifest entry: what a corpus file is and how to read it."""

    id: str
    file: str
    sha256: str
    game: str
    languages: tuple[str, ...]
    format: str
    kind: str
    versions: tuple[str, ...] = ()
    dates: tuple[str, ...] = ()
    source: str = ""
    note: str = ""
    document: str = "cr"
    """Which of the game's documents this is or is about (``games.DOCUMENTS``): ``cr``, ``mtr``, ``ipg``, …"""


# Change notices print the text they replace; its version is labelled "before-<notice date>".
BEFORE = "before-"


def before_label(after: str) -> str:
    """The version label of the text a change notice replaces: ``before-2021-09-07``."""
    return BEFORE + after


@dataclass(frozen=True)
class Version:
    """A release of the rules as one document states it.

    ``kind`` is ``full`` (a whole rulebook), ``excerpt`` (part of one), ``change-notice``
    or ``dated-paragraph`` (Magic's per-paragraph CompRules dates). Only ``full`` versions
    say anything about absence: a rule missing from a partial version is unknown.
    """

    game: str
    lang: str
    label: str
    date: str | None
    kind: str


@dataclass(slots=True)
class Example:
    text: str
    spans: list[Span]


HEADING_LENGTH = 60  # characters: a rule's own text shorter than this, and no letter, is a heading


@dataclass(slots=True)
class RuleText:
    """What one version of one rule says, in one language, in one document."""

    game: str
    lang: str
    version: str
    number: RuleNumber
    text: str
    document: str
    spans: list[Span]
    examples: list[Example] = field(default_factory=list)
    title: str | None = None
    date: str | None = None
    truncated: bool = False
    written_as: str | None = None  # the number as printed, when it differs from `number`

    @property
    def is_heading(self) -> bool:
        """Whether the text only names what its subrules say (``702.2. Deathtouch``, ``509. Declare
        Blockers Step``): a number without a letter and a few words. ``show`` and the rule pages
        then give the subrules too."""
        return self.number.letter is None and len(self.text) < HEADING_LENGTH

    def to_record(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "lang": self.lang,
            "version": self.version,
            "date": self.date,
            "number": str(self.number),
            "title": self.title,
            "text": self.text,
            "examples": [e.text for e in self.examples],
            "truncated": self.truncated,
            "written_as": self.written_as,
            "document": self.document,
            "span": span_extent(self.spans),
        }


@dataclass(slots=True)
class Heading:
    """An unnumbered heading (chapter titles, wiki section headers)."""

    text: str
    spans: list[Span]
    level: int = 1


@dataclass(slots=True)
class Term:
    """A defined term (a glossary entry) and its definition."""

    term: str
    definition: str
    spans: list[Span]
    game: str = ""
    lang: str = ""
    version: str = ""


@dataclass
class Residue:
    """Text that is not rules: page chrome, navigation, contents, prose commentary.

    ``cites`` holds rule numbers the passage refers to and ``marks`` free-form labels a
    parser found (for example ``changed:2021-09-07`` on dmwiki's red-marked items).
    """

    text: str
    spans: list[Span]
    kind: str
    cites: tuple[str, ...] = ()
    marks: tuple[str, ...] = ()
    level: int = 0


@dataclass(frozen=True)
class Anomaly:
    """A defect found in a source and the decision taken about it."""

    document: str
    position: int
    code: str
    message: str
    decision: str

    def describe(self) -> str:
        return f"{self.document}:{self.position}: {self.code}: {self.message} -> {self.decision}"


# What a tournament section's labelled blocks are (``SectionPart.label``): the IPG's and the
# penalty guideline's infraction parts, plus what else the documents print under a heading.
PART_LABELS = {
    "penalty": "the penalty as printed (IPG: after the title on the heading line; DM: ペナルティ：【警告】)",
    "definition": "Definition / 定義：",
    "examples": "Examples (lettered A., B., ...) / 例：",
    "philosophy": "Philosophy / 理念：",
    "additional-remedy": "Additional Remedy / 追加措置：",
    "upgrade": "Upgrade: (the IPG prints it as a lead-in of a paragraph)",
    "subheading": "an unnumbered heading inside a section: the IPG's penalty names under 1.1, the MTR's "
                  "appendix headings (Booster Draft Timing)",
}


@dataclass
class SectionPart:
    """A labelled block of a section (an infraction's Definition, 定義：, ...): ``label`` is one of
    ``PART_LABELS``, ``heading`` the words printed for it, ``text`` its paragraphs joined by newlines."""

    label: str
    heading: str
    text: str
    spans: list[Span]

    def to_record(self) -> dict[str, Any]:
        return {"label": self.label, "heading": self.heading, "text": self.text,
                "span": span_extent(self.spans) if self.spans else None}


@dataclass
class Section:
    """One numbered section of a tournament document (MTR 3.10, IPG 2.1, 競技イベント運営ルール 10.3).

    ``number`` is canonical (``SectionNumber``); ``numbered`` is False where the document prints
    none and the parser gave one (an introduction is ``0`` as the Duel Masters document numbers
    its own, appendices are their letter). ``text`` is the section's own body before its parts;
    ``penalty`` is normalised (``Warning``, ``警告``), the printed form stays in the ``penalty``
    part. ``cites`` are (kind, target) pairs: ``("cr", "103.4c")``, ``("cr", "")`` for a bare
    mention of the comprehensive rules, ``("section", "4.3")`` within the document, ``("mtr",
    "4.3")`` from another one, ``("infraction", name_key)``.
    """

    game: str
    lang: str
    document: str
    version: str
    number: str
    title: str
    text: str
    spans: list[Span]
    document_id: str
    parts: list[SectionPart] = field(default_factory=list)
    category: str | None = None
    name: str | None = None
    penalty: str | None = None
    date: str | None = None
    cites: list[tuple[str, str]] = field(default_factory=list)
    numbered: bool = True

    def to_record(self) -> dict[str, Any]:
        return {
            "game": self.game, "lang": self.lang, "document": self.document, "version": self.version,
            "date": self.date, "number": self.number, "numbered": self.numbered, "title": self.title,
            "category": self.category, "name": self.name, "penalty": self.penalty, "text": self.text,
            "parts": [part.to_record() for part in self.parts],
            "cites": [list(cite) for cite in self.cites],
            "document_id": self.document_id, "span": span_extent(self.spans),
        }


@dataclass
class ParsedDocument:
    """Everything one parser found in one document."""

    meta: DocumentMeta
    text: str
    rules: list[RuleText] = field(default_factory=list)
    headings: list[Heading] = field(default_factory=list)
    terms: list[Term] = field(default_factory=list)
    residue: list[Residue] = field(default_factory=list)
    anomalies: list[Anomaly] = field(default_factory=list)
    versions: list[Version] = field(default_factory=list)
    sections: list[Section] = field(default_factory=list)

    def anomaly(self, position: int, code: str, message: str, decision: str) -> None:
        self.anomalies.append(Anomaly(self.meta.id, position, code, message, decision))
