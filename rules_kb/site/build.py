"""Build the static site: knowledge → pages and JSON → a folder that works offline.

Steps, in order: a fresh docs folder under ``build/`` gets the hand-written sources (``site/``
without the theme override), the pages the nav names and one frame page per top folder and depth;
mkdocs builds it (strict) into a staging folder beside the output; every other generated page
is then written into the staging folder inside its frame (``site/frame.py``), or
linked from the previous build when its unit is unchanged (``site/reuse.py``), the extra
writers add the JSON API, the search index and the note linker's files (pages and writers split
between two processes: ``site/groups.py``), then the sitemap and the service worker's list of
every file, the files a host needs
are copied from ``site/host-files/``, the units manifest lists every file written, and the
staging folder is swapped into place, so a failed build never leaves a half-written site.
``--out`` follows the one rule for outputs (``render/output.py``): a missing or empty folder, or
a previous build (it holds the units manifest) holding only files a build wrote, is replaced;
anything else is refused, by name, before any work. The docs and
staging folders are marked work folders beside it (``.NAME.src``, ``.NAME.staging``).
"""

from __future__ import annotations

import logging
import os
import shutil
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from functools import partial
from pathlib import Path

from rules_kb import links
from rules_kb.assemble.knowledge import Knowledge, load_knowledge
from rules_kb.errors import OutputError
from rules_kb.notes.assets import write_link_assets
from rules_kb.places import MKDOCS_CONFIG, SITE_ROOT, SITE_SOURCES
from rules_kb.render.api import write_api
from rules_kb.render.audit_data import write_audit_data
from rules_kb.render.compare_data import write_compare_data
from rules_kb.render.compare_diffs import kept_token_diffs
from rules_kb.render.feeds import write_feeds
from rules_kb.render.glossary_pages import write_glossary_api
from rules_kb.render.html import Page
from rules_kb.render.interface import write_interface_script
from rules_kb.render.offline import write_offline
from rules_kb.render.output import (
    WORK_MARK,
    make_work_folder,
    output_folder,
    remove_work_folder,
    replace_folder,
    restore_interrupted_swap,
    shielded,
)
from rules_kb.render.section_pages import write_section_api
from rules_kb.render.site_data import SiteData, load_site_data
from rules_kb.render.sitemap import write_sitemap
from rules_kb.render.visible import visible_page
from rules_kb.search.cache import link_current_index
from rules_kb.search.index import write_search_index
from rules_kb.search.query import INDEX_DIR
from rules_kb.site.frame import Frame, framed_html, take_frames, write_frame_sources
from rules_kb.site.groups import make_groups
from rules_kb.site.notfound import fix_not_found_page
from rules_kb.site.pages import MKDOCS_GENERATORS
from rules_kb.site.reuse import MANIFEST as UNITS
from rules_kb.site.reuse import PreviousBuild, build_salt, foreign_files
from rules_kb.steps import record_step

THEME_OVERRIDES = "overrides"
# Files a host needs at the site's root (CNAME, .nojekyll), copied as they are by every build.
HOST_FILES = SITE_SOURCES / "host-files"

# Functions ``write_x(knowledge, folder)`` that drop extra static files into the built site, run
# with the pages: the JSON API, the compare page's alignments and diffs, the search index (read by
# site/search.md), the note linker's grammar and data (read by site/link.md), the interface's words
# in Japanese (read by ui.js). Each writes files of its own, so the order is free.
EXTRA_WRITERS: tuple[Callable[[Knowledge, Path], None], ...] = (write_api, write_compare_data, write_section_api,
                                                               write_audit_data, write_search_index,
                                                               write_link_assets, write_interface_script)
# Files that the pages' own data makes, written with them: the older glossaries' JSON, drawn by
# their pages; each game's Atom feed of releases (at absolute addresses under the build's base URL).
SITE_WRITERS: tuple[Callable[[SiteData, Path], None], ...] = (write_glossary_api, write_feeds)


@dataclass
class SiteReport:
    out: Path
    pages: int
    files: int
    seconds: dict[str, float]
    reused: int = 0  # pages of units the previous build had written (``site/reuse.py``)
    unchanged: int = 0  # pages written with the previous build's bytes: its files kept (linked)
    processes: int = 1  # processes that made the pages and files (``site/groups.py``)
    index_linked: bool = False  # the search index is the CLI's current one, linked (``search/cache.py``)


def build_site(corpus: Path, out: Path, cache_dir: Path | None = None, docs_dir: Path | None = None,
               knowledge: Knowledge | None = None, base_url: str = links.DEFAULT_BASE_URL,
               search_index: Path | None = None) -> SiteReport:
    """Build the whole site into ``out`` (replaced only when the build succeeded); ``base_url`` is
    where it will be published (``links.base_url``), named only by the feeds and the sitemap.
    ``search_index`` is where the CLI keeps the index of ``corpus`` as it is now (``build_dir/<key>``):
    when it is current and intact its files are linked into the site instead of an index written."""
    seconds: dict[str, float] = {}
    clock = time.perf_counter()
    restore_interrupted_swap(Path(os.path.abspath(out)), UNITS)
    out = output_folder(out, UNITS)  # refused before any work when it is not ours to replace
    check_no_foreign_files(out)
    docs_dir = docs_dir or out.parent / f".{out.name}.src"
    staging = out.parent / f".{out.name}.staging"
    if knowledge is None:
        knowledge = load_knowledge(corpus, cache_dir)
    previous = PreviousBuild(out, staging)
    with record_step("site data"):
        site = load_site_data(knowledge, previous, base_url)
    seconds["knowledge"] = time.perf_counter() - clock
    clock = time.perf_counter()
    seen: set[str] = set()
    try:
        make_work_folder(docs_dir)
        nav_pages = write_sources(site, docs_dir, seen)
        make_work_folder(staging)
        with record_step("mkdocs"):
            run_mkdocs(docs_dir, staging, source_date(knowledge))
        seconds["mkdocs"] = time.perf_counter() - clock
        clock = time.perf_counter()
        frames = take_frames(staging)
        previous.open(build_salt(frames))
        linked = search_index is not None and link_current_index(search_index, corpus, staging / INDEX_DIR)
        writers = [*(partial(writer, site) for writer in SITE_WRITERS),
                   *(partial(writer, knowledge) for writer in EXTRA_WRITERS
                     if not (linked and writer is write_search_index))]
        with kept_token_diffs():
            made = make_groups(site, partial(write_framed_pages, frames, staging, previous=previous), writers,
                               staging, seen, previous)
        pages = nav_pages + made.pages
        seconds["pages and files"] = time.perf_counter() - clock
        clock = time.perf_counter()
        with record_step("finishing"):
            write_sitemap(site, staging)
            write_offline(knowledge, staging)
            fix_not_found_page(staging)
            copy_host_files(staging)
            previous.write_manifest()  # last: it lists every file the build wrote
        seconds["finishing"] = time.perf_counter() - clock
        replace_folder(staging, out, UNITS, check_no_foreign_files)
    except OSError as exc:  # a full disk or a file-size limit while copying or writing into the work folders
        raise OutputError(str(out), f"{exc.strerror or exc} (at {exc.filename})") from None
    finally:
        with shielded():  # a Ctrl-C during the clean-up would leave half of a work folder
            for work in (staging, docs_dir):
                if (work / WORK_MARK).is_file():
                    remove_work_folder(work)
    files = sum(len(names) for _, _, names in os.walk(out))  # a quarter of a million at full history
    return SiteReport(out, pages + previous.reused_pages, files, seconds, previous.reused_pages,
                      previous.unchanged_pages, made.processes, linked)


def check_no_foreign_files(out: Path) -> None:
    """Refuse, by name, to replace a previous build holding files no build wrote: a build never
    deletes what it did not write (a host's ``CNAME`` belongs in ``site/host-files/``)."""
    if not (out / UNITS).is_file():
        return
    foreign = foreign_files(out)
    if foreign:
        shown = ", ".join(foreign[:5]) + (f" and {len(foreign) - 5} more" if len(foreign) > 5 else "")
        raise OutputError(str(out), f"a previous build holding files no build wrote ({shown}): refused rather than "
                          f"deleted; move them out (a file the host needs, like CNAME, goes in "
                          f"{HOST_FILES.relative_to(SITE_ROOT)}/, which every build copies)")


def copy_host_files(site_dir: Path) -> None:
    """Copy the files a host needs at the site's root (``CNAME``, ``.nojekyll``) from ``site/host-files/``."""
    if HOST_FILES.is_dir():
        shutil.copytree(HOST_FILES, site_dir, dirs_exist_ok=True)


def write_sources(site: SiteData, docs_dir: Path, seen: set[str]) -> int:
    """Fill the fresh docs folder for mkdocs: the hand-written sources, the pages the nav names and the
    frames; returns the count of generated pages written."""
    shutil.copytree(SITE_SOURCES, docs_dir, ignore=shutil.ignore_patterns(THEME_OVERRIDES, HOST_FILES.name),
                    dirs_exist_ok=True)
    write_frame_sources(docs_dir)
    count = 0
    for page in (page for generate in MKDOCS_GENERATORS for page in generate(site)):
        _claim(page, seen)
        target = docs_dir / page.path.strip("/") / "index.md"
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(visible_page(page.markdown()), encoding="utf-8")
        count += 1
    return count


def write_framed_pages(frames: dict[int, Frame], site_dir: Path, pages: Iterable[Page], seen: set[str],
                       previous: PreviousBuild | None = None) -> int:
    """Every other generated page, as a finished HTML file in the built site; returns the count.

    A page the previous build wrote with the same bytes is linked from it rather than written
    again (``PreviousBuild.keep_same``): an unchanged page keeps its file, so a host or ``rsync``
    sees only the pages that changed."""
    count = 0
    for page in pages:
        _claim(page, seen)
        relative = page.path.strip("/") + "/index.html"
        target = site_dir / relative
        if target.exists():
            raise OutputError(page.path, "a generated page where the hand-written site already has one")
        target.parent.mkdir(parents=True, exist_ok=True)
        data = visible_page(framed_html(frames, page)).encode("utf-8")
        if previous is None or not previous.keep_same(relative, data):
            target.write_bytes(data)
        count += 1
    return count


def _claim(page: Page, seen: set[str]) -> None:
    if page.path in seen:
        raise OutputError(page.path, "two generated pages at the same path")
    seen.add(page.path)


def source_date(knowledge: Knowledge) -> int:
    """A fixed build date (the newest version's date): sitemaps and archives stay byte-identical."""
    dates = [info.date for info in knowledge.catalog.versions.values() if info.date]
    newest = max(dates) if dates else "2000-01-01"
    return int(time.mktime(time.strptime(newest, "%Y-%m-%d")) - time.timezone)


def run_mkdocs(docs_dir: Path, site_dir: Path, epoch: int) -> None:
    """mkdocs build --strict, in process, with ``SOURCE_DATE_EPOCH`` pinned."""
    from mkdocs.commands.build import build
    from mkdocs.config import load_config
    from mkdocs.exceptions import MkDocsException

    previous = os.environ.get("SOURCE_DATE_EPOCH")
    os.environ["SOURCE_DATE_EPOCH"] = str(epoch)
    warnings = _Collect()
    logger = logging.getLogger("mkdocs")
    logger.addHandler(warnings)
    try:
        config = load_config(config_file=str(MKDOCS_CONFIG), docs_dir=str(docs_dir), site_dir=str(site_dir),
                             strict=True)
        build(config)
    except MkDocsException as exc:
        raise OutputError(str(site_dir), f"mkdocs build failed: {exc} {' | '.join(warnings.messages)}") from None
    finally:
        logger.removeHandler(warnings)
        if previous is None:
            os.environ.pop("SOURCE_DATE_EPOCH", None)
        else:
            os.environ["SOURCE_DATE_EPOCH"] = previous


class _Collect(logging.Handler):
    """Keep mkdocs' warnings, to say what made a strict build fail."""

    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.messages: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.messages.append(record.getMessage())
