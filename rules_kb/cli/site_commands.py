"""The static site: build it, serve it, check it against a host's limits."""

from __future__ import annotations

import argparse
import textwrap
from pathlib import Path

from rules_kb.cli import common
from rules_kb.places import BUILD
from rules_kb.steps import record_step

DEFAULT_SITE = BUILD / "site"


def register(commands: argparse._SubParsersAction) -> None:
    build = commands.add_parser(
        "build", help="build the static site (pages, JSON API) into build/site",
        description="Ingest the corpus, build the knowledge base (or read it back from the signed snapshot that "
        "the last build with --graph or --store, or an add, wrote of the same inputs), generate every page and "
        "JSON file, run "
        "mkdocs (strict) and put the site in --out, replacing it only if the build succeeded. A folder that is "
        "not empty and not a previous build is refused, never emptied. When nothing it depends on changed "
        "since the last build into --out (the corpus, the code, the site's sources, the base URL; its files "
        "and --graph as that build left them; the store current), it says so and leaves them as they are.")
    build.add_argument("--out", type=Path, default=DEFAULT_SITE,
                       help="output folder: missing, empty or a previous build (default: build/site)")
    build.add_argument("--graph", type=Path, metavar="PATH",
                       help="also write the graph as node-link JSON (as graph export does) from the same knowledge "
                            "base")
    build.add_argument("--base-url", metavar="URL", default=None,
                       help="where the site will be published (https://host/prefix/): the feeds and sitemap.xml "
                            "give absolute addresses under it; pages link relatively and work under any prefix "
                            "(default: http://127.0.0.1:8000/, where serve serves it)")
    build.add_argument("--store", action="store_true",
                       help="also write the knowledge store when it is not current (as the store command does), "
                            "from the same knowledge base: make build builds it once for all three")
    build.set_defaults(handler=run_build)

    serve = commands.add_parser("serve", help="serve the built site on 127.0.0.1",
                                description="Serve a built site on 127.0.0.1 until interrupted (Ctrl-C).")
    serve.add_argument("--port", type=int, default=8000, help="port (default 8000; 0 picks a free one)")
    serve.add_argument("--dir", type=Path, default=DEFAULT_SITE, help="the built site (default: build/site)")
    serve.set_defaults(handler=run_serve)

    publish = commands.add_parser(
        "publish", help="check the built site against a free static host's limits",
        description="Measure the built site (files, bytes, largest file) and check it against the free plan of a "
        "static host and against the project's own budget (20,000 files, 300 MB, 25 MiB a file); name every "
        "limit it is over and exit 1 if any. The upload itself is the host's step (README: Publish the site).")
    publish.add_argument("--check", action="store_true", required=True,
                         help="check only (required: the upload is the host's own step)")
    publish.add_argument("--host", choices=("github", "cloudflare", "gitlab"), action="append", required=True,
                         help="the host to check against (repeat for several)")
    publish.add_argument("--dir", type=Path, default=DEFAULT_SITE, help="the built site (default: build/site)")
    publish.set_defaults(handler=run_publish)


def run_build(args: argparse.Namespace) -> int:
    from rules_kb import links
    from rules_kb.assemble.caches import cache_key, file_stats, mark_used
    from rules_kb.assemble.knowledge import build_knowledge, read_snapshot
    from rules_kb.assemble.parallel import Beside, can_fork
    from rules_kb.assemble.stored import store_current
    from rules_kb.errors import UsageError
    from rules_kb.render.output import output_folder
    from rules_kb.search.cache import DIGESTS, index_intact, share_index
    from rules_kb.search.query import INDEX_DIR
    from rules_kb.site.build import build_site
    from rules_kb.site.reuse import MANIFEST
    from rules_kb.site.unchanged import build_inputs, outputs_current, record_build

    base_url = links.base_url(args.base_url) if args.base_url is not None else links.DEFAULT_BASE_URL
    if base_url is None:
        raise UsageError(f"--base-url {args.base_url!r}: not a site's address (http:// or https://, a host, "
                         "an optional path; no query or fragment)")
    key, files = cache_key(args.corpus), file_stats(args.corpus)  # what the site's search index is built from
    inputs = build_inputs(key, files, base_url)
    if (not args.store or store_current(args.corpus, common.cache())) \
            and outputs_current(common.cache(), args.out, inputs, args.graph):
        if not index_intact(common.DEFAULT_SEARCH / key, args.corpus):  # the CLI's index, as a build leaves it
            share_index(args.out / INDEX_DIR, common.DEFAULT_SEARCH / key, files)
        mark_used(common.DEFAULT_SEARCH / key / DIGESTS)
        outputs = " and ".join(str(path) for path in (args.out, args.graph) if path is not None)
        print("nothing changed since the last build (the corpus, the code, the site's sources, the base URL)")
        print(textwrap.fill(f"{outputs} left as they are" + (", the store current" if args.store else ""), 100,
                            initial_indent="  ", subsequent_indent="    ", break_on_hyphens=False,
                            break_long_words=False))  # a path stays whole, to be copied
        print(f"open it with: rules-kb serve --dir {args.out}   (then http://127.0.0.1:8000/)")
        return 0
    knowledge, beside, said = None, None, []
    if args.graph is not None or args.store:
        output_folder(args.out, MANIFEST)  # refused before any work, as build_site would
        with record_step("knowledge"):
            knowledge = read_snapshot(args.corpus, common.cache())
            snapshot = (key, files) if knowledge is None else None  # built now: the next build reads it back
            knowledge = knowledge or build_knowledge(args.corpus, common.cache())
        if can_fork():  # the graph, the store and the snapshot written meanwhile, from the same knowledge base
            from rules_kb.assemble.stored import store_path

            where = args.graph if args.graph is not None else store_path(args.corpus, common.cache())
            beside = Beside(str(where), _write_graph_and_store, knowledge, args, snapshot)  # names what it writes
        else:
            said = _write_graph_and_store(knowledge, args, snapshot)
    try:
        report = build_site(args.corpus, args.out, common.cache(), knowledge=knowledge, base_url=base_url,
                            search_index=common.DEFAULT_SEARCH / key)
    except BaseException:
        if beside is not None:
            beside.cancel()
        raise
    if beside is not None:
        said = beside.result()
    for line in said:
        print(line)
    if not report.index_linked:  # else the CLI's index is the site's already
        share_index(report.out / INDEX_DIR, common.DEFAULT_SEARCH / key, files)  # `search` reads it: no second index
    mark_used(common.DEFAULT_SEARCH / key / DIGESTS)  # the current index, linked or shared: kept longest
    record_build(common.cache(), report.out, inputs, args.graph)  # last: the next build with nothing changed stops
    kept = [f"{report.reused} pages of the previous build reused"] if report.reused else []
    kept += [f"{report.unchanged} unchanged pages kept"] if report.unchanged else []
    kept += ["the CLI's search index linked"] if report.index_linked else []
    print(f"built {report.pages} pages ({report.files} files) in {report.out}")
    for line in (", ".join(kept), "took " + ", ".join(f"{name} {s:.1f} s" for name, s in report.seconds.items())):
        if line:  # a 100-column terminal reads each on its own line
            print(textwrap.fill(line, 100, initial_indent="  ", subsequent_indent="    ", break_on_hyphens=False))
    print(f"open it with: rules-kb serve --dir {report.out}   (then http://127.0.0.1:8000/)")
    print(f"its feeds and sitemap name it at {base_url}" + ("" if args.base_url else " (--base-url sets where it is "
                                                                                     "published)"))
    return 0


def _write_graph_and_store(knowledge, args: argparse.Namespace, snapshot: tuple | None = None) -> list[str]:
    """``--graph`` and ``--store`` from the build's knowledge base (in a second process while the site
    is built, when two are allowed), then its snapshot when ``snapshot`` gives the input key and file
    stats it was built from; returns what to print once the site is built."""
    from rules_kb.assemble.snapshot import write_snapshot
    from rules_kb.assemble.stored import refresh_store, store_path
    from rules_kb.render.export import export_lines
    from rules_kb.render.output import write_atomically

    said = []
    if args.graph is not None:
        graph = knowledge.graph
        with record_step("graph export"):
            write_atomically(args.graph, export_lines(graph, "json"), newline=False)
        said.append(f"wrote {args.graph}: {graph.number_of_nodes()} nodes, {graph.number_of_edges()} edges")
    if args.store:
        with record_step("store"):
            if refresh_store(args.corpus, common.cache(), knowledge):
                said.append(f"wrote {store_path(args.corpus, common.cache())}")
    if snapshot is not None:  # last: a question reads the store, only the next build reads this
        with record_step("snapshot"):
            write_snapshot(args.corpus, common.cache(), knowledge, *snapshot)
    return said


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


def run_publish(args: argparse.Namespace) -> int:
    from rules_kb.errors import UsageError
    from rules_kb.site.publish import BUDGET, HOSTS, describe, measure, over_limits

    figures = measure(args.dir)
    print(f"{args.dir}: {describe(figures)}")
    problems = []
    for limits in [*(HOSTS[host] for host in dict.fromkeys(args.host)), BUDGET]:
        over = over_limits(figures, limits)
        print(f"  {limits.name}: {'over: ' + '; '.join(over) if over else 'fits'} ({limits.source})")
        if over:
            problems.append(f"over {limits.name}'s limits: {'; '.join(over)}")
    if problems:
        raise UsageError(f"{args.dir}: {' | '.join(problems)}")
    return 0
