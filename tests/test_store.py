"""The knowledge store: what it holds (against the in-memory knowledge base and the sources),
that damage is noticed and repaired, that builds reuse cached work, and that lookups stay light."""

from __future__ import annotations

import json
import sqlite3
import subprocess
import sys
import tomllib

import pytest
from conftest import CORPUS, ROOT

from rules_kb.assemble.knowledge import KnowledgeReport, adjacent_pairs, relevant_forced
from rules_kb.assemble.stored import build_store, open_store, store_path
from rules_kb.store.records import alignment_record
from rules_kb.store.schema import FORMAT


def small_corpus(path, ids: list[str]):
    """A corpus folder holding some of corpus/'s documents, byte for byte, with their manifest entries."""
    path.mkdir(exist_ok=True)
    entries = {e["id"]: e for e in tomllib.loads((CORPUS / "manifest.toml").read_text(encoding="utf-8"))["document"]}
    lines = []
    for doc in ids:
        entry = entries[doc]
        target = path / entry["file"]
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes((CORPUS / entry["file"]).read_bytes())
        lines.append("[[document]]")
        lines.extend(f"{key} = {json.dumps(value, ensure_ascii=False)}" for key, value in entry.items())
        lines.append("")
    (path / "manifest.toml").write_text("\n".join(lines), encoding="utf-8")
    return path


@pytest.fixture(scope="session")
def stored(cache_dir, subset_corpus):
    """The store of the tests' corpus, in the cache the CLI tests use (built once per session)."""
    return open_store(subset_corpus, cache_dir)


def test_store_holds_what_the_knowledge_base_holds(stored, knowledge):
    db = stored.store.db
    catalog, graph = knowledge.catalog, knowledge.graph
    count = lambda table: db.execute(f"SELECT count(*) FROM {table}").fetchone()[0]  # noqa: E731
    assert count("rule_texts") == len(catalog.all_texts())
    assert count("versions") == len(catalog.versions)
    assert count("documents") == len(catalog.documents) == 40  # 37, the MTR, the IPG, 競技イベント運営ルール
    assert count("sections") == sum(len(d.sections) for d in catalog.documents.values()) == 104 + 36 + 104
    assert [s.to_record() for s in stored.catalog.sections.all_sections()] == [
        s.to_record() for s in catalog.sections.all_sections()]
    assert count("terms") == sum(len(d.terms) for d in catalog.documents.values())
    assert count("nodes") == graph.number_of_nodes()
    assert count("edges") == graph.number_of_edges()
    assert [t.to_record() for t in stored.catalog.all_texts()] == [t.to_record() for t in catalog.all_texts()]


def test_store_holds_every_adjacent_alignment(stored, knowledge):
    pairs = adjacent_pairs(knowledge.catalog)
    assert len(pairs) == 8  # nine complete Magic releases
    rows = stored.store.db.execute("SELECT game, lang, old_version, new_version, alignment FROM alignments").fetchall()
    assert [tuple(r[:4]) for r in rows] == pairs
    for (game, lang, old, new, text) in rows:
        ours = knowledge.alignments[(game, lang, old, new, relevant_forced(knowledge.forced, game, lang, old, new))]
        assert json.loads(text) == json.loads(json.dumps(alignment_record(ours)))


def test_the_store_is_plain_sqlite_with_facts_from_the_sources(stored):
    """Opened with the sqlite3 module alone: 509.1a as printed in the 2024-11-08 Comprehensive Rules."""
    db = sqlite3.connect(f"file:{stored.store.path}?mode=ro", uri=True)
    (text, document), = db.execute("SELECT text, document FROM rule_texts WHERE game='mtg' AND number='509.1a' "
                                   "AND version='2024-11-08'").fetchall()
    assert document == "mtg-cr-2024-11-08"
    assert text.startswith("The defending player chooses which creatures they control, if any, will block.")
    assert db.execute("SELECT value FROM meta WHERE key='format'").fetchone()[0] == FORMAT
    cited_by = {r[0] for r in db.execute("SELECT source FROM edges WHERE target='rule:dm:603.2e' AND kind='cites'")}
    assert "text:dm:ja:1.48:506.3b@dm-rulebook-ja-1.48" in cited_by


DM_SEEDS = ["seed-000", "seed-001", "seed-002"]


def _damage_cases():
    def flip_text(data: bytes) -> bytes:  # the words of rules edited in place (every copy), structure intact
        assert "ブロッカー".encode() in data
        return data.replace("ブロッカー".encode(), "ブロッガー".encode())

    def flip_page(data: bytes) -> bytes:  # the first b-tree page header overwritten
        return data[:100] + bytes(b ^ 0xFF for b in data[100:140]) + data[140:]

    return {
        "edited rule text": flip_text,
        "flipped page header": flip_page,
        "truncated": lambda data: data[: len(data) // 2],
        "not sqlite": lambda data: b"this is not a database\n" * 100,
        "empty": lambda data: b"",
    }


@pytest.mark.parametrize("case", sorted(_damage_cases()))
def test_a_damaged_store_is_rebuilt_with_one_warning(case, tmp_path, monkeypatch, capsys):
    from rules_kb import cli
    from rules_kb.cli import common

    corpus = small_corpus(tmp_path / "corpus", DM_SEEDS)
    monkeypatch.setattr(common, "DEFAULT_CACHE", tmp_path / "cache")
    argv = ["--corpus", str(corpus), "show", "507.2a", "--game", "dm", "--lang", "ja", "--json"]
    assert cli.main(argv) == 0
    first = capsys.readouterr()
    assert first.err == "" and "ブロッカー" in first.out
    path = store_path(corpus, tmp_path / "cache")
    path.write_bytes(_damage_cases()[case](path.read_bytes()))
    assert cli.main(argv) == 0
    again = capsys.readouterr()
    assert again.out == first.out
    assert len(again.err.splitlines()) == 1 and "damaged" in again.err and "rebuilding" in again.err
    assert cli.main(argv) == 0  # repaired: no warning the next time
    assert capsys.readouterr() == (first.out, "")


def test_a_store_failing_again_after_its_rebuild_is_one_line_not_a_traceback(tmp_path, monkeypatch, capsys):
    from rules_kb import cli
    from rules_kb.cli import common
    from rules_kb.store.read import Store, StoreDamaged

    corpus = small_corpus(tmp_path / "corpus", DM_SEEDS)
    monkeypatch.setattr(common, "DEFAULT_CACHE", tmp_path / "cache")

    def always_damaged(self, sql, params=()):
        raise StoreDamaged("a row fails its check: rule_texts")
    monkeypatch.setattr(Store, "rows", always_damaged)
    assert cli.main(["--corpus", str(corpus), "show", "507.2a", "--game", "dm"]) == 1
    out, err = capsys.readouterr()
    lines = err.splitlines()
    assert out == "" and len(lines) == 2 and "rebuilding" in lines[0]
    assert lines[1].startswith("Error: ") and "store-" in lines[1] and "right after a rebuild" in lines[1]


def test_an_edited_corpus_file_is_refused_with_a_store(tmp_path, monkeypatch, capsys):
    from rules_kb import cli
    from rules_kb.cli import common

    corpus = small_corpus(tmp_path / "corpus", DM_SEEDS)
    monkeypatch.setattr(common, "DEFAULT_CACHE", tmp_path / "cache")
    argv = ["--corpus", str(corpus), "show", "507.2a", "--game", "dm"]
    assert cli.main(argv) == 0
    capsys.readouterr()
    edited = next(p for p in (corpus / "seeds").iterdir() if p.name.startswith("000_"))
    edited.write_bytes(edited.read_bytes() + b"\n")
    assert cli.main(argv) == 1
    assert capsys.readouterr().err.startswith(f"Error: seeds/{edited.name}: sha256 mismatch")


def test_a_second_build_reparses_and_realigns_nothing_and_an_addition_only_its_own(tmp_path):
    """Two Magic releases built; built again (nothing redone); a third added (its parse, one alignment)."""
    cache = tmp_path / "cache"
    corpus = small_corpus(tmp_path / "corpus", ["mtg-cr-2008-10-01", "mtg-cr-2009-05-01"])
    first = KnowledgeReport()
    build_store(corpus, cache, first)
    assert (first.parsed, first.aligned) == (["mtg-cr-2008-10-01", "mtg-cr-2009-05-01"],
                                             ["mtg en 2008-10-01 -> 2009-05-01"])
    second = KnowledgeReport()
    build_store(corpus, cache, second)
    assert (second.parsed, second.aligned, second.parses_reused, second.alignments_reused) == ([], [], 2, 1)

    corpus = small_corpus(corpus, ["mtg-cr-2008-10-01", "mtg-cr-2009-05-01", "mtg-cr-2009-07-08"])
    third = KnowledgeReport()
    build_store(corpus, cache, third)
    assert (third.parsed, third.aligned, third.parses_reused, third.alignments_reused) == (
        ["mtg-cr-2009-07-08"], ["mtg en 2009-05-01 -> 2009-07-08"], 2, 1)
    knowledge = open_store(corpus, cache)
    moved = [e for e in knowledge.graph.out_edges("text:mtg:en:2009-05-01:309.2a@mtg-cr-2009-05-01", data=True)
             if e[2]["kind"] == "renumbered"]
    assert [(e[2]["new"], e[2]["to_version"]) for e in moved] == [("509.1a", "2009-07-08")]


def test_an_add_leaves_its_parse_and_alignment_to_the_next_build(tmp_path):
    """``add`` parsed the release and aligned it with the one before: the rebuild reads both from
    the caches, and the store it writes holds what a cold build of the same corpus holds."""
    from rules_kb.releases.add import add_release

    cache = tmp_path / "cache"
    corpus = small_corpus(tmp_path / "corpus", ["mtg-cr-2008-10-01", "mtg-cr-2009-05-01"])
    build_store(corpus, cache)
    release = tmp_path / "CR-2009-07-08.txt"
    release.write_bytes((CORPUS / "mtg" / "CR-2009-07-08.txt").read_bytes())
    add_release(corpus, release, cache, game="mtg", lang="en", format_name="mtg-cr", version="2009-07-08")
    report = KnowledgeReport()
    incremental = build_store(corpus, cache, report)
    assert (report.parsed, report.aligned, report.parses_reused, report.alignments_reused) == ([], [], 3, 2)

    cold = build_store(corpus, tmp_path / "cold")
    assert incremental.read_bytes() == cold.read_bytes()


def test_a_malformed_cache_entry_is_recomputed(tmp_path):
    cache = tmp_path / "cache"
    corpus = small_corpus(tmp_path / "corpus", DM_SEEDS)
    build_store(corpus, cache)
    for entry in (cache / "parsed").iterdir():
        entry.write_text('{"meta": 5}', encoding="utf-8")
    report = KnowledgeReport()
    from rules_kb.assemble.caches import CacheRebuilt

    with pytest.warns(CacheRebuilt, match=r"the parsed-document cache: .*not a rules-kb cache file") as said:
        build_store(corpus, cache, report)
    assert len(said) == 1  # one warning for all of them
    assert report.parsed == DM_SEEDS and report.parses_reused == 0


# Modules a lookup must not load: code from data (pickle), seconds of import (networkx, Sudachi,
# the HTML and site stacks), worker processes, parsers.
HEAVY = ("pickle", "_pickle", "networkx", "sudachipy", "bs4", "lxml", "soupsieve", "mkdocs", "markdown",
         "multiprocessing", "concurrent")
HEAVY_PREFIXES = ("http.server", "rules_kb.sources.", "rules_kb.site", "rules_kb.notes", "rules_kb.search",
                  "rules_kb.compare", "rules_kb.kb.graph", "rules_kb.ask.story", "rules_kb.assemble.knowledge")


@pytest.mark.parametrize(("argv", "expected"), [
    (["show", "509.1a"], "The defending player chooses which creatures they control"),
    (["history", "509.1a"], "mtg en: moved from 309.2a in 2009-07-08"),
    (["refs", "603.2e", "--game", "dm"], "cites"),
    (["show", "IPG 2.1"], "Game Play Error — Missed Trigger"),
    (["show", "誘発忘れ"], "ゲーム上の誤り ─ 誘発忘れ"),
])
def test_a_lookup_imports_nothing_heavy(argv, expected, stored, cache_dir, subset_corpus):
    """A warm lookup in a fresh interpreter loads only what answers it: registering every command
    imports no stage, and the lookup path none of the modules above."""
    program = (
        "import sys; from pathlib import Path; from rules_kb.cli import common; "
        f"common.DEFAULT_CACHE = Path({str(cache_dir)!r}); from rules_kb import cli; "
        f"code = cli.main(['--corpus', {str(subset_corpus)!r}, *{argv!r}]); "
        f"print(sorted(m for m in sys.modules if m.split('.')[0] in {HEAVY!r} or m.startswith({HEAVY_PREFIXES!r})),"
        " code)")
    result = subprocess.run([sys.executable, "-c", program], capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert result.stderr == ""
    assert result.stdout.splitlines()[-1] == "[] 0"
    assert expected in result.stdout


def test_the_lookup_check_sees_heavy_modules_where_they_are_loaded(stored, cache_dir, subset_corpus):
    """The same check on ``explain``, which aligns versions: it does load the comparison stage."""
    program = (
        "import sys; from pathlib import Path; from rules_kb.cli import common; "
        f"common.DEFAULT_CACHE = Path({str(cache_dir)!r}); from rules_kb import cli; "
        f"code = cli.main(['--corpus', {str(subset_corpus)!r}, 'explain', '509.1a']); "
        "print('rules_kb.compare.align' in sys.modules, 'rules_kb.ask.story' in sys.modules, code)")
    result = subprocess.run([sys.executable, "-c", program], capture_output=True, text=True, cwd=ROOT, timeout=300)
    assert result.stdout.splitlines()[-1] == "True True 0"


def test_two_builds_write_byte_identical_stores(tmp_path):
    corpus = small_corpus(tmp_path / "corpus", DM_SEEDS)
    first, second = build_store(corpus, tmp_path / "one"), build_store(corpus, tmp_path / "two")
    assert first.read_bytes() == second.read_bytes()


@pytest.mark.parametrize(("game", "number"), [("mtg", "509.1"), ("mtg", "702.9"), ("mtg", "509"), ("mtg", "704.5j"),
                                              ("dm", "507"), ("dm", "507.2a"), ("mtg", "100.1")])
def test_explain_from_the_store_reads_only_its_rule_and_says_the_same(stored, knowledge, subset_corpus, game,
                                                                      number):
    """``explain`` on the store reads each step's pairs of one rule (``alignment_parts``) and the
    versions holding it from the number index; the story is the one the whole knowledge base tells.
    702.9 is a rule whose next number, 702.10, sorts before it as a string."""
    from rules_kb.ask.story import explain_rule
    from rules_kb.numbers import RuleNumber
    from rules_kb.render.textformat import story_record

    rule = RuleNumber.parse(number)
    expected = story_record(explain_rule(knowledge, game, rule))
    assert sum(len(chain) for chain in expected["chains"].values()) >= 1  # at least one step compared
    assert story_record(explain_rule(stored, game, rule)) == expected


@pytest.mark.parametrize("scope", ["section 1", "section 3", "section 5", "section 7", "section 9", "509.1", "702.2",
                                   "704.5j", "100.1"])
def test_a_composed_diff_within_a_scope_reads_its_paths_only_and_says_the_same(stored, knowledge, scope):
    """``diff OLD NEW --section 5`` between distant releases composes each step's pairs on the paths
    into and out of section 5 only (``_compose_within``); its rows are those of composing the whole
    steps and keeping the section's, from the first Magic release of the tests to the last."""
    from rules_kb.compare.alignment import Scope
    from rules_kb.compare.changes import compare_versions
    from rules_kb.numbers import RuleNumber
    from rules_kb.render.textformat import comparison_record

    within = (Scope(chapter=int(scope.split()[1])) if scope.startswith("section")
              else Scope(rule=RuleNumber.parse(scope)))
    catalog = knowledge.catalog
    labels = [label for label in catalog.version_labels("mtg", "en")
              if catalog.versions[("mtg", "en", label)].complete and catalog.rules_in("mtg", "en", label)]
    assert len(labels) >= 5
    old, new = labels[0], labels[-1]
    expected = comparison_record(compare_versions(knowledge.catalog, knowledge.alignments, "mtg", "en", old, new,
                                                  knowledge.forced, within))
    assert expected["rows"]
    read = []
    pairs_under = type(stored.alignments).pairs_under

    def spy(self, key, bounds, numbers=()):
        read.append(key)
        return pairs_under(self, key, bounds, numbers)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(type(stored.alignments), "pairs_under", spy)
        got = comparison_record(compare_versions(stored.catalog, stored.alignments, "mtg", "en", old, new,
                                                 stored.forced, within))
    assert read, "the scoped composition was not used"
    assert got == expected
