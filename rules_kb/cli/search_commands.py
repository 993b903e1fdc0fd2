"""Full-text search: ``rules-kb search QUERY``, over the same index files and ranking as the site."""

from __future__ import annotations

import argparse
import json

from rules_kb.cli import common


def register(commands: argparse._SubParsersAction) -> None:
    help_text = ("search every rule text (Japanese and English: inflections, spelling variants, rule numbers in "
                 "any width, cites:RULE for the texts citing a rule); newest version first, older ones offered")
    sub = commands.add_parser("search", help=help_text, description=help_text)
    sub.add_argument("query", help="words, a rule number (507.2a, ５０７．２ａ) or cites:603.2e")
    sub.add_argument("--game", choices=("dm", "mtg"), help="only this game")
    sub.add_argument("--lang", choices=("ja", "en"), help="only this language")
    sub.add_argument("--version", help="only rules printed in this version label, shown as they stood in it")
    sub.add_argument("--limit", type=int, default=10, help="at most this many results (default 10)")
    sub.add_argument("--json", action="store_true", help="print JSON instead of text")
    sub.set_defaults(handler=run_search)


def run_search(args: argparse.Namespace) -> int:
    from rules_kb.search.cache import open_index
    from rules_kb.search.query import search

    index = open_index(args.corpus, common.DEFAULT_SEARCH, common.DEFAULT_CACHE)
    hits = search(index, args.query, game=args.game, lang=args.lang, version=args.version, limit=max(args.limit, 0))
    if args.json:
        print(json.dumps([hit.to_record() for hit in hits], ensure_ascii=False, indent=2))
        return 0
    if not hits:
        print(f"nothing found for {args.query!r}")
    for hit in hits:
        snippet = "".join(f"[{text}]" if marked else text for text, marked in hit.snippet).replace("\n", " ")
        print(f"{hit.number}  {hit.game} {hit.lang} {hit.version}  {hit.url}")
        print(f"    {snippet}")
        if hit.also:
            print(f"    also in {', '.join(label for label, _ in hit.also)}")
    return 0
