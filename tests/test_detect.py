"""Format detection and `rules-kb parse` on every file of the repository, no manifest needed."""

from __future__ import annotations

import pytest
from conftest import CORPUS, SUBSET

from rules_kb.ingest.corpus import load_manifest
from rules_kb.ingest.decode import decode_document
from rules_kb.ingest.detect import detect_format, detect_languages, score_formats

DOCUMENTS = load_manifest(CORPUS)


@pytest.mark.parametrize("meta", DOCUMENTS, ids=lambda m: m.id)
def test_detected_format_is_the_manifest_format(meta):
    text = decode_document((CORPUS / meta.file).read_bytes(), meta.file).text
    scores = score_formats(text)
    assert detect_format(text, meta.file) == meta.format, scores
    assert scores[0][0] > scores[1][0], f"ambiguous: {scores[:2]}"


@pytest.mark.parametrize("meta", [m for m in SUBSET if m.kind == "rules"], ids=lambda m: m.id)
def test_parse_command_accounts_for_every_release(cli, meta):
    code, out, err = cli("parse", str(CORPUS / meta.file))
    assert code == 0, err
    assert "100.00% accounted" in out and f"[format {meta.format}," in out


def test_languages_in_order_of_appearance():
    assert detect_languages("From the rules: 507.1 The player\n507.1 非ターン・プレイヤーは") == ("en", "ja")
    assert detect_languages("非ターン・プレイヤーは、クリーチャーを選びます。") == ("ja",)
