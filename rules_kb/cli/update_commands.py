"""``rules-kb updates``: which releases the publishers list that the corpus lacks, and fetching them."""

from __future__ import annotations

import argparse
import sys

from rules_kb.cli.common import game_option, say
from rules_kb.games import CR, DOCUMENTS, GAME_SHORT_NAMES, GAMES, document_kind


def register(commands: argparse._SubParsersAction) -> None:
    from rules_kb.releases.publishers import DM_RULES_URL, WIZARDS_RULES_URL

    updates = commands.add_parser(
        "updates", help="say which releases the publishers' rule pages list that are newer than the corpus",
        description="Read Wizards' rules page (Comprehensive Rules as TXT, PDF, DOCX; the Tournament Rules and "
        "the Infraction Procedure Guide as PDF) and the Duel Masters rule page (the 総合ゲームルール PDF, its "
        "version and date; the 競技イベント運営ルール PDF), and say which releases are newer than "
        "the corpus. With --fetch, download them, check each is what its link claims, and add them with "
        "the checks of add. A page that cannot be fetched or no longer shows these links, or a bad "
        "download, is one error line and changes nothing.")
    updates.add_argument("--fetch", action="store_true", help="download and add the newer releases")
    updates.add_argument("--game", type=game_option, choices=GAMES, help="only this game's publisher")
    updates.add_argument("--document", choices=sorted({document for _, document in DOCUMENTS}),
                         help="only this document: cr (the comprehensive rules), mtr, ipg or competition "
                         "(default: every document the pages link)")
    updates.add_argument("--wizards-url", default=WIZARDS_RULES_URL, metavar="URL",
                         help=f"Wizards' rules page (default: {WIZARDS_RULES_URL})")
    updates.add_argument("--dm-url", default=DM_RULES_URL, metavar="URL",
                         help=f"the Duel Masters rule page (default: {DM_RULES_URL})")
    updates.set_defaults(handler=run_updates)


def run_updates(args: argparse.Namespace) -> int:
    """Each publisher's page is read even when another cannot be (offline, both are named); a page not
    read is one ``Error:`` line, exit 1, and then nothing is fetched."""
    from rules_kb.cli.common import cache
    from rules_kb.cli.corpus_commands import addition_lines, refresh_questions
    from rules_kb.errors import SourceError
    from rules_kb.releases.updates import check_updates, fetch_updates

    pages = {game: url for game, url in (("mtg", args.wizards_url), ("dm", args.dm_url))
             if args.game in (None, game)}
    documents = (args.document,) if args.document else None
    statuses, failures = [], []
    for game, url in pages.items():
        try:
            statuses += check_updates(args.corpus, {game: url}, documents=documents)
        except SourceError as exc:
            failures.append(exc)
    for status in statuses:
        name = _watched_name(status.game, status.document)
        if not status.listed:
            say(f"{name}: {status.page} links no release of it (the page may have moved it); not checked")
            continue
        held = status.newest_held or "nothing"
        if status.newer:
            listed = "; ".join(release.describe() for release in status.newer)
            say(f"{name}: the corpus's newest is {held}; newer on {status.page}: {listed}")
        else:
            newest = status.listed[-1].describe()
            say(f"{name}: up to date (the corpus's newest is {held}; {status.page} lists {newest})")
    if failures:
        if len(failures) > 1 and len({exc.problem for exc in failures}) == 1:  # offline: one line says it
            say(f"Error: {failures[0].problem}: {', '.join(exc.document for exc in failures)}", sys.stderr)
        else:
            for exc in failures:
                say(f"Error: {exc}", sys.stderr)
        return 1
    if args.fetch and any(status.newer for status in statuses):
        additions = fetch_updates(args.corpus, statuses, cache())
        for addition in additions:
            for line in addition_lines(addition):
                say(line)
        if additions:
            refresh_questions(args.corpus)
    return 0


def _watched_name(game: str, document: str) -> str:
    """``Magic (Wizards)``, ``Magic MTR (Wizards)``, ``Duel Masters 競技イベント運営ルール (official, ja)``."""
    what = GAME_SHORT_NAMES[game]
    if document != CR:
        what = f"{what} {document_kind(game, document).short}"
    return f"{what} (Wizards)" if game == "mtg" else f"{what} (official, ja)"
