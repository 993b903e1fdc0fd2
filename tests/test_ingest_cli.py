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
