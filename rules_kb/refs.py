"""Rule references in free text: ``rule 509.1a``, ``rules 601.2a–d and 602.2b``, ``（参考：603.2e）``.

One grammar serves every consumer (citations in rule texts for the graph, search queries,
judge notes), so that a reference found in one place is found the same way everywhere.
It has to be precise rather than generous: a false citation becomes a false edge in the
graph, so quantities, dates, versions, prices and decimals must never match.

What counts as a reference:

* a number with a dot part anywhere (``507.2a``, ``５０７．２ａ``, ``409.2.``): a three-digit
  section, a 1–3 digit rule, an optional letter, standing alone (not inside ``2021.09.07``,
  ``1,000.5``, ``$100.50``, ``192.168.0.1`` or after ``Version``/``Ver.``/``v``);
* a bare three-digit section only after a keyword: ``rule``/``rules``/``subrule``,
  ``section``, ``CR``, ``参考``, ``総合ルール``/``総合ゲームルール``/``ルール``, or after
  ``See`` when a quoted section title follows (``See 706, “Rolling a Die.”``);
* ranges with a dash, en dash, wave dash or the ``?`` an old ASCII file left for an en
  dash (``509.1a–c``, ``603.7d-f``, ``509.1a–509.1c``, ``509.1–3``, ``306-311``), expanded
  (Magic skips the subrule letters ``l`` and ``o``; Duel Masters does not: its 703.4l exists);
* lists joined by commas, ``and``/``or``, ``、``, ``と``, ``および`` … (``rules 508.1a and
  508.1c``), each item optionally repeating the keyword (``rule 110.5 and rule 111``).

A reference's span starts at its keyword (``rules``, ``参考``, ``総合ルール``) or at its first
number; surrounding brackets, the verb ``See`` and a trailing sentence period are not part
of it. An English keyword must sit on the same line as its number (``Multiplayer Rules`` /
``800. General`` is a heading followed by another), ``参考`` may wrap (Ver.1.48 does).
"""

from __future__ import annotations

import bisect
import itertools
import re
import unicodedata
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from functools import lru_cache

from rules_kb.games import DOCUMENTS, REGISTRY
from rules_kb.model import Section
from rules_kb.numbers import ABSENT, NUMBER_PARTS, SECTION_DIGITS, RuleNumber, fold_width

__all__ = ["NoteReference", "Reference", "find_note_references", "find_references"]

_D = "[0-9０-９]"
_DOT = "[.．]"
_LETTER = "[A-Za-zＡ-Ｚａ-ｚ]"
# A number ends where no word character, no further dotted digit (``1.2.3``) and no unit follows.
_END = rf"(?![0-9０-９A-Za-zＡ-Ｚａ-ｚ_%％円枚体個回点人年月日時分秒]|{_DOT}{_D})"
_NUMBER = re.compile(
    rf"(?P<section>{_D}{{3}})(?:{_DOT}(?P<rule>{_D}{{1,3}})(?P<letter>{_LETTER})?)?{_END}"
)
_SEP = "[-–—‐‑−－~〜～?]"
_RANGE_NUMBER = re.compile(rf"{_SEP}(?P<end>{_D}{{3}}{_DOT}{_D}{{1,3}}{_LETTER}?){_END}")
_RANGE_RULE = re.compile(rf"{_SEP}(?P<rule>{_D}{{1,3}}){_END}")
_RANGE_LETTER = re.compile(rf"{_SEP}(?P<letter>{_LETTER}){_END}")
_RANGE_SECTION = re.compile(rf"{_SEP}(?P<section>{_D}{{3}}){_END}")
_JOIN = re.compile(
    r"[ \t]*[,，、][ \t\n]*(?:(?:and|or)[ \t\n]+)?"
    r"|[ \t\n]+(?:and|or)[ \t\n]+"
    r"|[ \t\u3000]*(?:および|及び|または|又は|と|や)[ \t\u3000]*"
)
_JOIN_KEYWORD = re.compile(r"(?ai:(?:sub)?rules?|sections?)[ \t]+")
# Where an expression may start: a keyword (with the gap to its number) or a dotted number.
# The leading lookahead lets the engine skip most positions at once (3x faster on Magic).
_CANDIDATE = re.compile(
    r"(?=[0-9０-９RrSsCc参総ル])"
    r"(?:(?P<keyword>(?<![A-Za-z#/_])(?:(?ai:(?:sub)?rules?|sections?)|CR)(?![A-Za-z])[ \t\u3000]*"
    r"|(?:総合(?:ゲーム)?)?ルール[ \t\u3000]*"
    r"|参考[ \t\u3000]*\n?[ \t\u3000]*)"
    r"(?:[:：][ \t\u3000]*)?(?=[0-9０-９])"
    rf"|(?P<see>(?<![A-Za-z])[Ss]ee[ \t]+)(?={_D}{{3}},[ \t]*[“\"])"
    rf"|(?<![0-9０-９.．,，A-Za-zＡ-Ｚａ-ｚ_$¥￥€£/#+±\-−])(?P<bare>{_D}{{3}}{_DOT}{_D}))"
)
_VERSION_BEFORE = re.compile(r"(?:^|[^A-Za-z])(?ai:version|ver|v)\.?[ \t]*$|バージョン[ \t]*$")
_VERSION_BEFORE_WINDOW = 12
_MAX_EXPANSION = 100
_GAMES = (None, *REGISTRY)
# Letters a range skips unless it names them; a reference of no known game reads as Magic's would.
_SKIP_LETTERS = {None: REGISTRY["mtg"].skip_letters} | {game.id: game.skip_letters for game in REGISTRY.values()}


@dataclass(frozen=True)
class Reference:
    """One reference expression: its span in the text, the rules it names, the text itself."""

    start: int
    end: int
    numbers: tuple[RuleNumber, ...]
    raw: str
    items: tuple[tuple[int, int, tuple[RuleNumber, ...]], ...] = field(default=(), compare=False)
    """Each item's span (a number or a range) and its numbers; the first item starts at ``start``."""


def find_references(text: str, *, game: str | None = None) -> list[Reference]:
    """Find every rule reference in ``text``, in order, with non-overlapping spans.

    ``game`` only changes range expansion: ``"mtg"`` and ``None`` skip the letters ``l`` and
    ``o`` as Magic does, ``"dm"`` does not.
    """
    if game not in _GAMES:
        raise ValueError(f"unknown game {game!r}; expected one of {_GAMES}")
    return list(_references_in(text, game))


@lru_cache(maxsize=1 << 15)
def _references_in(text: str, game: str | None) -> tuple[Reference, ...]:
    """``find_references``, kept by text: a site build reads the same words again and again (a
    glossary definition printed unchanged in a hundred releases, the two texts of a diff classed
    for a rule page and again for the audit data), 4.4 CPU s of a build after one more release."""
    skip_letters = _SKIP_LETTERS[game]
    references: list[Reference] = []
    position = 0
    while (candidate := _CANDIDATE.search(text, position)) is not None:
        found = _read_candidate(text, candidate, skip_letters)
        if found is None:
            position = candidate.end() if candidate["bare"] is None else candidate.start() + 1
            continue
        references.append(found)
        position = found.end
    return tuple(references)


def _read_candidate(text: str, candidate: re.Match[str], skip_letters: str) -> Reference | None:
    """Turn a candidate start into a reference, or None when the grammar does not hold."""
    if candidate["keyword"] is not None:
        start, numbers_at, keyword_led = candidate.start(), candidate.end(), True
    elif candidate["see"] is not None:
        start = numbers_at = candidate.end()
        keyword_led = True
    else:
        start = numbers_at = candidate.start()
        keyword_led = False
        if _VERSION_BEFORE.search(text, max(0, start - _VERSION_BEFORE_WINDOW), start):
            return None
    parsed = _read_expression(text, numbers_at, keyword_led, skip_letters)
    if parsed is None:
        return None
    end, numbers, items = parsed
    items[0] = (start, *items[0][1:])
    return Reference(start, end, numbers, text[start:end], tuple(items))


def _read_expression(
    text: str, position: int, keyword_led: bool, skip_letters: str
) -> tuple[int, tuple[RuleNumber, ...], list[tuple[int, int, tuple[RuleNumber, ...]]]] | None:
    """Read ``item (join [keyword] item)*``; sections alone are items only under a keyword."""
    first = _read_item(text, position, keyword_led, skip_letters)
    if first is None:
        return None
    end, numbers = first
    items = [(position, end, tuple(numbers))]
    while (join := _JOIN.match(text, end)) is not None:
        item_at = join.end()
        keyword = _JOIN_KEYWORD.match(text, item_at)
        if keyword is not None:
            item_at = keyword.end()
        item = _read_item(text, item_at, keyword_led or keyword is not None, skip_letters)
        if item is None:
            break
        items.append((join.end(), item[0], tuple(item[1])))
        end, more = item
        numbers += more
    return end, tuple(dict.fromkeys(numbers)), items


def _read_item(
    text: str, position: int, sections_allowed: bool, skip_letters: str
) -> tuple[int, list[RuleNumber]] | None:
    """Read one number, possibly followed by a range end, at exactly ``position``."""
    match = _NUMBER.match(text, position)
    if match is None or (match["rule"] is None and not sections_allowed):
        return None
    first = RuleNumber.parse(match.group())
    last, end = _read_range_end(text, match.end(), first)
    if last is None:
        return end, [first]
    return end, _expand_range(first, last, skip_letters)


def _read_range_end(text: str, position: int, first: RuleNumber) -> tuple[RuleNumber | None, int]:
    """Read ``–c``, ``–3``, ``–509.1c`` or ``–311`` after ``first``; the kind depends on it."""
    if first.rule is None:
        section = _RANGE_SECTION.match(text, position)
        if section is None:
            return None, position
        return RuleNumber(int(fold_width(section["section"]))), section.end()
    full = _RANGE_NUMBER.match(text, position)
    if full is not None:
        return RuleNumber.parse(full["end"]), full.end()
    if first.letter is not None:
        letter = _RANGE_LETTER.match(text, position)
        if letter is not None:
            return RuleNumber(first.section, first.rule, fold_width(letter["letter"]).lower()), letter.end()
        return None, position
    rule = _RANGE_RULE.match(text, position)
    if rule is not None:
        return RuleNumber(first.section, int(fold_width(rule["rule"]))), rule.end()
    return None, position


def _expand_range(first: RuleNumber, last: RuleNumber, skip_letters: str) -> list[RuleNumber]:
    """List every number from ``first`` to ``last`` when the range is unambiguous.

    A range crossing parents (``509.1c–509.2b``) cannot be filled in without the document,
    and a reversed or huge one is more likely a typo than a citation: both give endpoints.
    """
    if first.depth != last.depth or last <= first:
        return [first, last]
    if first.depth == 0:
        items = [RuleNumber(section) for section in range(first.section, last.section + 1)]
    elif first.section != last.section:
        return [first, last]
    elif first.depth == 1:
        items = [RuleNumber(first.section, rule) for rule in range(first.rule, last.rule + 1)]
    elif first.rule != last.rule:
        return [first, last]
    else:
        items = [
            RuleNumber(first.section, first.rule, letter)
            for letter in _letters_between(first.letter, last.letter, skip_letters)
        ]
    return items if len(items) <= _MAX_EXPANSION else [first, last]


def _letters_between(first: str, last: str, skip_letters: str) -> list[str]:
    """Letters from ``first`` to ``last``; skipped letters are kept only as endpoints."""
    letters = [chr(code) for code in range(ord(first), ord(last) + 1)]
    return [letter for letter in letters if letter not in skip_letters or letter in (first, last)]


def cited_numbers(text: str, *, game: str | None = None) -> tuple[str, ...]:
    """Canonical rule numbers ``text`` cites, in order of first mention, without repeats.

    The form every parser stores in ``Residue.cites``; a ``game`` this grammar does not know
    (a document without one) reads ranges the Magic way, as ``None`` does.
    """
    known = game if game in _GAMES else None
    numbers = (str(number) for ref in find_references(text, game=known) for number in ref.numbers)
    return tuple(dict.fromkeys(numbers))


# Judges' notes add two things around a reference: the game in front (``DM 507.2a``,
# ``MTG CR 309.2a``) and the version after it (``507.2a (1.38)``, ``507.2a（Ver.1.38）``,
# ``509.1a (2024-11-08)``). Both belong to the reference's span, so a link covers them.
# The patterns stay in the syntax Python and JavaScript share: the site's link page runs them.
GAME_TAGS = {game.upper(): game for game in REGISTRY}  # DM, MTG: a game's id in capitals
_GAME_TAG = re.compile(r"(?<![0-9A-Za-z_])(?P<tag>" + "|".join(GAME_TAGS) + r")[ \t\u3000]*(?![\s\S])")
# The keyword of a reference names its game too (games.DOCUMENTS' tags of the comprehensive rules):
# ``CR 509.1a`` is Magic's, ``総合ルール 507.3c`` Duel Masters' (the corpus holds no Japanese Magic rules).
KEYWORD_GAMES = {tag: game for (game, _), kind in DOCUMENTS.items() if kind.numbering == "rule"
                 for tag in kind.tags if tag not in GAME_TAGS}
_KEYWORD_GAME = re.compile("(?P<tag>" + "|".join(sorted(KEYWORD_GAMES, key=lambda t: (-len(t), t))) + ")")
_TAG_WINDOW = 8  # the longest tag with its gap
_VERSION_SUFFIX = re.compile(
    r"[ \t\u3000]?[(（][ \t]*(?:(?:[Vv]er(?:sion)?|[Vv])[.．]?[ \t]*)?"
    r"(?P<version>[0-9０-９]{1,2}[.．][0-9０-９]{1,3}(?:[.．][0-9０-９]{1,2})?|[0-9]{4}-[0-9]{2}-[0-9]{2})"
    r"[ \t]*[)）]"
)


@dataclass(frozen=True)
class NoteReference:
    """A reference as judges write it: optional game tag, the expression, optional version.

    ``items`` splits the span into one part per number or range (the first part starts at the
    tag or keyword, the last ends after the version), so each part can become its own link.
    """

    start: int
    end: int
    numbers: tuple[RuleNumber, ...]
    raw: str
    items: tuple[tuple[int, int, tuple[RuleNumber, ...]], ...]
    game: str | None  # from the tag; None when the note does not say
    version: str | None  # from the suffix, width folded


def find_note_references(text: str, *, game: str | None = None) -> list[NoteReference]:
    """Find references with their game tags and version suffixes (see ``find_references``).

    ``game`` is the game assumed where no tag says otherwise; it only changes range expansion.
    """
    found = []
    for reference in find_references(text, game=game):
        tag = _GAME_TAG.search(text, max(0, reference.start - _TAG_WINDOW), reference.start)
        keyword = _KEYWORD_GAME.match(reference.raw)
        tagged = GAME_TAGS[tag["tag"]] if tag is not None else KEYWORD_GAMES[keyword["tag"]] if keyword else None
        if tagged is not None and tagged != game:
            reference = _expanded_for(text, reference, tagged)
        suffix = _VERSION_SUFFIX.match(text, reference.end)
        start = tag.start() if tag is not None else reference.start
        end = suffix.end() if suffix is not None else reference.end
        items = list(reference.items)
        items[0] = (start, *items[0][1:])
        items[-1] = (items[-1][0], end, items[-1][2])
        version = fold_width(suffix["version"]) if suffix is not None else None
        found.append(NoteReference(start, end, reference.numbers, text[start:end], tuple(items), tagged, version))
    return found


def _expanded_for(text: str, reference: Reference, game: str) -> Reference:
    """The same expression read again with another game's range expansion (letters l and o)."""
    again = find_references(text[reference.start : reference.end], game=game)
    if len(again) != 1 or again[0].raw != reference.raw:
        return reference
    shift = reference.start
    items = tuple((start + shift, end + shift, numbers) for start, end, numbers in again[0].items)
    return Reference(reference.start, reference.end, again[0].numbers, reference.raw, items)


# The grammar as data, for the site's link page: ``notes.assets`` serialises these patterns
# (translated to JavaScript syntax) and tables, so the browser never has a hand-written copy.
GRAMMAR = {
    "candidate": _CANDIDATE,
    "number": _NUMBER,
    "range_number": _RANGE_NUMBER,
    "range_rule": _RANGE_RULE,
    "range_letter": _RANGE_LETTER,
    "range_section": _RANGE_SECTION,
    "join": _JOIN,
    "join_keyword": _JOIN_KEYWORD,
    "version_before": _VERSION_BEFORE,
    "game_tag": _GAME_TAG,
    "keyword_game": _KEYWORD_GAME,
    "version_suffix": _VERSION_SUFFIX,
}
TABLES = {
    "max_expansion": _MAX_EXPANSION,
    "version_before_window": _VERSION_BEFORE_WINDOW,
    "tag_window": _TAG_WINDOW,
    "game_tags": GAME_TAGS,
    "keyword_games": KEYWORD_GAMES,
    "skip_letters": {game or "": letters for game, letters in _SKIP_LETTERS.items()},
    "numbers": {"parts": list(NUMBER_PARTS), "absent": ABSENT, "section_digits": SECTION_DIGITS},
}


# Tournament documents in notes: ``MTR 3.10``, ``IPG 2.1 (Missed Trigger)``, ``競技イベント運営ルール 10.2``,
# ``運営ルール10.2``: a document's tag (games.DOCUMENTS) and a section number (one or two parts).
# An infraction named in brackets, ``〔ゲーム上の誤り ─ 過剰なカードを引いた〕``, is a reference too; which
# section it names is a question for the data (``kb.sections``), not for the grammar.
SECTION_TAGS = {tag: key for key, kind in DOCUMENTS.items() if kind.numbering == "section" for tag in kind.tags}
_SECTION_TAG = "|".join(re.escape(tag) for tag in sorted(SECTION_TAGS, key=lambda t: (-len(t), t)))
_SECTION_REFERENCE = re.compile(
    rf"(?<![A-Za-z0-9_])(?P<tag>{_SECTION_TAG})[ \t\u3000]*(?:(?ai:section|sec\.)[ \t]*|§[ \t]*)?"
    rf"(?P<number>{_D}{{1,2}}(?:{_DOT}{_D}{{1,2}})?)(?!{_D}|{_DOT}{_D})"
    r"(?:[ \t]*[(（](?P<name>[^()（）\n]{1,60})[)）])?"
)
_BRACKETED_NAME = re.compile(r"〔(?P<name>[^〔〕\n]{1,80})〕")


@dataclass(frozen=True)
class SectionReference:
    """A tournament document's section named in a note: by tag and number (``game``, ``document``,
    ``number`` known) or by an infraction's name in brackets (``name`` only; the data decides)."""

    start: int
    end: int
    raw: str
    game: str | None
    document: str | None
    number: str | None
    name: str | None


def overlap_test(spans: Iterable[tuple[int, int]]) -> Callable[[int, int], bool]:
    """A test of whether ``[start, end)`` overlaps one of ``spans``: the spans sorted once, each test a
    bisection (testing every span, a long note's references made linking it quadratic)."""
    ordered = sorted(spans)
    starts = [start for start, _ in ordered]
    reach = list(itertools.accumulate((end for _, end in ordered), max))  # the furthest end so far

    def overlaps(start: int, end: int) -> bool:
        k = bisect.bisect_left(starts, end)  # the spans starting before ``end``
        return k > 0 and reach[k - 1] > start

    return overlaps


def find_section_references(text: str) -> list[SectionReference]:
    """Every section reference in ``text``, in order: tagged numbers, then bracketed names between them."""
    found = []
    for match in _SECTION_REFERENCE.finditer(text):
        game, document = SECTION_TAGS[match["tag"]]
        number = fold_width(match["number"]).rstrip(".")
        found.append(SectionReference(match.start(), match.end(), match.group(), game, document, number,
                                      match["name"]))
    taken = overlap_test((r.start, r.end) for r in found)
    for match in _BRACKETED_NAME.finditer(text):
        if not taken(match.start(), match.end()):
            found.append(SectionReference(match.start(), match.end(), match.group(), None, None, None,
                                          match["name"]))
    return sorted(found, key=lambda r: r.start)


SECTION_GRAMMAR = {"section_reference": _SECTION_REFERENCE, "bracketed_name": _BRACKETED_NAME}
SECTION_TABLES = {"section_tags": {tag: list(key) for tag, key in SECTION_TAGS.items()}}


# How a citation names an infraction. The Duel Masters document separates category and name with
# ``─`` (U+2500) or ``―`` (U+2015), with or without spaces (``ゲーム上の誤り ─過剰なシールドを置いた``),
# Magic's with an em dash; citations in running text use whichever the writer typed. ``name_key``
# folds all of that, so a citation, a heading and a contents entry of one infraction compare equal.
SEPARATORS = "─―—–‒━"  # every dash a publisher prints between an infraction's category and its name
_NAME_SEPARATOR = re.compile(f"\\s*[{SEPARATORS}]\\s*")
_NAME_SPACE = re.compile(r"\s+")


def name_key(text: str) -> str:
    """A folded form of an infraction's (or section's) name: width, case, spaces and separators."""
    folded = unicodedata.normalize("NFKC", text).strip().strip("〔〕[]")
    folded = _NAME_SEPARATOR.sub("—", folded)
    return _NAME_SPACE.sub("", folded).casefold()


def find_infraction(sections: Iterable[Section], key: str) -> Section | None:
    """The section an infraction citation names: an infraction by whole title or by name alone,
    else the section of a category (``〔ゲーム上の誤り〕`` is DM 10., not a passing mention), else
    any section of that title.

    ``key`` is a ``name_key``; ``〔過剰なカードを引いた〕`` names 10.3 by its name alone.
    """
    sections = list(sections)
    infractions = [s for s in sections if s.category is not None and s.name is not None]
    found = next((s for s in infractions if name_key(s.title) == key), None) \
        or next((s for s in infractions if name_key(s.name or "") == key), None)
    if found is not None:
        return found
    if key in {name_key(s.category or "") for s in infractions}:
        return next((s for s in sections if "." not in s.number and name_key(s.title) == key), None)
    # the brackets name a section by its title too: 〔意思疎通〕(4)
    return next((s for s in sections if name_key(s.title) == key), None)
