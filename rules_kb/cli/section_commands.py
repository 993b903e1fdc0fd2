"""``show`` of a tournament document's section: by document and number, or by an infraction's name.

Asked before the rules: ``show "MTR 3.10"`` is no rule number, and ``show 'Hidden Card Error'`` no
glossary term. A name that is neither a section's nor an infraction's is left to the glossary.
"""

from __future__ import annotations

import argparse

from rules_kb.cli.common import answer, print_text
from rules_kb.visible import people_json


def show_sections(args: argparse.Namespace) -> int | None:
    """Print the sections the argument names and return 0, or None when it names none."""
    from rules_kb.ask.glossary import looks_like_name
    from rules_kb.ask.sections import answer_section, find_sections, is_section_question
    from rules_kb.render.section_text import sections_list_text

    numbered = is_section_question(args.rule)
    if not numbered and (not looks_like_name(args.rule) or _is_rule(args.rule)):
        return None

    def ask(knowledge):
        found = find_sections(knowledge, args.rule, args.version)
        found = [s for s in found if args.game in (None, s.game) and args.lang in (None, s.lang)]
        return [answer_section(knowledge, section) for section in found]

    found = answer(args, ask)
    if not found:
        return None
    if args.json:
        print(people_json([a.to_record() for a in found], indent=2))
    else:
        print_text(args, sections_list_text(found))
    return 0


def _is_rule(raw: str) -> bool:
    from rules_kb.ask.arguments import rule_argument
    from rules_kb.errors import RuleNotFound

    try:
        rule_argument(raw)
    except RuleNotFound:
        return False
    return True
