"""The static site: build it, serve it."""

from __future__ import annotations

import argparse
from pathlib import Path

from rules_kb.cli import common
from rules_kb.cli.common import REPOSITORY

DEFAULT_SITE = REPOSITORY / "build" / "site"


def register(commands: argparse._SubParsersAction) -> None:
    build = commands.add_parser(
        "build", help="build the static site (pages, JSON API) into build/site",
        description="Ingest the corpus, build the knowledge base, generate every page and JSON file, run "
        "mkdocs (strict) and put the site in --out, replacing it only if the build succeeded. A folder that is "
        "not empty and not a previous build is refused, never emptied.")
    build.add_argument("--out", type=Path, default=DEFAULT_SITE,
                       help="output folder: missing, empty or a previous build (default: build/site)")
    build.set_defaults(handler=run_build)

    serve = commands.add_parser("serve", help="serve the built site on 127.0.0.1",
                                description="Serve a built site on 127.0.0.1 until interrupted (Ctrl-C).")
    serve.add_argument("--port", type=int, default=8000, help="port (default 8000; 0 picks a free one)")
    serve.add_argument("--dir", type=Path, default=DEFAULT_SITE, help="the built site (default: build/site)")
    serve.set_defaults(handler=run_serve)


def run_build(args: argparse.Namespace) -> int:
    from rules_kb.site.build import build_site

    report = build_site(args.corpus, args.out, common.cache())
    timings = ", ".join(f"{name} {seconds:.1f} s" for name, seconds in report.seconds.items())
    reused = f", {report.reused} of them reused from the previous build" if report.reused else ""
    print(f"built {report.pages} pages ({report.files} files{reused}) in {report.out} ({timings})")
    print(f"open it with: rules-kb serve --dir {report.out}   (then http://127.0.0.1:8000/)")
    return 0


def run_serve(args: argparse.Namespace) -> int:
    from rules_kb.site.serve import make_server

    server = make_server(args.dir, args.port)
    print(f"serving {args.dir} at http://127.0.0.1:{server.server_address[1]}/ (Ctrl-C to stop)", flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()
    return 0
