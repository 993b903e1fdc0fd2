"""The graph as a file: graph export."""

from __future__ import annotations

import argparse
from pathlib import Path

from rules_kb.render.export import FORMATS


def register(commands: argparse._SubParsersAction) -> None:
    graph = commands.add_parser("graph", help="export the rule graph", description="Export the rule graph.")
    graph_commands = graph.add_subparsers(dest="graph_command", required=True, metavar="ACTION")
    export = graph_commands.add_parser(
        "export", help="write the graph as node-link JSON or GraphML",
        description="Write the whole graph, element by element as it is walked. JSON loads back into networkx "
        "unchanged (node_link_graph with edges='edges'); GraphML (UTF-8, one element a line) flattens list "
        "attributes to JSON strings.")
    export.add_argument("--format", dest="graph_format", choices=FORMATS, default="json",
                        help="json (node-link, default) or graphml")
    export.add_argument("path", type=Path, help="the file to write (written whole or not at all)")
    export.set_defaults(handler=run_graph_export)


def run_graph_export(args: argparse.Namespace) -> int:
    from rules_kb.cli.common import open_knowledge
    from rules_kb.render.export import export_lines
    from rules_kb.render.output import write_atomically

    knowledge = open_knowledge(args)
    write_atomically(args.path, export_lines(knowledge.graph, args.graph_format), newline=False)
    graph = knowledge.graph
    print(f"wrote {args.path}: {graph.number_of_nodes()} nodes, {graph.number_of_edges()} edges")
    return 0
