"""A stand-in for the official Duel Masters rulebook PDF, rendered from the Ver.1.48 text.

The corpus has no official Duel Masters PDF (only the text someone extracted from one), so the
tests print that text the way the official PDF lays it out: A4, the CJK font the browser tests
install (Noto Sans CJK JP), a running header with the title and version, a footer with the page
number, and every line of the 1.48 extraction as one printed line (its own wraps, mid-word ones
included, at the width the extraction shows: about 46 full-width characters). Chromium prints it.
"""

from __future__ import annotations

import html
from pathlib import Path

HEADER = "デュエル・マスターズ総合ゲームルール Ver.1.48"
FONT = "'Noto Sans CJK JP', 'Noto Sans CJK', sans-serif"
# 46 full-width characters at 10.5 pt fill 483 pt: the column is that wide plus a little slack
# for the few lines of 47 (half-width letters and digits mixed in).
COLUMN_PT = 46 * 10.5 + 8


def standin_html(text: str) -> str:
    """The page Chromium prints: one ``div`` per line of the extraction, never rewrapped."""
    lines = "\n".join(f"<div>{html.escape(line.rstrip()) or '&nbsp;'}</div>" for line in text.split("\n"))
    return f"""<!doctype html><html lang="ja"><head><meta charset="utf-8"><style>
body {{ margin: 0; font-family: {FONT}; font-size: 10.5pt; line-height: 1.5; }}
main {{ width: {COLUMN_PT}pt; }}
div {{ white-space: pre; }}
</style></head><body><main>
{lines}
</main></body></html>"""


def render_standin(browser, source: Path, out: Path) -> Path:
    """Print the 1.48 text to ``out`` as an A4 PDF with header, footer and page numbers."""
    text = source.read_text(encoding="utf-8")
    context = browser.new_context()
    try:
        page = context.new_page()
        page.set_content(standin_html(text), wait_until="load")
        page.pdf(
            path=str(out), format="A4", print_background=False, display_header_footer=True,
            margin={"top": "25mm", "bottom": "25mm", "left": "20mm", "right": "20mm"},
            header_template=f'<div style="font-size:8pt; font-family:{FONT}; width:100%; text-align:center;">'
                            f"{html.escape(HEADER)}</div>",
            footer_template=f'<div style="font-size:8pt; font-family:{FONT}; width:100%; text-align:center;">'
                            '- <span class="pageNumber"></span> -</div>',
        )
    finally:
        context.close()
    return out
