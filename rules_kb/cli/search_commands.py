"""Full-text search: ``rules-kb search QUERY``, over the same index files and ranking as the site."""

from __future__ import annotations

import argparse

from rules_kb.cli import common
from rules_kb.cli.common import GAME_HELP, LANG_HELP, JoinWords, game_option, lang_option, print_text, warn
from rules_kb.errors import UsageError
from rules_kb.games import GAMES, LANGS
from rules_kb.visible import people_json

ALSO_SHOWN = 6  # older versions named on a result's "also in" line; the rest are counted


def register(commands: argparse._SubParsersAction) -> None:
    help_text = ("search every rule text (Japanese and English: inflections, spelling variants, rule numbers in "
                 "any width, cites:RULE for the texts citing a rule); newest version first, older ones offered")
    sub = commands.add_parser("search", help=help_text, description=help_text)
    sub.add_argument("query", nargs="+", action=JoinWords,
                     help="words (quoted or not), a rule number (507.2a, ５０７．２ａ) or cites:603.2e")
    sub.add_argument("--game", type=game_option, choices=GAMES, help=f"only this game: {GAME_HELP}")
    sub.add_argument("--lang", type=lang_option, choices=LANGS, help=f"only this language: {LANG_HELP}")
    sub.add_argument("--version", help="only rules printed in this version label, shown as they stood in it "
                                       "(an unknown one lists the nearest)")
    sub.add_argument("--limit", type=_count, default=10, help="at most this many results, 1 or more (default 10)")
    sub.add_argument("--json", action="store_true", help="print JSON instead of text")
    sub.set_defaults(handler=run_search)


def _count(raw: str) -> int:
    try:
        value = int(raw)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a whole number: {raw!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be 1 or more, not {value}")
    return value


def run_search(args: argparse.Namespace) -> int:
    from rules_kb.search.cache import SearchIndexDamaged, open_index

    try:
        index = open_index(args.corpus, common.DEFAULT_SEARCH, common.DEFAULT_CACHE, step=common.step)
        result = _ask(index, args)
    except SearchIndexDamaged as exc:
        warn(f"warning: the search index is damaged ({exc}); rebuilding it")
        index = open_index(args.corpus, common.DEFAULT_SEARCH, common.DEFAULT_CACHE, rebuild=True,
                           step=common.step)
        result = _ask(index, args)
    hits, notes = result.hits, result.notes
    if args.json:
        for line in notes:
            common.note(line)
        print(people_json([hit.to_record() for hit in hits], indent=2))
        return 0
    lines = [f"note: {line}" for line in notes]
    if not hits:
        lines.append(f"nothing found for {args.query!r}")
    for hit in hits:
        snippet = "".join(f"[{text}]" if marked else text for text, marked in hit.snippet).replace("\n", " ")
        lines.append(f"{hit.number}  {hit.game} {hit.lang} {hit.version}  {hit.url}")
        if hit.was:
            lines.append("    " + ", ".join(f"was {number} until {until}" for number, until in hit.was))
        lines.append(f"    {snippet}")
        if hit.also:
            labels = [label for label, _ in hit.also]
            more = f" and {len(labels) - ALSO_SHOWN} more" if len(labels) > ALSO_SHOWN else ""
            lines.append(f"    also in {', '.join(labels[:ALSO_SHOWN])}{more}")
    print_text(args, "\n".join(lines))
    return 0


def _ask(index, args: argparse.Namespace):
    from rules_kb.search.query import answer

    if args.version is not None:
        _check_version(index.meta, args.version, args.game, args.lang)
    return answer(index, args.query, game=args.game, lang=args.lang, version=args.version, limit=args.limit)


def _check_version(meta: dict, version: str, game: str | None, lang: str | None) -> None:
    """Refuse a label no game and language searched prints, naming the nearest ones."""
    from rules_kb.ask.versions import nearest_labels

    known: list[str] = []
    for key, labels in meta["versions"].items():
        key_game, key_lang = key.split("/")
        if game in (None, key_game) and lang in (None, key_lang):
            known += [label for label in labels if label not in known]
    if version in known:
        return
    nearest = nearest_labels(version, known)  # by value: 1.47 suggests 1.48, 1.45, ...; a date, the nearest dates
    where = " ".join(part for part in (game, lang) if part)
    raise UsageError(f"no version {version}{' of ' + where if where else ''} (nearest: {', '.join(nearest)})")
