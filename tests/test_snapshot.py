"""The knowledge base's signed snapshot: read back as it was built, and never unpickled unless this
user's key signed it (``rules_kb/assemble/snapshot.py``)."""

from __future__ import annotations

import json
import os
import pickle
import stat
import subprocess
import sys

import pytest

from rules_kb.assemble.caches import cache_key, file_stats
from rules_kb.assemble.knowledge import load_knowledge, read_snapshot
from rules_kb.assemble.snapshot import FORMAT, key_path, snapshot_path, write_snapshot
from rules_kb.kb.graph import TextNode
from rules_kb.render.export import export_lines
from rules_kb.store.records import alignment_record, rule_record


@pytest.fixture(scope="module")
def written(knowledge, subset_corpus, tmp_path_factory):
    """The subset's knowledge base written as a snapshot into a cache folder of its own."""
    cache = tmp_path_factory.mktemp("snapshot-cache")
    assert write_snapshot(subset_corpus, cache, knowledge, cache_key(subset_corpus), file_stats(subset_corpus))
    return cache


def test_a_snapshot_reads_back_the_knowledge_base_it_was_written_from(knowledge, subset_corpus, written):
    again = read_snapshot(subset_corpus, written)
    assert again is not None and again is not knowledge
    assert "".join(export_lines(again.graph, "json")) == "".join(export_lines(knowledge.graph, "json"))
    texts = [rule_record(t) for t in knowledge.catalog.all_texts()]
    assert [rule_record(t) for t in again.catalog.all_texts()] == texts
    assert len(again.catalog.all_texts()) == len(knowledge.catalog.all_texts()) > 20_000
    assert {k: alignment_record(a) for k, a in again.alignments.items()} == \
        {k: alignment_record(a) for k, a in knowledge.alignments.items()}
    assert (again.unresolved, again.forced, again.correspondences) == \
        (knowledge.unresolved, knowledge.forced, knowledge.correspondences)
    # one object per text, as built: the graph's text nodes and the alignments' rows hold the catalog's own
    for kb in (knowledge, again):
        texts = {id(t) for t in kb.catalog.all_texts()}
        nodes = [attributes.rule for attributes in kb.graph._node.values() if isinstance(attributes, TextNode)]
        assert len(nodes) == len(texts) and all(id(rule) in texts for rule in nodes)
        rows = [rule for alignment in kb.alignments.values() for pair in alignment.pairs
                for rule in (pair.old, pair.new) if rule is not None]
        assert len(rows) > 20_000 and all(id(rule) in texts for rule in rows)
    # load_knowledge, what the build and the site read, takes the snapshot when one is current
    assert load_knowledge(subset_corpus, written).graph.number_of_edges() == knowledge.graph.number_of_edges()


ALIGN_JAPANESE = """
import json, sys
from pathlib import Path
from rules_kb.assemble.knowledge import read_snapshot
from rules_kb.compare.align import align_pair
from rules_kb.compare.memory import AlignmentMemo
from rules_kb.store.records import alignment_record
from rules_kb.tokens import _dictionary
kb = read_snapshot(Path(sys.argv[1]), Path(sys.argv[2]))
memo = AlignmentMemo()
if sys.argv[3] == "carried":
    memo.words = kb.alignments.words
labels = kb.catalog.version_labels("dm", "ja")  # the two fullest releases, in order
old, new = sorted(sorted(labels, key=lambda label: -len(kb.catalog.rules_in("dm", "ja", label)))[:2], key=labels.index)
record = alignment_record(align_pair(kb.catalog, memo, "dm", "ja", old, new, ()))
print(json.dumps([_dictionary.cache_info().currsize, len(kb.alignments.words["ja"]), record]))
"""


def test_a_snapshot_carries_the_japanese_word_sets_so_aligning_needs_no_tokenizer(subset_corpus, written):
    """Sudachi's dictionary is ~160 MB resident once used: a build that reads the snapshot aligns
    Duel Masters' Japanese with the word sets it carries, and gets the alignment the tokenizer gives."""
    def align(words: str) -> list:
        run = subprocess.run([sys.executable, "-c", ALIGN_JAPANESE, str(subset_corpus), str(written), words],
                             capture_output=True, text=True)
        assert run.returncode == 0, run.stderr
        return json.loads(run.stdout)

    loaded, carried, record = align("carried")
    assert (loaded, carried > 500) == (0, True)
    assert align("tokenized") == [1, carried, record]  # without them, Sudachi is loaded, for the same rows
    assert len(record["pairs"]) > 10


def test_the_key_and_the_snapshot_are_the_users_alone(written, subset_corpus):
    assert stat.S_IMODE(key_path().stat().st_mode) == 0o600
    assert len(key_path().read_bytes()) == 32
    assert stat.S_IMODE(snapshot_path(subset_corpus, written).stat().st_mode) == 0o600


def test_a_snapshot_not_signed_with_the_users_key_is_never_unpickled(subset_corpus, tmp_path):
    """A foreign file in the cache folder (a copied build/) whose pickle would run a command: refused
    unread, and the command never runs."""
    ran = tmp_path / "ran"

    class Payload:
        def __reduce__(self):
            return os.system, (f"touch {ran}",)

    header = f'{{"files": {{}}, "input_key": "{cache_key(subset_corpus)}"}}\n'.encode()
    path = snapshot_path(subset_corpus, tmp_path)
    path.write_bytes(FORMAT + header + b"0" * 64 + b"\n" + pickle.dumps(Payload()))
    assert read_snapshot(subset_corpus, tmp_path) is None
    assert not ran.exists()


def test_an_edited_stale_or_foreign_keyed_snapshot_is_built_again(written, subset_corpus, tmp_path, monkeypatch):
    data = snapshot_path(subset_corpus, written).read_bytes()
    path = snapshot_path(subset_corpus, tmp_path)
    path.write_bytes(data)
    assert read_snapshot(subset_corpus, tmp_path) is not None
    path.write_bytes(data[:-100] + bytes([data[-100] ^ 1]) + data[-99:])  # one bit of the pickle changed
    assert read_snapshot(subset_corpus, tmp_path) is None
    path.write_bytes(data.replace(cache_key(subset_corpus).encode(), b"0" * 16, 1))  # another corpus's key
    assert read_snapshot(subset_corpus, tmp_path) is None
    path.write_bytes(data)
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "another-user"))  # signed by someone else
    assert read_snapshot(subset_corpus, tmp_path) is None
    assert not (tmp_path / "another-user").exists()  # reading never makes a key


def test_a_snapshot_of_another_python_or_networkx_is_built_again(knowledge, subset_corpus, tmp_path, monkeypatch):
    """The package's source is in the input key; the pickle's objects also depend on the interpreter
    and networkx, so a snapshot written under others is turned down even when signed."""
    from rules_kb.assemble import snapshot as snapshot_module

    with monkeypatch.context() as patch:
        patch.setattr(snapshot_module, "_runtime", lambda: "python 3.10.0, networkx 2.8")
        assert write_snapshot(subset_corpus, tmp_path, knowledge, cache_key(subset_corpus), file_stats(subset_corpus))
    header = snapshot_path(subset_corpus, tmp_path).read_bytes().split(b"\n", 2)[1]
    assert b'"runtime": "python 3.10.0, networkx 2.8"' in header
    assert read_snapshot(subset_corpus, tmp_path) is None
