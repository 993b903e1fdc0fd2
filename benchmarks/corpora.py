"""Corpus folders of a given size, for figures by corpus size: the oldest N Magic releases and every
other document (all of Duel Masters, the rulings), as ``tests/conftest.py`` builds its subset: the
same files linked, the curated data linked, a filtered manifest.

    python benchmarks/corpora.py N FOLDER     # writes FOLDER; prints how many documents it holds
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from rules_kb.ingest.corpus import MANIFEST, load_manifest, manifest_entry  # noqa: E402 (after the path)


def magic_releases(corpus: Path) -> list[str]:
    """Ids of the corpus's Magic Comprehensive Rules releases, oldest first."""
    releases = [meta for meta in load_manifest(corpus) if meta.format == "mtg-cr"]
    return [meta.id for meta in sorted(releases, key=lambda meta: (meta.versions[0], meta.id))]


def write_corpus(corpus: Path, releases: int | None, folder: Path) -> int:
    """``folder`` made a corpus of the oldest ``releases`` Magic releases (None: all) and every other
    document; returns its document count."""
    kept = set(magic_releases(corpus)[:releases])
    metas = [meta for meta in load_manifest(corpus) if meta.format != "mtg-cr" or meta.id in kept]
    folder.mkdir(parents=True, exist_ok=True)
    for entry in corpus.iterdir():
        if entry.name != MANIFEST and not (folder / entry.name).exists():
            (folder / entry.name).symlink_to(entry.resolve(), target_is_directory=entry.is_dir())
    header = f"# corpus/manifest.toml with the oldest {releases} Magic releases (benchmarks/corpora.py).\n\n"
    (folder / MANIFEST).write_text(header + "\n".join(manifest_entry(meta) for meta in metas), encoding="utf-8")
    return len(metas)


if __name__ == "__main__":
    count = write_corpus(ROOT / "corpus", int(sys.argv[1]), Path(sys.argv[2]))
    print(f"{sys.argv[2]}: {count} documents")
