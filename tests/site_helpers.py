"""Reading a built site with lxml: pages, their ids, their internal links."""

from __future__ import annotations

import functools
import json
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


def reader_of(tree):
    """The placeholder of a chapter page drawn in the browser (``reader.js``), or None."""
    found = tree.find_class("rk-reader")
    return found[0] if found else None


def drawn_rules(site: Path, reader) -> dict[str, dict]:
    """The rules ``reader.js`` draws into a placeholder: the version's JSON (overlaid on its
    keyframe) restricted to the page's chapter, as ``number`` → record."""
    return _drawn(site, reader.get("data-api"), int(reader.get("data-chapter")))


@functools.lru_cache(maxsize=256)
def _drawn(site: Path, api: str, chapter: int) -> dict[str, dict]:
    from rules_kb.numbers import RuleNumber

    return {n: r for n, r in _whole_version(site, api).items() if RuleNumber.parse(n).section // 100 == chapter}


@functools.lru_cache(maxsize=32)
def _whole_version(site: Path, api: str) -> dict[str, dict]:
    from rules_kb.render.api import whole_version

    record = json.loads(file_of(site, api).read_text(encoding="utf-8"))
    base = json.loads(file_of(site, record["base_api"]).read_text(encoding="utf-8")) if "base_api" in record else None
    return whole_version(record, base)


def drawn_ids(site: Path, reader) -> set[str]:
    """The ids ``reader.js`` gives: each rule's number and each section's ``s`` anchor."""
    from rules_kb.numbers import RuleNumber

    rules = drawn_rules(site, reader)
    return set(rules) | {f"s{RuleNumber.parse(n).section:03d}" for n in rules}
