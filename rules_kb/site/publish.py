"""Check a built site against a free static host's limits before uploading it.

The limits are the free plans' published ones (as of 2026): a site over any of them is refused
by the host or cut off, so the check names each limit that the site is over and by how much.
The project's own budget (``BUDGET``) is the tightest of them with room for growth: the README
gives the files and bytes one more release adds.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from rules_kb.errors import UsageError

MiB = 2**20
MB = 10**6  # the hosts and the issue say "1 GB", "300 MB": read as decimal units, the stricter reading


@dataclass(frozen=True)
class Limits:
    name: str
    files: int | None  # files in the published site
    total: int | None  # bytes of the published site
    file_size: int | None  # bytes of the largest file
    source: str  # where a reader checks the figure


HOSTS: dict[str, Limits] = {
    "github": Limits("GitHub Pages", None, 1000 * MB, 100 * MiB,
                     "a published site at most 1 GB; a file at most 100 MiB; a deployment at most 10 minutes"),
    "cloudflare": Limits("Cloudflare Pages (free plan)", 20_000, None, 25 * MiB,
                         "at most 20,000 files a site, 25 MiB a file"),
    "gitlab": Limits("GitLab Pages (gitlab.com)", 200_000, 1000 * MB, None,
                     "at most 200,000 files and 1 GB of artifacts a site"),
}
BUDGET = Limits("rules-kb's own budget", 20_000, 300 * MB, 25 * MiB,
                "the target for the whole history: the tightest host's files, 300 MB in all")


@dataclass(frozen=True)
class SiteFigures:
    files: int
    total: int
    largest: tuple[int, str]  # bytes and path (from the site's root) of the largest file


def measure(site: Path) -> SiteFigures:
    """Files, bytes and the largest file of a built site, as a host counts them (every file)."""
    if not (site / "index.html").is_file():
        raise UsageError(f"{site}: holds no built site (run `rules-kb build` first)")
    files = total = 0
    largest = (0, "")
    for folder, _, names in os.walk(site, onerror=_unreadable):
        for name in names:
            path = Path(folder) / name
            size = _size(site, path)
            files, total = files + 1, total + size
            if size > largest[0]:
                largest = (size, path.relative_to(site).as_posix())
    return SiteFigures(files, total, largest)


def _unreadable(error: OSError) -> None:
    """A folder the walk cannot read would be left out of the count: refused instead."""
    raise UsageError(f"{error.filename}: cannot read this folder of the site ({error.strerror}): the figures "
                     "would leave it out")


def _size(site: Path, path: Path) -> int:
    """The bytes a host uploads for ``path``; a symlink must stay inside the site (a host would copy
    what it names, or refuse it), and one that does not is refused by name."""
    if path.is_symlink():
        target = os.path.realpath(path)
        root = os.path.realpath(site)
        if not (target == root or target.startswith(root + os.sep)):
            raise UsageError(f"{path}: a symlink out of the site (to {target}): a host would not publish it")
    try:
        return path.stat().st_size
    except OSError as exc:
        raise UsageError(f"{path}: cannot read ({exc.strerror})") from None


def over_limits(figures: SiteFigures, limits: Limits) -> list[str]:
    """Each limit the site is over, as a phrase naming the figure and the limit; empty when it fits."""
    over = []
    if limits.files is not None and figures.files > limits.files:
        over.append(f"{figures.files:,} files (limit {limits.files:,})")
    if limits.total is not None and figures.total > limits.total:
        over.append(f"{figures.total / MB:,.1f} MB (limit {limits.total / MB:,.0f} MB)")
    if limits.file_size is not None and figures.largest[0] > limits.file_size:
        over.append(f"{figures.largest[1]} is {figures.largest[0] / MiB:,.1f} MiB (limit {limits.file_size / MiB:,.0f} "
                    "MiB a file)")
    return over


def describe(figures: SiteFigures) -> str:
    size, path = figures.largest
    return (f"{figures.files:,} files, {figures.total:,} bytes ({figures.total / MB:,.1f} MB); "
            f"largest {path} ({size / MiB:,.2f} MiB)")
