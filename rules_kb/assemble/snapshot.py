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
from pathlib import Path
from types import MappingProxyType
from typing import TYPE_CHECKING

from rules_kb.assemble.caches import cache_key, check_files, file_stats

if TYPE_CHECKING:
    from rules_kb.assemble.knowledge import Knowledge

FORMAT = b"rules-kb knowledge snapshot 1\n"
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
            pickler = pickle.Pickler(_Signed(out, signer), protocol=pickle.HIGHEST_PROTOCOL)
            pickler.dispatch_table = {**copyreg.dispatch_table, MappingProxyType: lambda m: (_proxy, (dict(m),)),
                                      nx.MultiDiGraph: _reduce_graph}
            pickler.dump((knowledge.catalog, knowledge.graph, knowledge.unresolved, knowledge.forced,
                          knowledge.alignments, knowledge.correspondences))
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
                fields = pickle.load(handle)
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
