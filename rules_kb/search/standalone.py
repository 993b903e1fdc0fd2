"""The search page without the site: ``site/search.md`` rendered into a bare HTML shell, with its
script, stylesheet and an index, in a folder laid out like the built site (``search/``,
``assets/``, ``search-index/``). Tests and benchmarks serve it; the real site comes from mkdocs.
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path

from rules_kb.search.query import INDEX_DIR

ASSETS = ("search.js", "search.css")
_FRONT_MATTER = re.compile(r"\A---\n.*?\n---\n", re.DOTALL)


def write_standalone_site(folder: Path, site_dir: Path, index_dir: Path) -> Path:
    """Write the page to ``folder/search/index.html`` and copy assets and ``index_dir``; returns the page."""
    import markdown

    source = (site_dir / "search.md").read_text(encoding="utf-8")
    body = markdown.markdown(_FRONT_MATTER.sub("", source), extensions=["md_in_html"])
    page = folder / "search" / "index.html"
    page.parent.mkdir(parents=True, exist_ok=True)
    page.write_text("<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>Search</title></head>"
                    f"<body>\n{body}\n</body></html>\n", encoding="utf-8")
    (folder / "assets").mkdir(exist_ok=True)
    for name in ASSETS:
        shutil.copyfile(site_dir / "assets" / name, folder / "assets" / name)
    target = folder / INDEX_DIR
    if target.exists():
        shutil.rmtree(target)
    shutil.copytree(index_dir, target)
    return page
