"""Reading a built site with lxml: pages, their ids, their internal links."""

from __future__ import annotations

from pathlib import Path
from urllib.parse import unquote, urljoin, urlsplit

from lxml import html as lxml_html


def url_of(site: Path, file: Path) -> str:
    """The root path a file is served at (``/dm/rule/507.2a/`` for its index.html)."""
    relative = file.relative_to(site).as_posix()
    return "/" + (relative[: -len("index.html")] if relative.endswith("index.html") else relative)


def file_of(site: Path, path: str) -> Path:
    path = unquote(path)
    return site / (path.lstrip("/") + "index.html" if path.endswith("/") else path.lstrip("/"))


def parse(file: Path):
    return lxml_html.fromstring(file.read_bytes())


def internal_links(site: Path, file: Path, tree, prefix: str = "/") -> list[tuple[str, str]]:
    """(target path, fragment) of every link and resource staying on the site, resolved as a
    browser does with the site served under ``prefix`` (the paths then start with it)."""
    base = prefix.rstrip("/") + url_of(site, file)
    out = []
    found = [(e, "href") for e in tree.iter("a", "link")] + [(e, "src") for e in tree.iter("script", "img")]
    for element, attribute in found:
        value = element.get(attribute)
        if not value or value.startswith(("mailto:", "data:")):
            continue
        parts = urlsplit(urljoin("http://site" + base, value))
        if parts.netloc != "site":
            out.append((value, "EXTERNAL"))
            continue
        out.append((parts.path, parts.fragment))
    return out
