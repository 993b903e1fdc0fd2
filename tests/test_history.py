"""The whole Magic history in the corpus: every document accounted, and facts read in the old releases.

Counts and texts below were read in the files themselves (shared/corpus/mtg-history and
corpus/mtg): a glossary's entries are its blank-line-separated paragraphs between the last
``Glossary`` and ``Credits`` lines; rule texts are quoted from the file.
"""

from __future__ import annotations

import shutil
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from functools import cache

import pytest
from conftest import CORPUS, SUBSET

from rules_kb.ingest.corpus import load_manifest, read_document_bytes
from rules_kb.ingest.pipeline import ingest_corpus, parse_bytes
from rules_kb.kb.catalog import build_catalog
from rules_kb.model import DocumentMeta, ParsedDocument
from rules_kb.numbers import RuleNumber

MANIFEST = load_manifest(CORPUS)
MAGIC = [meta for meta in MANIFEST if meta.format == "mtg-cr"]
# The releases of 2023-2026 added from shared/corpus/mtg-current with `rules-kb add` (2023-02-03 from its DOCX).
CURRENT = ("2023-02-03", "2023-04-14", "2023-10-13", "2023-11-17", "2024-02-06", "2024-03-08", "2024-06-07",
           "2024-08-02", "2025-02-07", "2025-04-04", "2025-06-06", "2025-07-25", "2025-09-19", "2025-11-14",
           "2026-01-16")
# The releases of 2026 added from shared/corpus/mtg-2026 with `rules-kb add`, under the publisher's file names.
MTG_2026 = ("2026-02-27", "2026-04-17")


@dataclass(frozen=True)
class Summary:
    """What the accounting test needs of one document, small enough to pass between processes."""

    id: str
    complete: bool
    percent: float
    rules: int
    terms: int
    longest_rule: int
    codes: tuple[str, ...]
    versions: tuple[tuple[str, str | None, str], ...]


def summarise(meta: DocumentMeta) -> Summary:
    item = parse_bytes(read_document_bytes(CORPUS, meta), meta)
    parsed = item.parsed
    return Summary(meta.id, item.accounting.complete, item.accounting.percent, len(parsed.rules), len(parsed.terms),
                   max((len(rule.text) for rule in parsed.rules), default=0),
                   tuple(anomaly.code for anomaly in parsed.anomalies),
                   tuple((v.label, v.date, v.kind) for v in parsed.versions))


@pytest.fixture(scope="module")
def every_document() -> dict[str, Summary]:
    """Every corpus document parsed, two processes at a time (the machine has two cores)."""
    with ProcessPoolExecutor(max_workers=2) as pool:
        return {summary.id: summary for summary in pool.map(summarise, MANIFEST, chunksize=4)}


@cache
def parsed(doc_id: str) -> ParsedDocument:
    (item,) = ingest_corpus(CORPUS, [doc_id])
    return item.parsed


def rule(doc_id: str, number: str):
    wanted = RuleNumber.parse(number)
    (found,) = [r for r in parsed(doc_id).rules if r.number == wanted]
    return found


def numbers(doc_id: str) -> set[str]:
    return {str(r.number) for r in parsed(doc_id).rules}


# --- the corpus as a whole ---------------------------------------------------------------


def test_every_corpus_document_is_fully_accounted(every_document):
    assert list(every_document) == [meta.id for meta in MANIFEST]
    incomplete = {doc: f"{s.percent:.2f}%" for doc, s in every_document.items() if not s.complete}
    assert incomplete == {}


def test_the_corpus_holds_116_magic_releases_from_2001_to_2026(every_document):
    assert len(MAGIC) == 116 and len(MAGIC) - len([m for m in SUBSET if m.format == "mtg-cr"]) == 107
    labels = sorted(label for meta in MAGIC for label, _, kind in every_document[meta.id].versions if kind == "full")
    assert len(labels) == len(set(labels)) == 116
    assert (labels[0], labels[-1]) == ("2001-07-23", "2026-04-17")
    assert set(CURRENT) <= set(labels) and len(CURRENT) == 15
    # The text's own date can differ from the file's: 2009-10-05 says it is effective October 1.
    dates = {label: date for meta in MAGIC for label, date, _ in every_document[meta.id].versions}
    assert dates["2009-10-05"] == "2009-10-01" and dates["2001-07-23"] == "2001-07-23"


def test_every_magic_release_has_a_glossary_and_no_swallowing_rule(every_document):
    for meta in MAGIC:
        summary = every_document[meta.id]
        assert summary.terms > 150, meta.id
        assert "no-glossary" not in summary.codes and "overlong-rule" not in summary.codes, meta.id
        assert summary.longest_rule < 3_000, meta.id  # 205.3m, the creature types, is the longest real rule


def test_the_history_is_in_date_order_in_the_catalog():
    documents = [parsed(doc) for doc in ("mtg-cr-2001-07-23", "mtg-cr-2010-06-18", "mtg-cr-2008-10-01")]
    catalog = build_catalog(documents)
    assert catalog.version_labels("mtg", "en") == ["2001-07-23", "2008-10-01", "2010-06-18"]


def test_history_entries_keep_their_provenance():
    history = [meta for meta in MAGIC if meta not in SUBSET and meta.versions[0] not in CURRENT + MTG_2026]
    assert all("pit142857/mtg-cr" in meta.source and "mtg-history" in meta.source for meta in history)
    current = [meta for meta in MAGIC if meta.versions[0] in CURRENT]
    assert len(current) == len(CURRENT)
    assert all("xremming/rulesraker" in meta.source and "mtg-current" in meta.source for meta in current)
    assert all(meta.versions == (meta.file.removeprefix("mtg/CR-").removesuffix(".txt"),) for meta in history)
    assert [meta.file for meta in current if not meta.file.endswith(".txt")] == ["mtg/CR-2023-02-03.docx"]
    newest = [meta for meta in MAGIC if meta.versions[0] in MTG_2026]
    assert [meta.file for meta in newest] == ["mtg/MagicCompRules 20260227.txt", "mtg/MagicCompRules 20260417.txt"]
    assert all("A2152225/MTGEDH" in meta.source and "f1f89129" in meta.source for meta in newest)


# --- the five releases that print Glossary straight under the last rule -------------------

GLOSSARY_RUN_ON = {  # paragraphs between the last "Glossary" and "Credits" lines of each file
    "mtg-cr-2014-05-01": (484, "904.12c"),
    "mtg-cr-2014-06-01": (493, "905.6"),
    "mtg-cr-2017-09-29": (534, "905.6"),
    "mtg-cr-2018-04-27": (542, "905.6"),
    "mtg-cr-2018-06-08": (543, "905.6"),
}


@pytest.mark.parametrize("doc_id", sorted(GLOSSARY_RUN_ON))
def test_glossary_printed_under_the_last_rule_is_read(doc_id):
    count, last_rule = GLOSSARY_RUN_ON[doc_id]
    document = parsed(doc_id)
    assert len(document.terms) == count
    assert (document.terms[0].term, document.terms[-1].term) == ("Abandon", "Zone-Change Triggers")
    assert document.terms[-1].definition == "Trigger events that involve objects changing zones. See rule 603.6."
    last = rule(doc_id, last_rule)
    assert "Glossary" not in last.text and len(last.text) < 300
    run_on = [a for a in document.anomalies if a.code == "heading-without-blank" and "'Glossary'" in a.message]
    assert len(run_on) == 1 and document.text[run_on[0].position:].startswith("Glossary")


def test_chapter_headings_printed_under_a_rule_are_headings():
    document = parsed("mtg-cr-2017-09-29")
    chapters = [h.text for h in document.headings if h.text[:2] in {f"{n}." for n in range(1, 10)}]
    assert chapters[1] == "2. Parts of a Card" and chapters[7] == "8. Multiplayer Rules" and len(chapters) == 9
    assert rule("mtg-cr-2017-09-29", "121.6a").text.endswith(".")  # no heading folded into the rule
    assert not [a for a in document.anomalies if a.code in ("chapter-out-of-sequence", "contents-mismatch")]


# --- misprinted numbers, filed where a reader files them ----------------------------------


def test_2010_06_18_prints_505_54_for_505_5():
    doc = "mtg-cr-2010-06-18"
    found = rule(doc, "505.5")
    assert found.written_as == "505.54."
    assert found.text == ("Third, the active player gets priority. Players may cast spells and activate abilities. "
                          "The active player may play a land.")
    assert {"505.4", "505.5", "505.5a", "505.5b", "506"} <= numbers(doc) and "505.6" not in numbers(doc)
    assert not {"505.54", "505.54a", "505.54b"} & numbers(doc)
    (misprint,) = [a for a in parsed(doc).anomalies if a.code == "misprinted-number"]
    start = found.spans[0][0]
    assert misprint.position == start and parsed(doc).text[start:start + 7] == "505.54."
    assert "'505.54.' printed between 505.4 and 505.5a" in misprint.message
    assert "filed as 505.5" in misprint.decision
    assert not [a for a in parsed(doc).anomalies if a.code in ("out-of-sequence", "number-out-of-parent")]


def test_2006_05_01_prints_501_2_to_501_6_under_510():
    doc = "mtg-cr-2006-05-01"
    assert rule(doc, "510.2").written_as == "501.2."
    status = "Status is not a characteristic, though it may affect a permanent's characteristics."
    assert rule(doc, "510.2").text == status
    assert [rule(doc, f"510.{n}").written_as for n in range(2, 7)] == [f"501.{n}." for n in range(2, 7)]
    assert rule(doc, "501.2").text == "Evasion abilities are cumulative."  # the real 501.2 keeps its place
    assert len([a for a in parsed(doc).anomalies if a.code == "number-out-of-parent"]) == 5


@pytest.mark.parametrize("doc_id", ["mtg-cr-2006-10-01", "mtg-cr-2007-02-01", "mtg-cr-2007-05-01",
                                    "mtg-cr-2007-07-13", "mtg-cr-2007-09-07"])
def test_432_2b_is_filed_as_423_2b(doc_id):
    assert rule(doc_id, "423.2b").written_as == "432.2b"
    assert rule(doc_id, "423.2b").text.startswith("If an effect instructs more than one player to draw cards in a "
                                                  "Two-Headed Giant game")
    assert "432.2b" not in numbers(doc_id)


# --- texts of the oldest releases ---------------------------------------------------------


def test_the_oldest_release_rejoins_its_wrapped_lines():
    assert rule("mtg-cr-2001-07-23", "100.1").text == (
        "These Magic rules assume a game between two players. Optional rules allow for more players but aren't "
        "discussed here. These rules can be found at the Wizards of the Coast website at "
        "www.wizards.com/magic/MTG_Rules.asp.")


def test_a_glossary_list_stays_with_the_entry_that_introduces_it():
    document = parsed("mtg-cr-2001-07-23")
    (symbol,) = [t for t in document.terms if t.term == "Expansion Symbol"]
    assert symbol.definition.splitlines()[0].startswith("The small icon printed below the right edge")
    assert "Expansions and Editions" in symbol.definition and "Unglued\ufffd [symbol]" in symbol.definition
    assert not [t for t in document.terms if "[symbol]" in t.term]
    assert [t.term for t in document.terms][document.terms.index(symbol) + 1] == "Fading"
    (lost,) = [a for a in document.anomalies if a.code == "lost-characters"]
    assert lost.message.startswith(f"{document.text.count(chr(0xFFFD))} character(s)")


# --- adding a release to the whole history ------------------------------------------------


def test_adding_a_release_to_the_history_compares_it_with_the_release_before(cli, tmp_path):
    """``add`` into the whole history less 2016-07-22 finds 2016-04-08 as the previous release."""
    from rules_kb.ingest.corpus import MANIFEST as MANIFEST_FILE
    from rules_kb.ingest.corpus import manifest_entry

    corpus = tmp_path / "corpus"
    corpus.mkdir()
    for entry in CORPUS.iterdir():  # curated data and the other folders as they are
        if entry.name not in (MANIFEST_FILE, "mtg"):
            (corpus / entry.name).symlink_to(entry, target_is_directory=entry.is_dir())
    kept = [meta for meta in MANIFEST if meta.id != "mtg-cr-2016-07-22"]
    (corpus / "mtg").mkdir()  # every Magic file but the one to add
    for meta in kept:
        if meta.file.startswith("mtg/"):
            shutil.copyfile(CORPUS / meta.file, corpus / meta.file)  # a symlink out of the corpus is refused
    (corpus / MANIFEST_FILE).write_text("\n".join(manifest_entry(meta) for meta in kept), encoding="utf-8")
    source = tmp_path / "CR-2016-07-22.txt"
    source.write_bytes((CORPUS / "mtg/CR-2016-07-22.txt").read_bytes())
    code, out, err = cli("--corpus", str(corpus), "add", str(source), "--version", "2016-07-22")
    assert code == 0, err
    assert "2245 rules, 238 examples, 516 terms, 0 anomalies" in out
    assert ("against 2016-04-08: 2083 unchanged, 2 editorial, 9 renumbered-reference, 19 substantive, "
            "82 moved, 1 split, 50 added, 1 removed") in out
    assert load_manifest(corpus)[-1].id == "mtg-cr-2016-07-22"


# --- the releases of 2023-2026 ---------------------------------------------------------------


def test_the_newest_release_states_its_date_and_newest_keyword():
    document = parsed("mtg-cr-2026-01-16")
    assert [(v.label, v.date) for v in document.versions if v.kind == "full"] == [("2026-01-16", "2026-01-16")]
    assert rule("mtg-cr-2026-01-16", "702.189").text == "Firebending"
    assert rule("mtg-cr-2026-01-16", "702.189a").text.startswith("Firebending is a triggered ability.")
    assert len(document.terms) == 725  # paragraphs between the last Glossary and Credits lines
    assert (document.terms[0].term, document.terms[-1].term) == ("Abandon", "Zone-Change Triggers")


def test_the_2026_releases_bring_sneak_then_increment_and_paradigm():
    # "These rules are effective as of February 27, 2026." opens the first; 702.190 is new in it.
    february = parsed("mtg-cr-2026-02-27")
    assert [(v.label, v.date) for v in february.versions if v.kind == "full"] == [("2026-02-27", "2026-02-27")]
    assert rule("mtg-cr-2026-02-27", "702.190").text == "Sneak"
    assert rule("mtg-cr-2026-02-27", "702.190a").text.endswith("rather than pay this spell’s mana cost.”")
    assert "702.191" not in numbers("mtg-cr-2026-02-27") and "702.189" in numbers("mtg-cr-2026-02-27")
    # April reworded 702.190a ("you may cast this spell by paying [cost]") and added 702.191 and 702.192.
    april = parsed("mtg-cr-2026-04-17")
    assert [(v.label, v.date) for v in april.versions if v.kind == "full"] == [("2026-04-17", "2026-04-17")]
    assert rule("mtg-cr-2026-04-17", "702.190a").text.endswith("rather than paying this spell’s mana cost.”")
    assert (rule("mtg-cr-2026-04-17", "702.191").text, rule("mtg-cr-2026-04-17", "702.192").text) == (
        "Increment", "Paradigm")
