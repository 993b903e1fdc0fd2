"""``rules-kb link``: rule references in a judge's note become permalinks; ``rules-kb audit``: do the
rules a note cites still say, today, what they said when it was written?"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from rules_kb.cli import common
from rules_kb.errors import SourceError
from rules_kb.games import GAMES

NOTE_FORMATS = ("md", "html", "text")  # notes.link.FORMATS (a test keeps them equal; not imported to register)
_SUFFIXES = {".md": "md", ".markdown": "md", ".html": "html", ".htm": "html"}


def register(commands: argparse._SubParsersAction) -> None:
    help_text = "link the rule references in a note (Markdown, HTML or text) to their permalinks"
    sub = commands.add_parser("link", help=help_text, description=(
        f"{help_text}. Prints the linked note; unknown or ambiguous references are reported as "
        "FILE:LINE:COL: problem on stderr, left unlinked, and make the exit status 1."))
    sub.add_argument("file", nargs="?", default="-", help="the note (default: - for standard input)")
    sub.add_argument("--base-url", default="", help="put in front of every permalink, e.g. https://rules.example")
    sub.add_argument("--game", choices=GAMES,
                     help="the game of references without a tag (a tag decides: CR, MTG, MTR, IPG are "
                     "Magic's; DM, 総合ルール, 運営ルール are Duel Masters')")
    when = sub.add_mutually_exclusive_group()
    when.add_argument("--pin", metavar="VERSION", help="link to the text of this version, e.g. 1.38 or 2024-11-08")
    when.add_argument("--as-of", metavar="DATE", help="link to the text in force on this date (YYYY-MM-DD)")
    sub.add_argument("--format", choices=NOTE_FORMATS,
                     help="note format (default: from the file name, .md or .html; otherwise text)")
    sub.add_argument("--check", action="store_true", help="only report problems; print no note")
    sub.set_defaults(handler=run_link)
    _register_audit(commands)


def _register_audit(commands: argparse._SubParsersAction) -> None:
    help_text = "check each rule a note or rulings file cites, at its date, against today's rules"
    sub = commands.add_parser("audit", help=help_text, description=(
        f"{help_text}: unchanged, editorial only, renumbered (same words), changed in substance (when, and the "
        "changed words), split or removed (and where its sentences went). A citation's date is the version "
        "written after it (507.2a (1.38)), else its entry's date tag ([CompRules 2008/02/01], [CR 2019-05-03]: "
        "the tag after it in its paragraph or list item, else the one before), else --as-of. Exit status 1 "
        "when a cited rule changed in substance, was split or was removed."))
    sub.add_argument("file", nargs="?", default="-", help="the note (default: - for standard input)")
    sub.add_argument("--game", type=common.game_option, choices=("dm", "mtg"),
                     help="the game of references without a DM/MTG tag (default: the date tags' game, else "
                     "the one game holding the number)")
    sub.add_argument("--as-of", metavar="DATE", help="the date of citations with no version or tag (YYYY-MM-DD)")
    sub.add_argument("--format", choices=NOTE_FORMATS,
                     help="note format (default: from the file name, .md or .html; otherwise text)")
    sub.add_argument("--json", action="store_true", help="print JSON: counts and one record per citation")
    sub.add_argument("--color", action="store_true", help="colour the word diffs even when not on a terminal")
    sub.set_defaults(handler=run_audit)


def run_audit(args: argparse.Namespace) -> int:
    from rules_kb.notes.audit import audit_note
    from rules_kb.notes.index import NoteIndex, cached_note_index
    from rules_kb.notes.resolve import LinkOptions, check_options
    from rules_kb.render.audit_text import audit_record, audit_text, changed_in_substance

    name = "-" if args.file == "-" else args.file
    text = _read(name)
    fmt = args.format or _SUFFIXES.get(Path(name).suffix.lower(), "text")
    options = LinkOptions(game=args.game, as_of=args.as_of)
    index = NoteIndex(cached_note_index(args.corpus, common.cache(), common.step))
    check_options(options, index)
    findings = common.answer(args, lambda knowledge: audit_note(knowledge, index, text, fmt, options))
    if args.json:
        print(json.dumps(audit_record(name, findings), ensure_ascii=False, indent=2))
    else:
        common.print_text(args, audit_text(name, findings))
    return 1 if changed_in_substance(findings) else 0


def run_link(args: argparse.Namespace) -> int:
    from rules_kb.notes.index import NoteIndex, cached_note_index
    from rules_kb.notes.link import Lines, link_note
    from rules_kb.notes.resolve import LinkOptions, check_options

    name = "-" if args.file == "-" else args.file
    text = _read(name)
    fmt = args.format or _SUFFIXES.get(Path(name).suffix.lower(), "text")
    options = LinkOptions(args.base_url, args.game, args.pin, args.as_of)
    index = NoteIndex(cached_note_index(args.corpus, common.cache(), common.step))
    check_options(options, index)
    linked = link_note(text, fmt, options, index)
    if not args.check:
        sys.stdout.flush()
        sys.stdout.buffer.write(linked.text.encode("utf-8"))
        sys.stdout.buffer.flush()
    lines = Lines(text)
    for problem in linked.problems:
        line, column = lines.line_and_column(problem.offset)
        common.say(f"{name}:{line}:{column}: {problem.raw}: {problem.message}", sys.stderr)
    return 1 if linked.problems else 0


# A judge's note is a page or two; a cap keeps `/dev/zero` or a runaway pipe from filling memory.
MAX_NOTE_BYTES = 8 * 1024 * 1024


def _read(name: str) -> str:
    """The note's text: a regular file (or standard input) of at most ``MAX_NOTE_BYTES``, UTF-8."""
    from rules_kb.ingest.reading import read_source

    if name == "-":
        try:
            data = sys.stdin.buffer.read(MAX_NOTE_BYTES + 1)
        except OSError as exc:
            raise SourceError(name, exc.strerror or str(exc)) from None
        if len(data) > MAX_NOTE_BYTES:
            raise SourceError(name, f"too large: over {MAX_NOTE_BYTES:,} bytes (the limit is {MAX_NOTE_BYTES:,})")
    else:
        data = read_source(Path(name), limit=MAX_NOTE_BYTES)
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise SourceError(name, f"not UTF-8 ({exc.reason})", exc.start) from None
