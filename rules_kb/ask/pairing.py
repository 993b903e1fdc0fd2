"""Whether two languages shown side by side state the same rule.

A number is not a rule: Duel Masters renumbered block declaration in 2021, and the English
translation labelled 1.38 still has the old structure, so its 507.2a is today's Japanese
507.3b. Wherever a Japanese and an English text are shown together, this module says when
they do not state the same rule, from the curated correspondences (``corpus/correspondences.toml``)
and the lag detection ``explain`` uses (a translation release that crossed a change date
with editorial edits only).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from rules_kb.assemble.knowledge import Knowledge
    from rules_kb.model import RuleText

# ``story`` (and the alignment it reads) is imported only when a Japanese and an English text
# are shown together: a lookup of a one-language rule never loads it.


def pairing_notes(knowledge: Knowledge, texts: list[RuleText]) -> list[str]:
    """Warnings for every Japanese/English pair among ``texts`` that may not state the same rule."""
    notes: list[str] = []
    if not any(t.lang == "ja" for t in texts) or not any(t.lang == "en" for t in texts):
        return notes
    for game in sorted({t.game for t in texts}):
        japanese = [t for t in texts if t.game == game and t.lang == "ja"]
        english = [t for t in texts if t.game == game and t.lang == "en"]
        if not japanese or not english:
            continue
        for en in english:
            notes.extend(_correspondence_notes(knowledge, game, en, japanese))
            notes.extend(_lag_notes(knowledge, game, en, japanese))
            notes.extend(_version_note(en, ja) for ja in japanese if ja.version != en.version)
    return list(dict.fromkeys(notes))


def _correspondence_notes(knowledge: Knowledge, game: str, en: RuleText, japanese: list[RuleText]) -> list[str]:
    out = []
    for c in knowledge.correspondences:
        if c.game != game or c.old[0] != "en" or c.old[1] != en.version or c.new[0] != "ja":
            continue
        for ja in japanese:
            if c.old[2] == en.number and c.new[2] != ja.number == en.number:
                out.append(f"NOT THE SAME RULE: English {en.version} {en.number} is the rule numbered {c.new[2]} "
                           f"in Japanese since the {c.change} change ({c.meaning}) [corpus/correspondences.toml]")
            elif c.new[2] == ja.number and c.old[2] != en.number == ja.number:
                out.append(f"NOT THE SAME RULE: Japanese {ja.number} is numbered {c.old[2]} in English {en.version} "
                           f"({c.meaning}) [corpus/correspondences.toml]")
    return out


def _lag_notes(knowledge: Knowledge, game: str, en: RuleText, japanese: list[RuleText]) -> list[str]:
    from rules_kb.ask.story import notices_about, translation_lags, version_chains
    from rules_kb.compare.alignment import Scope

    scope = Scope(rule=en.number)
    notices = notices_about(knowledge, game, scope)
    if not notices:
        return []
    lags = translation_lags(knowledge, game, version_chains(knowledge, game, scope, ("en",)), notices)
    out = []
    for lag in lags:
        newer = [ja for ja in japanese if ja.date and lag.crossed[-1] <= ja.date]
        if lag.new_version == en.version and newer:
            out.append(f"English {en.version} may state another rule than Japanese "
                       f"{', '.join(ja.version for ja in newer)}: {lag.describe()}")
    return out


def _version_note(en: RuleText, ja: RuleText) -> str:
    return (f"versions differ: English {en.version} ({en.date or 'undated'}) beside Japanese {ja.version} "
            f"({ja.date or 'undated'}); the newest of each language is shown")
