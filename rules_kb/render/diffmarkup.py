"""A token diff (``compare.diff.TokenDiff``) shown: as HTML for the pages, as terminal text for the CLI.

The comparison decides what changed; this module only draws it. Every piece of source text is
escaped in the HTML, so rule text such as ``<script>`` or ``&`` can neither break a page nor
inject markup.
"""

from __future__ import annotations

import html

from rules_kb.compare.diff import TokenDiff

_RED, _GREEN, _RESET = "\x1b[31m", "\x1b[32m", "\x1b[0m"


def render_html(diff: TokenDiff) -> str:
    """The diff as HTML: unchanged text as is, ``<del>`` and ``<ins>`` around changes.

    Every piece of source text is escaped, so rule text such as ``<script>`` or ``&`` can
    neither break the page nor inject markup.
    """
    parts: list[str] = []
    for op in diff.ops:
        if op.tag == "equal":
            parts.append(html.escape(op.new))
            continue
        if op.old:
            parts.append(f"<del>{html.escape(op.old)}</del>")
        if op.new:
            parts.append(f"<ins>{html.escape(op.new)}</ins>")
    return "".join(parts)


def render_terminal(diff: TokenDiff, color: bool) -> str:
    """The diff for a terminal: ANSI red/green when ``color``, else ``[-old-]{+new+}``."""
    parts: list[str] = []
    for op in diff.ops:
        if op.tag == "equal":
            parts.append(op.new)
            continue
        if op.old:
            parts.append(f"{_RED}{op.old}{_RESET}" if color else f"[-{op.old}-]")
        if op.new:
            parts.append(f"{_GREEN}{op.new}{_RESET}" if color else f"{{+{op.new}+}}")
    return "".join(parts)
