"""The token diffs the compare page draws: ``diff``'s own (``compare.changes.compare_texts``), one
record per two texts a comparison can pair, written by ``render/compare_data.py``.

A record holds the text class, the ops as lengths in code points over the two comparable texts
(equal, deleted, inserted, equal, …, so no text is written twice: the page has the texts from the
version files), the ``changed:`` and ``editorial`` lines ``diff`` prints under the row, and the
examples' diffs. Every two texts of one rule across the whole history is tens of thousands of
diffs for Magic (37,387 at 116 releases, ~4 ms of CPU each), so records are kept in a cache keyed
by the two texts and the code that diffs them, and the missing ones are made in worker processes:
one more release diffs only its new texts.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterator
from contextlib import contextmanager
from importlib import metadata
from itertools import islice
from pathlib import Path

from rules_kb.assemble.caches import (
    CacheDamaged,
    cache_root,
    ensure_folder,
    read_cache_file,
    source_hash,
    warn_rebuilt,
    write_cache_file,
)
from rules_kb.assemble.knowledge import ALIGNING
from rules_kb.assemble.parallel import map_in_order
from rules_kb.compare.changes import RowChange, compare_texts
from rules_kb.compare.diff import TokenDiff, pair_digest, seeded, token_diff_record
from rules_kb.compare.similarity import comparable_text
from rules_kb.model import RuleText
from rules_kb.render.textformat import changed_words, editorial_note
from rules_kb.tokens import unload_dictionary

# What a record depends on besides its two texts: the aligner's code (the diff and its classes),
# the lines diff prints, and this module.
DIFFING = (*ALIGNING, "render/textformat.py", "render/compare_diffs.py")
CHUNK = 400  # texts pairs per worker job


def text_key(rule: RuleText) -> tuple:
    """What a comparison reads of a text: two texts with one key compare as unchanged."""
    return (comparable_text(rule), rule.truncated, tuple(e.text for e in rule.examples))


def _ops(diff: TokenDiff) -> list[int]:
    """The ops as lengths in code points: equal, deleted, inserted, equal, …, ending on an equal."""
    out = [0]
    for op in diff.ops:
        if op.tag == "equal":
            if len(out) % 3 == 1:
                out[-1] += len(op.old)
            else:
                out.append(len(op.old))
        elif len(out) % 3 == 1:
            out.extend([len(op.old), len(op.new)])
        else:
            out.extend([0, len(op.old), len(op.new)])
    return out


def diff_record(row: RowChange) -> dict:
    """One text pair's diff as the page draws it, and as ``diff`` prints the row's lines."""
    record: dict = {"class": row.text_class, "ops": _ops(row.diff)}
    if changed := changed_words(row):
        record["changed"] = changed
    if row.diff.editorial_changes:
        record["editorial"] = [editorial_note(change) for change in row.diff.editorial_changes]
    if row.compared_prefix:
        record["prefix"] = 1
    examples = [[d.classification, _ops(d)] for d in row.example_diffs]
    if any(cls != "unchanged" for cls, _ in examples):
        record["examples"] = examples
    if row.examples_removed or row.examples_added:
        record["examples_dropped"] = [len(row.examples_removed), len(row.examples_added)]
    return record


def _records(pairs: list[tuple[RuleText, RuleText]], game: str) -> list[dict]:
    return [diff_record(compare_texts(old, new, game)) for old, new in pairs]


def _digest(old: RuleText, new: RuleText) -> str:
    keys = json.dumps([text_key(old), text_key(new)], ensure_ascii=False)
    return hashlib.sha256(keys.encode()).hexdigest()[:32]


def read_cache(name: str, salt: str, what: str) -> tuple[Path, dict]:
    """The compare cache ``name`` made by the code ``salt`` digests (``$RULES_KB_CACHE/compare/``):
    its path and what it holds (nothing when absent; one warning when damaged)."""
    path = ensure_folder(cache_root() / "compare") / f"{name}-{salt[:16]}.json"
    try:
        cached = read_cache_file(path) or {}
    except CacheDamaged as exc:
        warn_rebuilt([str(exc)], what)
        cached = {}
    return path, cached if isinstance(cached, dict) else {}


def write_cache(path: Path, records: dict) -> None:
    """Write a compare cache, and remove the ones other code made (never read again)."""
    write_cache_file(path, json.dumps(records, ensure_ascii=False, separators=(",", ":")))
    for older in path.parent.glob(path.name[:-len("0123456789abcdef.json")] + "*.json"):
        if older != path:
            older.unlink(missing_ok=True)


def diff_records(pairs: list[tuple[RuleText, RuleText]], game: str, lang: str) -> list[dict]:
    """The record of each pair, from the cache or made now (and added to it)."""
    path, cached = read_cache(f"{game}-{lang}", source_hash(DIFFING), "the compare diffs' cache")
    digests = [_digest(old, new) for old, new in pairs]
    missing = [pair for pair, digest in zip(pairs, digests, strict=True) if not isinstance(cached.get(digest), dict)]
    jobs = iter(missing)
    chunks = iter(lambda: list(islice(jobs, CHUNK)), [])
    made = iter(record for chunk in map_in_order(_records, ((chunk, game) for chunk in chunks)) for record in chunk)
    records = dict(cached)
    for digest in digests:
        if not isinstance(records.get(digest), dict):
            records[digest] = next(made)
    if missing:  # kept with the rest: a build of another corpus (the tests' subset) shares most pairs
        write_cache(path, records)
    return [records[digest] for digest in digests]


def tokenizer_versions() -> str:
    """The installed Sudachi and its dictionary: a Japanese diff depends on their tokens too."""
    found = []
    for name in ("sudachipy", "sudachidict-core"):
        try:
            found.append(f"{name} {metadata.version(name)}")
        except metadata.PackageNotFoundError:
            found.append(f"{name} absent")
    return "; ".join(found)


@contextmanager
def kept_token_diffs() -> Iterator[None]:
    """The token diffs of a site build kept for the next one (``$RULES_KB_CACHE/compare/tokens-*.json``,
    keyed by the two texts, under the code and tokenizer that made them): the diff pages of a
    release pair are reused whole, but the rule pages and the audit data diff every changed pair
    of the history again, a fifth of a rebuild's CPU. Written when the build asked for other
    pairs than the last one (so it holds only what the newest build used), and only when the block
    ends without an error."""
    salt = hashlib.sha256(f"{source_hash(ALIGNING)}\0{tokenizer_versions()}".encode()).hexdigest()
    path, cached = read_cache("tokens", salt, "the token diffs' cache")
    with seeded(cached) as used:
        yield
    unload_dictionary()  # every diff is made: the dictionary's pages need not stay for the writing
    # sorted: two processes ask the same pairs in another order than one (``site/groups.py``)
    records = dict(sorted((pair_digest(*key), token_diff_record(diff)) for key, diff in used.items()))
    if records.keys() != cached.keys():
        write_cache(path, records)
