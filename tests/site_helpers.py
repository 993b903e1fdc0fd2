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
    """The placeholder of a page drawn in the browser (``reader.js``: an older release's chapter or
    glossary), or None."""
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


@functools.lru_cache(maxsize=256)
def _glossary(site: Path, api: str) -> tuple[dict, ...]:
    record = json.loads(file_of(site, api).read_text(encoding="utf-8"))
    entries = record["entries"]
    if "base_api" in record:
        entries = {**json.loads(file_of(site, record["base_api"]).read_text(encoding="utf-8"))["entries"], **entries}
    return tuple(entries[key] for key in record["order"])


def drawn_glossary(site: Path, reader) -> tuple[dict, ...]:
    """The entries ``reader.js`` draws on an older glossary page, in order (its JSON over its keyframe)."""
    return _glossary(site, reader.get("data-api"))


def drawn_glossary_tree(site: Path, reader):
    """What ``reader.js`` draws on an older glossary page, written here as HTML, for its links."""
    from rules_kb.render.html import element, esc

    items = []
    for entry in drawn_glossary(site, reader):
        items.append(element("dt", element("a", esc(entry["term"]), href=entry["href"], class_="rk-term"),
                             id=entry["id"]))
        items.append(element("dd", "".join(esc(s[0]) if len(s) == 1 else element("a", esc(s[0]), href=s[1],
                                                                                  class_=s[2])
                                           for s in entry["definition"])))
    return lxml_html.fragment_fromstring(element("dl", "".join(items)))


def drawn_ids(site: Path, reader) -> set[str]:
    """The ids ``reader.js`` gives: each rule's number and each section's ``s`` anchor; on a
    glossary, each entry's."""
    from rules_kb.numbers import RuleNumber

    if reader.get("data-kind") == "glossary":
        return {entry["id"] for entry in drawn_glossary(site, reader)}
    rules = drawn_rules(site, reader)
    return set(rules) | {f"s{RuleNumber.parse(n).section:03d}" for n in rules}
