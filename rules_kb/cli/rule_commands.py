"""Questions about one rule: show, refs, history, analogue."""

from __future__ import annotations

import argparse
import shlex

from rules_kb.cli.common import (
    GAME_HELP,
    LANG_HELP,
    RULE_HELP,
    JoinWords,
    answer,
    game_option,
    lang_option,
    print_text,
)
from rules_kb.games import GAMES, LANGS
from rules_kb.visible import people_json

# Registering these commands imports no stage; each handler imports what it answers with.


def register(commands: argparse._SubParsersAction) -> None:
    def rule_command(name: str, help_text: str, handler, *, filters: bool = True) -> argparse.ArgumentParser:
        sub = commands.add_parser(name, help=help_text, description=help_text)
        sub.add_argument("rule", nargs="+", action=JoinWords,
                         help=RULE_HELP + "; a name of several words needs no quotes")
        sub.add_argument("--game", type=game_option, choices=GAMES,
                         help=f"only this game: {GAME_HELP} (default: every game with the number)")
        if filters:
            sub.add_argument("--lang", type=lang_option, choices=LANGS, help=f"only this language: {LANG_HELP}")
        sub.add_argument("--json", action="store_true", help="print JSON instead of text")
        sub.set_defaults(handler=handler)
        return sub

    show = rule_command("show", "print a rule's text (newest version of each game and language unless --version); "
                        "a name (deathtouch, ブロッククリーチャー) prints its glossary entry and the rules it "
                        "points to", run_show)
    show.add_argument("--version", help="the version label, e.g. 1.38 or 2008-10-01 (an unknown one lists the nearest)")
    show.add_argument("--all", action="store_true",
                      help="also print every rule under it, in the same version (show 507 --all: the whole section)")
    refs = rule_command("refs", "list the rule texts and glossary terms that cite a rule, newest version first",
                        run_refs, filters=False)
    refs.add_argument("--version", help="only citations in this version, e.g. 1.48 or 2024-11-08")
    rule_command("history", "every version and language of a rule, oldest first, with provenance and notices; "
                            "consecutive identical versions shown once",
                 run_history)
    rule_command("analogue", "the rule's counterpart in the other game (Duel Masters <-> Magic), with evidence",
                 run_analogue, filters=False)


def _read_rule(args: argparse.Namespace, knowledge) -> tuple:
    """The rule and the game to ask about (the one game that has it, or every game when both do)."""
    from rules_kb.ask.arguments import choose_games, require_language, rule_argument

    number = rule_argument(args.rule)
    choice = choose_games(knowledge, number, args.game)
    require_language(knowledge, number, choice.games, getattr(args, "lang", None))
    return number, (choice.games[0] if len(choice.games) == 1 else None)


def run_show(args: argparse.Namespace) -> int:
    from rules_kb.ask.arguments import check_version
    from rules_kb.ask.chains import gone_notes
    from rules_kb.ask.pairing import pairing_notes
    from rules_kb.ask.query import show, with_subrules
    from rules_kb.render.textformat import format_text

    def ask(knowledge):
        number, game = _read_rule(args, knowledge)
        if args.version is not None:
            check_version(knowledge, args.version, (game,) if game else GAMES, args.lang)
        texts = show(knowledge, number, game, args.lang, args.version)
        if args.all:
            texts = with_subrules(knowledge, texts)
        gone = [gone_notes(knowledge, [text]) if args.version is None else [] for text in texts]
        pairing = {g: pairing_notes(knowledge, [t for t in texts if t.game == g]) for g in {t.game for t in texts}}
        return texts, gone, [pairing[text.game] for text in texts]

    from rules_kb.cli.section_commands import show_sections

    if (shown := show_sections(args)) is not None:  # `show "MTR 3.10"`, `show 'Hidden Card Error'`
        return shown
    if _is_name(args.rule):
        return _show_term(args)  # `show deathtouch`: a glossary term or keyword ability by name
    texts, gone, pairing = answer(args, ask)
    if args.json:  # each text with the warnings about it: a gone number, another rule in the other language
        print(people_json([{**text.to_record(), "warnings": [*gone[i], *pairing[i]]} for i, text in enumerate(texts)],
                          indent=2))
        return 0
    notes = dict.fromkeys(line for lines in (*gone, *pairing) for line in lines)
    print_text(args, "\n".join([*(f"! {n}" for n in notes), *(format_text(text) for text in texts)]))
    return 0


def _is_name(raw: str) -> bool:
    """Whether the argument is a name (``deathtouch``) rather than a rule reference; a string that is
    neither (``5072a`` is one mistyped, and says so) raises the rule's error."""
    from rules_kb.ask.arguments import rule_argument
    from rules_kb.ask.glossary import looks_like_name
    from rules_kb.errors import RuleNotFound

    try:
        rule_argument(raw)
    except RuleNotFound:
        if looks_like_name(raw):
            return True
        raise
    return False


def _no_such_name(knowledge, args: argparse.Namespace):
    """The error for a name nothing holds, with the nearest names in either language and the search to try."""
    from rules_kb.ask.glossary import nearest_names
    from rules_kb.errors import UsageError

    nearest = nearest_names(knowledge, args.rule, args.game)
    hint = f"nearest terms: {', '.join(nearest)}; " if nearest else ""
    hint = f" ({hint}rules-kb search {shlex.quote(args.rule)} looks for it in the rule texts)"
    return UsageError(f"no rule, glossary term or keyword ability named {args.rule!r}{hint}")


def _show_term(args: argparse.Namespace) -> int:
    """A name that is no rule: its glossary entries and keyword rules, or the error naming the nearest names."""
    from rules_kb.ask.glossary import answers_json, find_terms
    from rules_kb.errors import UsageError
    from rules_kb.render.glossary_text import term_text

    def ask(knowledge):
        found = find_terms(knowledge, args.rule, args.game, args.lang)
        if not found:
            raise _no_such_name(knowledge, args)
        if args.version is not None:
            raise UsageError(f"{args.rule!r} is a glossary term: --version applies to rules (the newest wording "
                             "is shown, with the versions that hold it)")
        return found

    found = answer(args, ask)
    if args.json:
        print(answers_json(found))
        return 0
    print_text(args, "\n\n".join(term_text(a) for a in found))
    return 0


def run_refs(args: argparse.Namespace) -> int:
    from rules_kb.ask.arguments import check_version
    from rules_kb.ask.query import citations_of
    from rules_kb.render.textformat import citations_text

    def ask(knowledge):
        number, game = _read_rule(args, knowledge)
        if args.version is not None:
            check_version(knowledge, args.version, (game,) if game else GAMES)
        return number, citations_of(knowledge, number, game, args.version)

    number, found = answer(args, ask)
    if args.json:
        print(people_json([c.__dict__ for c in found], indent=2))
        return 0
    print_text(args, citations_text(number, found, args.version))
    return 0


def run_history(args: argparse.Namespace) -> int:
    from rules_kb.ask.chains import gone_notes
    from rules_kb.ask.query import (
        documents_about,
        era_starts,
        history,
        history_record,
        newest_of,
        renumbering_of,
    )
    from rules_kb.render.textformat import history_text

    if _is_name(args.rule):
        return _history_term(args)  # `history deathtouch`: every wording of a glossary term

    def ask(knowledge):
        number, game = _read_rule(args, knowledge)
        if args.json:  # the record the site's /api/{game}/rule/{rule}.json holds
            return history_record(knowledge, number, game, args.lang)
        texts = history(knowledge, number, game, args.lang)
        games = sorted({t.game for t in texts})
        documents = {g: documents_about(knowledge, number, g) for g in games}
        moves = {g: renumbering_of(knowledge, number, g) for g in games}
        return texts, era_starts(knowledge, texts), documents, moves, gone_notes(knowledge, newest_of(texts))

    result = answer(args, ask)
    if args.json:
        print(people_json(result, indent=2))
        return 0
    print_text(args, history_text(*result))
    return 0


def _history_term(args: argparse.Namespace) -> int:
    from rules_kb.ask.glossary import find_terms, term_histories
    from rules_kb.render.glossary_text import term_history_text

    def ask(knowledge):
        histories = term_histories(knowledge, args.rule, args.game, args.lang)
        covered = {(h.game, h.lang) for h in histories}
        others = [a for a in find_terms(knowledge, args.rule, args.game, args.lang)
                  if a.source != "glossary" and (a.game, a.lang) not in covered]
        if not histories and not others:
            raise _no_such_name(knowledge, args)
        return histories, others

    histories, others = answer(args, ask)
    if args.json:
        print(people_json([*(h.to_record() for h in histories), *(a.to_record() for a in others)], indent=2))
        return 0
    print_text(args, term_history_text(histories, others))
    return 0


def run_analogue(args: argparse.Namespace) -> int:
    from rules_kb.ask.chains import analogues_of
    from rules_kb.render.textformat import analogues_text

    def ask(knowledge):
        number, game = _read_rule(args, knowledge)
        return number, analogues_of(knowledge, number, game)

    number, found = answer(args, ask)
    if args.json:
        print(people_json([row.to_record() for row in found], indent=2))
        return 0
    print_text(args, analogues_text(number, found))
    return 0
