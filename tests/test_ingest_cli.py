"""`rules-kb ingest`: one line per document, 100% accounted, a deterministic JSON Lines model."""

from __future__ import annotations

import json

from conftest import SUBSET


def test_ingest_reports_every_document_fully_accounted(cli, tmp_path):
    out_path = tmp_path / "model.jsonl"
    code, out, err = cli("ingest", "--json", str(out_path))
    assert code == 0 and err == ""
    lines = out.splitlines()
    ids = [m.id for m in SUBSET]
    assert [line.split(":")[0] for line in lines] == ids
    assert all(line.endswith("100.00% accounted") for line in lines)
    assert "seed-002: 34 rules, 2 examples, 0 terms, 20 anomalies" in out


def test_model_is_byte_identical_across_runs(cli, tmp_path):
    first, second = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    cli("ingest", "--json", str(first))
    cli("ingest", "--json", str(second))
    assert first.read_bytes() == second.read_bytes()


def test_model_holds_the_seed_facts(cli, tmp_path):
    path = tmp_path / "model.jsonl"
    cli("ingest", "--only", "seed-000", "--only", "seed-002", "--only", "seed-004", "--json", str(path))
    records = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]
    rules = [r for r in records if r["record"] == "rule"]
    ja_000 = [r["number"] for r in rules if r["document"] == "seed-000" and r["lang"] == "ja"]
    assert ja_000 == ["507", "507.1", "507.1a", "507.1b", "507.2", "507.2a", "507.2b", "507.2c", "507.3",
                      "507.3a", "507.3b", "507.3c", "507.3d", "507.3e", "507.3f", "507.3g", "507.4"]
    r507_2a = next(r for r in rules if r["document"] == "seed-000" and r["lang"] == "ja" and r["number"] == "507.2a")
    assert r507_2a["version"] == "1.38" and r507_2a["date"] == "2023-09-14"
    assert r507_2a["examples"] == [
        "2体のクリーチャーのブロッカー能力を使用した場合、最後に効果を解決した1体のみがブロッククリーチャーになります。"]
    assert "最後に効果を解決した" not in r507_2a["text"]
    typo = next(r for r in rules if r["document"] == "seed-002" and r["written_as"] == "505.2a")
    assert typo["number"] == "506.2a" and typo["lang"] == "en"
    dated = [(r["number"], r["date"]) for r in rules if r["document"] == "seed-004" and r["number"] == "309.2a"]
    assert dated == [("309.2a", "2008-02-01"), ("309.2a", "2007-10-01")]
    anomalies = [r for r in records if r["record"] == "anomaly" and r["document"] == "seed-002"]
    assert any(a["code"] == "merged-line" for a in anomalies)
    for record in rules:
        assert {"game", "lang", "version", "number", "text", "examples", "document", "span"} <= set(record)


def _parses(monkeypatch) -> list[str]:
    """The ids of the documents parsed from here on (one process: ``RULES_KB_WORKERS=1``)."""
    from rules_kb.ingest import pipeline

    parsed: list[str] = []
    real = pipeline.parse_bytes

    def counting(data, meta):
        parsed.append(meta.id)
        return real(data, meta)

    monkeypatch.setenv("RULES_KB_WORKERS", "1")
    monkeypatch.setattr(pipeline, "parse_bytes", counting)
    return parsed


def test_a_second_ingest_reads_back_every_report_and_parses_only_what_changed(cli, tmp_path, monkeypatch):
    """The ingest cache: the same corpus and code give the same lines and model without a parse; a
    report that is gone (as for a document just added) is the only document parsed again."""
    from rules_kb.assemble.ingested import FOLDER
    from rules_kb.cli import common

    cache = tmp_path / "cache"
    monkeypatch.setattr(common, "DEFAULT_CACHE", cache)
    parsed = _parses(monkeypatch)
    runs = []
    for name in ("first", "second", "third"):
        path = tmp_path / f"{name}.jsonl"
        code, out, err = cli("ingest", "--anomalies", "--json", str(path))
        assert (code, err) == (0, "")
        runs.append((out, path.read_bytes(), list(parsed)))
        parsed.clear()
        if name == "second":
            reports = sorted((cache / FOLDER).iterdir())
            assert len(reports) == len(SUBSET)
            reports[0].unlink()
    assert runs[0][2] == [m.id for m in SUBSET]  # the first run parsed every document
    assert runs[1][2] == []
    assert len(runs[2][2]) == 1
    assert runs[0][:2] == runs[1][:2] == runs[2][:2]  # the same lines printed, the same model bytes
    assert "seed-002: 34 rules, 2 examples, 0 terms, 20 anomalies" in runs[1][0]


def test_ingest_fills_the_parse_cache_the_build_reads(cli, tmp_path, monkeypatch):
    """After `ingest`, building the knowledge base parses nothing: ingest kept each parse as the build
    would have kept it (the same bytes, under the same name)."""
    from conftest import CORPUS
    from test_site_reuse import corpus_of

    from rules_kb.assemble.knowledge import KnowledgeReport, parse_documents
    from rules_kb.cli import common
    from rules_kb.ingest.corpus import load_manifest

    ids = ("seed-000", "seed-002", "mtg-cr-2024-11-08")
    corpus = corpus_of(tmp_path / "corpus", ids)
    metas = [m for m in load_manifest(CORPUS) if m.id in ids]
    monkeypatch.setattr(common, "DEFAULT_CACHE", tmp_path / "ingest-cache")
    assert cli("--corpus", str(corpus), "ingest")[0] == 0
    parsed = _parses(monkeypatch)
    report = KnowledgeReport()
    documents = parse_documents(corpus, tmp_path / "ingest-cache", report)
    assert (report.parses_reused, parsed) == (len(ids), [])
    assert [d.meta.id for d in documents] == [m.id for m in metas]
    parse_documents(corpus, tmp_path / "build-cache", KnowledgeReport())  # the build's own entries
    kept = {p.name: p.read_bytes() for p in (tmp_path / "ingest-cache" / "parsed").iterdir()}
    built = {p.name: p.read_bytes() for p in (tmp_path / "build-cache" / "parsed").iterdir()}
    assert kept == built and len(kept) == len(ids)


def test_a_damaged_report_is_read_as_missing_with_one_warning(cli, tmp_path, monkeypatch):
    from rules_kb.assemble.ingested import FOLDER
    from rules_kb.cli import common

    cache = tmp_path / "cache"
    monkeypatch.setattr(common, "DEFAULT_CACHE", cache)
    first, second = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    assert cli("ingest", "--json", str(first))[0] == 0
    report = sorted((cache / FOLDER).iterdir())[-1]
    report.write_bytes(report.read_bytes().replace(b"rules", b"RULES", 1))  # edited in place
    code, _, err = cli("ingest", "--json", str(second))
    assert code == 0 and first.read_bytes() == second.read_bytes()
    assert err.count("\n") == 1 and err.startswith("warning: the ingest cache: ") and "rebuilt" in err


def test_ingest_without_a_usable_cache_folder_says_so_and_writes_the_model(cli, tmp_path, monkeypatch):
    """A file where the cache folder belongs stops every question; `ingest`, which needs no cache,
    says so in one note and parses every document."""
    from rules_kb.cli import common

    blocked = tmp_path / "cache"
    blocked.write_text("not a folder", encoding="utf-8")
    with_cache, without = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    monkeypatch.setattr(common, "DEFAULT_CACHE", tmp_path / "usable")
    assert cli("ingest", "--json", str(with_cache))[0] == 0
    monkeypatch.setattr(common, "DEFAULT_CACHE", blocked)
    code, out, err = cli("ingest", "--json", str(without))
    assert code == 0 and without.read_bytes() == with_cache.read_bytes() and len(out.splitlines()) == len(SUBSET)
    assert err.count("\n") == 1 and err.startswith("note: ") and "ingesting without the cache" in err
    assert "regular file" in err and blocked.read_text(encoding="utf-8") == "not a folder"
