"""Edits judged on the whole text (English only), for a diff whose stretches were left substantive.

Some edits span several stretches, so they are judged on the whole text (English only), after
the folds above, when a stretch was left substantive; each applies to both texts alike:

* ``dash``: a hyphen or an en dash joining two letters or digits ("506.6a-f" / "506.6a–f",
  2014); a dash before a number ("-1/-1") is never folded;
* ``pronoun``: 2018's gender-neutral wording ("he or she draws" / "they draw", "his or her" /
  "their" / "that player's", "him or her" / "them"), with the verb agreeing;
* ``numeral``: a number in digits or in words ("2" / "two", 2018's example of 801.5b);
* ``list-order``: the items of one list reordered ("turns, phases, or steps" / "steps,
  phases, or turns", 2024's 500.12);
* ``commentary``: a sentence about the document rather than the game added or dropped ("This
  is a change from previous rules.", 2016's 510.2);
* ``wording``: a phrase in ``EQUIVALENT_PHRASES``, each one seen in a release pair and read
  in context there (the list stays short: a phrase belongs only if it means the same in every
  rule that uses it).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import lru_cache

from rules_kb.compare.editorial import DROP_PUNCTUATION, FOLDS, WHICH, WHITESPACE

# --- edits judged on the whole text (see module doc) ----------------------------------------

# Subject forms whose verb agrees with "they" once folded; objects and possessives follow.
_GENDERED_SUBJECT = re.compile(r"\b(?:he or she|she or he|that player)\b(\s+)([a-z']+)")
_GENDERED = (
    (re.compile(r"\b(?:himself or herself|herself or himself)\b"), "themselves"),
    (re.compile(r"\b(?:him or her|her or him)\b"), "them"),
    (re.compile(r"\b(?:his or her|her or his|that player's)\b"), "their"),
    (re.compile(r"\b(?:he or she|she or he)\b"), "they"),
)
_THIRD_PERSON = {"is": "are", "has": "have", "was": "were", "does": "do"}
# Verbs that keep their form after "they" (modals, past tenses the rules use).
_SAME_AFTER_THEY = frozenset({"can", "could", "may", "might", "must", "shall", "should", "will", "would",
                              "did", "had", "chose", "controlled", "cast", "left", "owned", "put", "not"})
_SIBILANT_ES = ("sses", "shes", "ches", "xes", "zes", "oes")
# A list of one-word items, each with an optional article: "turns, phases, or steps".
_ITEM = r"(?:(?:a|an|the) )?[a-z]+"
_LIST = re.compile(rf"\b{_ITEM}(?:, {_ITEM})+,? (?:or|and) {_ITEM}\b")
_LIST_SEPARATOR = re.compile(r",? (?:or|and) |, ")
_COMMENTARY = re.compile(r"\s*\bthis (?:rule )?is a change from (?:the )?previous rules\.?")
# Phrases that mean the same wherever the rules use them; each with the edit where it was read.
EQUIVALENT_PHRASES: tuple[tuple[str, str, str], ...] = (
    ("whether or not", "whether", "2018-04-27 805.3a"),
    ("blocks the named creature", "blocks the specified creature", "2024-11-08 509.3d (was 509.5d)"),
    ("if any of the creatures require", "if any of the chosen creatures require", "2009-07-08 508.1g, 509.1d"),
    ("if the effect that put a creature", "if the effect that puts a creature", "2016-09-30 508.3a"),
)


def rewording_reason(old: str, new: str) -> str | None:
    """Name an English edit that only shows on the whole text, or None (see module doc)."""
    for reason, a, b in zip(_REASONS, _folded(old), _folded(new), strict=True):
        if a == b:
            return reason
    return None


@lru_cache(maxsize=4096)
def _folded(text: str) -> tuple[str, ...]:
    """The text as each whole-text fold leaves it (each fold on top of those before), finished.

    Every fold reads one text alone, so a text's forms are made once however many texts it is
    compared with: the compare data diffs each wording of a rule with every other one (at the
    whole history it asks for 64,096 texts' forms, 52,933 of them kept here)."""
    forms, text = [], _prepare(text)
    for _, fold in _WHOLE_FOLDS:
        text = fold(text)
        forms.append(_finish(text))
    return tuple(forms)


def forget_folds() -> None:
    """Drop the folds kept per text (``compare.diff.forget_texts``)."""
    _folded.cache_clear()


def _prepare(text: str) -> str:
    for reason, fold in FOLDS:
        if reason == "hyphenation":
            break
        text = fold(text)
    return text


_HYPHEN_IN_WORD = re.compile(r"(?<=[a-z])[-\u2010\u2011 ](?=[a-z])")


def _finish(text: str) -> str:
    """The rest of the folds, and punctuation dropped (punctuation alone is editorial); dashes
    stay ("Artifact -- Equipment" / "Artifact ? Equipment" is a lossy conversion, shown)."""
    text = WHICH.sub("that", text)
    text = text.translate(DROP_PUNCTUATION)
    return _HYPHEN_IN_WORD.sub("", WHITESPACE.sub(" ", text).strip())


def _fold_pronouns(text: str) -> str:
    text = _GENDERED_SUBJECT.sub(lambda m: "they" + m.group(1) + _plural_verb(m.group(2)), text)
    for pattern, replacement in _GENDERED:
        text = pattern.sub(replacement, text)
    return _GENDERED_SUBJECT.sub(lambda m: "they" + m.group(1) + _plural_verb(m.group(2)), text)


def _plural_verb(word: str) -> str:
    """The verb after "he or she" as it reads after "they" (draws -> draw, is -> are)."""
    if word in _THIRD_PERSON:
        return _THIRD_PERSON[word]
    if word in _SAME_AFTER_THEY or word.endswith(("ed", "ss")) or not word.endswith("s"):
        return word
    if word.endswith("ies") and len(word) > 4:
        return word[:-3] + "y"
    if word.endswith(_SIBILANT_ES):
        return word[:-2]
    return word[:-1]


def _sort_lists(text: str) -> str:
    return _LIST.sub(lambda m: ", ".join(sorted(_LIST_SEPARATOR.split(m.group(0)))), text)


_NUMBER_WORDS = ("zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
                 "eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen",
                 "nineteen", "twenty")
_NUMBER_WORD = re.compile(r"\b(" + "|".join(_NUMBER_WORDS) + r")\b")


def _fold_numerals(text: str) -> str:
    return _NUMBER_WORD.sub(lambda m: str(_NUMBER_WORDS.index(m.group(1))), text)


def _drop_commentary(text: str) -> str:
    return _COMMENTARY.sub("", text)


def _fold_equivalent_phrases(text: str) -> str:
    """Each phrase and its equivalent become one mark, longest phrase first ("whether or not"
    before "whether")."""
    marks = sorted(((phrase, f"\x00{i}\x00") for i, entry in enumerate(EQUIVALENT_PHRASES) for phrase in entry[:2]),
                   key=lambda pm: -len(pm[0]))
    for phrase, mark in marks:
        text = text.replace(phrase, mark)
    return text


_RANGE_DASH = re.compile(r"(?<=[a-z0-9])[\u2010\u2011\u2012\u2013](?=[a-z0-9])")


def _fold_range_dashes(text: str) -> str:
    return _RANGE_DASH.sub("-", text)


_WHOLE_FOLDS: tuple[tuple[str, Callable[[str], str]], ...] = (
    ("dash", _fold_range_dashes),
    ("pronoun", _fold_pronouns),
    ("numeral", _fold_numerals),
    ("list-order", _sort_lists),
    ("commentary", _drop_commentary),
    ("wording", _fold_equivalent_phrases),
)
_REASONS = tuple(reason for reason, _ in _WHOLE_FOLDS)
