"""A signed snapshot of a built knowledge base: a build whose inputs did not change reads it back.

Why: building the knowledge base from the parse and alignment caches takes 35–43 s at the whole
history, nearly all of it making Python objects (a quarter of a million nodes and 1.2 million
edges); reading the snapshot back, signature checked, takes about 6 s. A build with nothing changed, the publishing
workflow's weekly case, and the build after an ``add`` (which built the same knowledge base for
the store) then start from it.

Why it is safe: unpickling runs code, and the cache folder may come from anywhere (a copied
``build/``, a shared disk), which is why the other caches are JSON. A snapshot is therefore read
only when its HMAC-SHA256 verifies with a key of this user's own, kept outside the cache
(``$XDG_CONFIG_HOME/rules-kb/snapshot-key``, else ``~/.config/…``: 32 random bytes, mode 0600,
made on first use). A file written by anyone without the key, or changed after it was written,
is never unpickled: the knowledge base is built from the caches as before. When the key cannot be
read or made, there is no snapshot, only the slower path.

A snapshot names its inputs as the store does: the corpus's cache key (manifest, curated files,
package source), the stat of every corpus file (a file whose stat moved is hashed against the
manifest again, ``caches.check_files``) and the Python and networkx versions its objects were made
under. One file per corpus folder, replaced whole.

Why the records travel apart (format 2): pickled one by one, each of the ~800,000 slotted records
(rule texts, their graph nodes, alignment rows, terms) came with a state list that the
unpickler's memo kept until the end of the load, then freed at once; the holes left 210 MB of
half-empty allocator arenas in every process that read a snapshot (the build's site groups and
its store process are forked from it). Now the pickle names each record by a number
(``persistent_id``) and its fields follow, column by column, after the body; the reader makes
each record empty when first named and fills it from the columns, so nothing short-lived is
interleaved with what the knowledge base keeps.
"""

from __future__ import annotations

import copyreg
import gc
import hashlib
import hmac
import json
import os
import pickle
import secrets
import sys
import tempfile
from collections import deque
from pathlib import Path
from types import MappingProxyType
from typing import TYPE_CHECKING

from rules_kb.assemble.caches import cache_key, check_files, file_stats
from rules_kb.compare.splits import aligning_word_sets
from rules_kb.tokens import unload_dictionary

if TYPE_CHECKING:
    from rules_kb.assemble.knowledge import Knowledge

FORMAT = b"rules-kb knowledge snapshot 2\n"
KEY_ENVIRONMENT = "XDG_CONFIG_HOME"


def snapshot_path(corpus: Path, cache_dir: Path) -> Path:
    """One snapshot per corpus folder, beside its store (``store-<tag>.sqlite``)."""
    tag = hashlib.sha256(str(corpus.resolve()).encode()).hexdigest()[:12]
    return cache_dir / f"snapshot-{tag}.bin"


def key_path() -> Path:
    base = os.environ.get(KEY_ENVIRONMENT) or os.path.join(os.path.expanduser("~"), ".config")
    return Path(base) / "rules-kb" / "snapshot-key"


def _signing_key(make: bool) -> bytes | None:
    """This user's key; made (0600, never replaced) when ``make`` and missing; None when unusable."""
    path = key_path()
    try:
        key = path.read_bytes()
    except FileNotFoundError:
        if not make:
            return None
        try:
            path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
            descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        except FileExistsError:  # another process made it meanwhile: use theirs
            return _signing_key(make=False)
        except OSError:
            return None
        key = secrets.token_bytes(32)
        with os.fdopen(descriptor, "wb") as out:
            out.write(key)
        return key
    except OSError:
        return None
    return key if len(key) == 32 else None


def _proxy(mapping: dict) -> MappingProxyType:
    """The graph shares read-only key dicts between plain edges (``kb.nodes``); pickled by value,
    each once (the pickle's memo keeps them shared)."""
    return MappingProxyType(mapping)


def _graph(graph_attrs: dict, nodes: dict, successors: dict, predecessors: dict):
    import networkx as nx

    graph = nx.MultiDiGraph()
    graph.graph, graph._node, graph._adj, graph._pred = graph_attrs, nodes, successors, predecessors
    return graph


def _reduce_graph(graph) -> tuple:
    """The graph's own dicts, without networkx's view cache (which holds unpicklable proxies)."""
    return _graph, (graph.graph, graph._node, graph._succ, graph._pred)


def write_snapshot(corpus: Path, cache_dir: Path, knowledge: Knowledge, key: str,
                   files: dict[str, list[int]]) -> bool:
    """Write the snapshot of ``knowledge`` (built from ``corpus`` as ``key`` and ``files`` were taken
    before it was read); False when no key is to be had or the file cannot be written (a cache
    only saves time)."""
    import networkx as nx

    secret = _signing_key(make=True)
    if secret is None:
        return False
    path = snapshot_path(corpus, cache_dir)
    header = json.dumps({"input_key": key, "files": files, "runtime": _runtime()}, sort_keys=True).encode() + b"\n"
    signer = hmac.new(secret, header, hashlib.sha256)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    except OSError:
        return False
    try:
        with os.fdopen(handle, "wb") as out:
            out.write(FORMAT + header + b"0" * 64 + b"\n")  # the signature's place, filled in last
            # the Japanese word sets travel with the alignments (the same sets ``word_set`` makes):
            # a build that reads the snapshot then aligns without loading Sudachi's dictionary
            knowledge.alignments.words["ja"] = aligning_word_sets(knowledge.catalog.all_texts())
            unload_dictionary()  # its mapped pages are not needed for the pickle
            packer = _Packer(_Signed(out, signer), {**copyreg.dispatch_table, nx.MultiDiGraph: _reduce_graph,
                                                    MappingProxyType: lambda m: (_proxy, (dict(m),))})
            packer.dump((knowledge.catalog, knowledge.graph, knowledge.unresolved, knowledge.forced,
                         knowledge.alignments, knowledge.correspondences))
            packer.dump_records()
            out.seek(len(FORMAT) + len(header))
            out.write(signer.hexdigest().encode())
        os.chmod(temporary, 0o600)  # a user's own cache: nobody else needs to read it
        os.replace(temporary, path)
        return True
    except OSError:
        return False
    finally:
        if os.path.exists(temporary):
            os.unlink(temporary)


def _record_classes() -> tuple[type, ...]:
    """The slotted records that travel as columns; a record's kind is its place here."""
    from rules_kb.compare.alignment import Pair
    from rules_kb.model import Example, Heading, RuleText, Term

    return (RuleText, Example, Heading, Term, Pair)


class _Packer(pickle.Pickler):
    """A pickler that writes each record as a number (``persistent_id``), then, after the body,
    the fields of every record it named (``dump_records``). A text node is its text's number,
    negated: it is only ever one reference to the text."""

    def __init__(self, file, dispatch_table: dict) -> None:
        from rules_kb.kb.graph import TextNode

        super().__init__(file, protocol=pickle.HIGHEST_PROTOCOL)
        self.dispatch_table = dispatch_table
        self.text_node = TextNode
        self.classes = _record_classes()
        self.kinds = {cls: kind for kind, cls in enumerate(self.classes)}
        self.numbers: dict[int, int] = {}  # id of a record -> its number (the records outlive the dump)
        self.named: list[list] = [[] for _ in self.classes]

    def persistent_id(self, obj: object) -> int | None:
        kind = self.kinds.get(type(obj))
        if kind is None:
            return -1 - self.persistent_id(obj.rule) if type(obj) is self.text_node else None  # type: ignore[attr-defined, operator]
        number = self.numbers.get(id(obj))
        if number is None:
            named = self.named[kind]
            number = self.numbers[id(obj)] = len(named) * len(self.classes) + kind
            named.append(obj)
        return number

    def dump_records(self) -> None:
        """Each kind's records named since the last round, as ``(kind, first, columns)``, one column
        per slot; a column can name records not met before, so rounds go on until none is left. Then None."""
        done = [0] * len(self.classes)
        while any(len(named) > start for named, start in zip(self.named, done, strict=True)):
            for kind, cls in enumerate(self.classes):
                batch = self.named[kind][done[kind]:]
                if batch:
                    self.dump((kind, done[kind], [[getattr(r, name) for r in batch] for name in cls.__slots__]))
                    done[kind] += len(batch)
        self.dump(None)


class _Unpacker(pickle.Unpickler):
    """Reads what ``_Packer`` wrote: a record is made empty when first named, and filled by ``load_records``."""

    def __init__(self, file) -> None:
        from rules_kb.kb.graph import TextNode

        super().__init__(file)
        self.text_node = TextNode
        self.classes = _record_classes()
        self.made: list[list] = [[] for _ in self.classes]

    def persistent_load(self, pid: object) -> object:
        if type(pid) is not int:
            raise pickle.UnpicklingError(f"not a record's number: {pid!r}")
        if pid < 0:
            return self.text_node(self.persistent_load(-1 - pid))
        index, kind = divmod(pid, len(self.classes))
        made, cls = self.made[kind], self.classes[kind]
        while len(made) <= index:
            made.append(cls.__new__(cls))
        return made[index]

    def load_records(self) -> None:
        """Fill every record named so far from the columns that follow the body; a record left
        empty (a snapshot cut short) is refused as a damaged file would be."""
        filled = [0] * len(self.classes)
        while (part := self.load()) is not None:
            kind, first, columns = part
            cls = self.classes[kind]
            if first != filled[kind] or len(columns) != len(cls.__slots__):
                raise pickle.UnpicklingError(f"{cls.__name__} columns out of order")
            records = self.made[kind][first:first + len(columns[0])]
            for name, column in zip(cls.__slots__, columns, strict=True):
                deque(map(getattr(cls, name).__set__, records, column), maxlen=0)  # bypasses a frozen __setattr__
            filled[kind] = first + len(records)
        if filled != [len(made) for made in self.made]:
            raise pickle.UnpicklingError("records named but never filled")


def _runtime() -> str:
    """What the pickle's objects also depend on beyond the package's source (the input key)."""
    import networkx as nx

    return f"python {sys.version.split()[0]}, networkx {nx.__version__}"


def _input_key(header: bytes) -> str | None:
    try:
        record = json.loads(header)
    except ValueError:
        return None
    return record.get("input_key") if isinstance(record, dict) else None


class _Signed:
    """A binary file that feeds every write to the HMAC as well."""

    def __init__(self, out, signer) -> None:
        self.out, self.signer = out, signer

    def write(self, data) -> int:
        self.signer.update(data)
        return self.out.write(data)


def read_snapshot_parts(corpus: Path, cache_dir: Path) -> tuple | None:
    """The fields of the knowledge base of ``corpus`` as it is now (``Knowledge(*parts)``: made by
    ``knowledge.read_snapshot``, which this module does not import), from its snapshot; None when
    there is none, it is stale, or it does not verify with this user's key (then it is never
    unpickled). A corpus file edited since raises ``ManifestError``, as building would."""
    path = snapshot_path(corpus, cache_dir)
    secret = _signing_key(make=False)
    if secret is None or not path.is_file():  # a regular file only (a FIFO would block the read)
        return None
    try:
        with open(path, "rb") as handle:
            mark, header = handle.readline(len(FORMAT)), handle.readline(1 << 20)
            if mark != FORMAT or not header.endswith(b"\n") or _input_key(header) != cache_key(corpus):
                return None  # the header is read unchecked only to turn a stale snapshot down unread
            recorded, body = handle.readline(66), handle.tell()
            signer = hmac.new(secret, header, hashlib.sha256)
            while chunk := handle.read(1 << 20):  # checked through the handle it is then read from
                signer.update(chunk)
            if len(recorded) != 65 or not hmac.compare_digest(signer.hexdigest().encode(), recorded[:64]):
                return None
            record = json.loads(header)
            if record.get("runtime") != _runtime():  # another Python or networkx: built again
                return None
            if record["files"] != file_stats(corpus):
                check_files(corpus, record["files"])
            handle.seek(body)
            enabled = gc.isenabled()
            gc.disable()  # millions of objects made at once: the collector would walk them again and again
            try:
                unpacker = _Unpacker(handle)
                fields = unpacker.load()
                unpacker.load_records()
                del unpacker  # its memo: the columns, freed together
            except (pickle.UnpicklingError, EOFError, AttributeError, ImportError, TypeError, ValueError,
                    IndexError, KeyError):  # our own signed file, yet it will not load: built instead
                return None
            finally:
                if enabled:
                    gc.enable()
    except OSError:  # none there (the usual case on a first build), or unreadable: built instead
        return None
    return fields


__all__ = ["read_snapshot_parts", "snapshot_path", "write_snapshot"]
