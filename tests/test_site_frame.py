"""Generated pages written through Material's frame are the pages mkdocs would render."""

from __future__ import annotations

import shutil
from itertools import islice

import pytest

from rules_kb.render.html import Page
from rules_kb.render.site_data import load_site_data
from rules_kb.site.build import SITE_SOURCES, THEME_OVERRIDES, run_mkdocs
from rules_kb.site.frame import framed_html, squeeze, take_frames, write_frame_sources
from rules_kb.site.pages import MKDOCS_GENERATORS, PAGE_GENERATORS


@pytest.fixture(scope="module")
def both_ways(tmp_path_factory, knowledge):
    """The first page of every generator, rendered by mkdocs and written through the frames."""
    site = load_site_data(knowledge)
    samples = [page for generate in PAGE_GENERATORS for page in islice(generate(site), 1)]
    work = tmp_path_factory.mktemp("frame")
    docs, out = work / "docs", work / "site"
    shutil.copytree(SITE_SOURCES, docs, ignore=shutil.ignore_patterns(THEME_OVERRIDES))
    write_frame_sources(docs)
    for page in [*(p for generate in MKDOCS_GENERATORS for p in generate(site)), *samples]:
        target = docs / page.path.strip("/") / "index.md"
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(page.markdown(), encoding="utf-8")
    run_mkdocs(docs, out, 0)
    rendered = {page.path: (out / page.path.strip("/") / "index.html").read_text(encoding="utf-8")
                for page in samples}
    return samples, rendered, take_frames(out), out


def test_every_generator_is_sampled(both_ways):
    samples, *_ = both_ways
    assert len(samples) == len(PAGE_GENERATORS)
    # the first pages are Duel Masters', but for the glossary's (Duel Masters prints no glossary) and
    # the tournament documents' (Magic's MTR and IPG come first in the registry)
    tournament = tuple(f"/mtg/{kind}/" for kind in ("mtr", "ipg"))
    assert {page.path.split("/")[1] for page in samples
            if "/glossary/" not in page.path and not page.path.startswith(tournament)} == {"dm"}
    assert {page.path.count("/") for page in samples} >= {4, 5, 6}  # three depths


def test_a_framed_page_is_byte_identical_to_mkdocs_output(both_ways):
    """Identical once the template's blank lines and indentation are dropped from both, which
    the frames do (``frame.squeeze``): the generated bodies are one line, so nothing else changes."""
    samples, rendered, frames, _ = both_ways
    for page in samples:
        framed = framed_html(frames, page)
        assert framed == squeeze(rendered[page.path]), page.path
        assert page.body in framed and len(framed) < len(rendered[page.path]) - 1500, page.path


def test_frames_are_removed_from_the_built_site(both_ways):
    *_, out = both_ways
    assert not list(out.rglob("_frame"))


def test_a_title_is_escaped_in_the_frame(both_ways):
    _, _, frames, _ = both_ways
    html = framed_html(frames, Page("/mtg/rule/100.1/", "<script>alert(1)</script> & co", "<h1>x</h1>"))
    assert "<title>&lt;script&gt;alert(1)&lt;/script&gt; &amp; co - rules-kb</title>" in html
    assert "<script>alert" not in html
