"""Writing output files all or nothing: a temporary file in the same folder, then a rename.

Only regular files are replaced: a device (``/dev/full``), a FIFO or a directory at the
target is refused, since renaming over it would silently replace the node. A symlink is
followed on purpose: the file it points to is replaced and the link is kept. The new file
keeps the mode of the file it replaces, or gets the usual ``0666`` less the umask; the
temporary file is removed on every exit path Python sees (errors, Ctrl-C, and SIGTERM
once the CLI has turned it into ``SystemExit``); one a SIGKILL left is removed by the next write
of the same file (a writer holds an ``flock`` on its temporary file while it lives).
"""

from __future__ import annotations

import os
import shutil
import stat
from collections.abc import Callable, Iterable
from pathlib import Path

from rules_kb.errors import OutputError
from rules_kb.files import new_file_mode, replace_file, shielded


def relative_prefix(root: Path, folder: str) -> str:
    """What goes before a name in ``folder``, a folder of a walk of ``root``, to make its path
    relative to ``root`` (``dm/rule/``, or nothing at the root): found once per folder, since a
    build walks its site's 11,614 files five times and a ``Path`` or ``relpath`` per file was
    4-5 s of it."""
    relative = os.path.relpath(folder, root)
    return "" if relative == "." else relative.replace(os.sep, "/") + "/"


def write_atomically(path: Path, lines: Iterable[str], newline: bool = True) -> None:
    """Write lines to ``path`` via a temporary file (``files.replace_file``, synced), so a failure
    leaves no partial output."""
    target = resolve_target(path)

    def write(out) -> None:
        for line in lines:
            out.write(line)
            if newline:
                out.write("\n")

    try:
        replace_file(target, write, _mode_for(target), sync=True)
    except OSError as exc:
        raise OutputError(str(path), exc.strerror or str(exc)) from None


def resolve_target(path: Path) -> Path:
    """The regular file (existing or not) that writing ``path`` replaces, or ``OutputError``."""
    target = path
    if path.is_symlink():
        try:
            target = path.resolve(strict=False)
        except (OSError, RuntimeError) as exc:
            raise OutputError(str(path), f"cannot follow the symlink: {exc}") from None
    try:
        mode = target.stat().st_mode
    except FileNotFoundError:
        return target
    except OSError as exc:
        raise OutputError(str(path), exc.strerror or str(exc)) from None
    if not stat.S_ISREG(mode):
        raise OutputError(str(path), f"{_kind(mode)}, not a regular file: refused rather than replaced")
    return target


def _kind(mode: int) -> str:
    for test, name in ((stat.S_ISDIR, "a directory"), (stat.S_ISFIFO, "a FIFO"), (stat.S_ISCHR, "a character device"),
                       (stat.S_ISBLK, "a block device"), (stat.S_ISSOCK, "a socket")):
        if test(mode):
            return name
    return "not a regular file"


def _mode_for(target: Path) -> int:
    """The replaced file's mode, or what ``open`` would give a new file (0666 less the umask)."""
    try:
        return stat.S_IMODE(target.stat().st_mode)
    except OSError:
        return new_file_mode()


# Output folders. The one rule for every output (docs/limits.md, "Outputs"): a command writes only paths
# it creates, or files and folders it is explicitly told to replace. A folder it is told to
# replace (``build --out``) must be missing, empty, or a previous output of the same command,
# which it tells by ``mark``, a file that command writes at the folder's top. Work folders
# beside an output carry ``WORK_MARK`` from the moment they are made; only a folder with that
# mark (left by an interrupted run) is ever removed without being asked for.

WORK_MARK = ".rules-kb-work"


def output_folder(path: Path, mark: str) -> Path:
    """The absolute folder that writing ``path`` replaces (a symlink followed), or ``OutputError``
    when something there is not ours to replace: not a directory, or holding files without ``mark``."""
    try:
        folder = Path(os.path.abspath(path))
        if folder.is_symlink():
            folder = folder.resolve(strict=False)
        mode = folder.stat().st_mode
    except FileNotFoundError:
        return folder
    except (OSError, RuntimeError) as exc:
        raise OutputError(str(path), getattr(exc, "strerror", None) or str(exc)) from None
    if not stat.S_ISDIR(mode):
        kind = "a regular file" if stat.S_ISREG(mode) else _kind(mode)
        raise OutputError(str(path), f"{kind}, not a folder: refused rather than replaced")
    try:
        empty = next(os.scandir(folder), None) is None
        ours = (folder / mark).is_file()
    except OSError as exc:
        raise OutputError(str(path), exc.strerror or str(exc)) from None
    if not empty and not ours:
        raise OutputError(str(path), f"a folder that is neither empty nor a previous build (no {mark} in it): "
                          "refused rather than emptied")
    return folder


def make_work_folder(path: Path) -> Path:
    """A fresh, marked work folder at ``path``; one an interrupted run left there is removed first,
    anything else there is refused."""
    remove_work_folder(path)
    try:
        path.mkdir(parents=True)
        (path / WORK_MARK).touch()
    except OSError as exc:
        raise OutputError(str(path), exc.strerror or str(exc)) from None
    return path


def remove_work_folder(path: Path) -> None:
    """Remove a work folder ``make_work_folder`` made; refuse anything else found at ``path``."""
    if not os.path.lexists(path):
        return
    if path.is_symlink() or not path.is_dir() or not (path / WORK_MARK).is_file():
        raise OutputError(str(path), "exists and was not made by rules-kb: refused rather than replaced")
    try:
        shutil.rmtree(path)
    except OSError as exc:
        raise OutputError(str(path), exc.strerror or str(exc)) from None


def replace_folder(staging: Path, folder: Path, mark: str, check: Callable[[Path], None] | None = None) -> None:
    """Put the finished work folder ``staging`` at ``folder`` (checked by ``output_folder``, and by
    ``check`` again just before the swap); the previous folder is removed only after the swap."""
    old = _old_folder(folder)
    remove_work_folder(old)
    with shielded():
        _swap(staging, folder, old, mark, check)
    remove_work_folder(old)


def restore_interrupted_swap(folder: Path, mark: str) -> None:
    """Put back the previous output a run killed mid-swap left at ``.NAME.old`` (``folder`` gone,
    the old one still marked and holding ``mark``), so the next run starts from it, not from nothing."""
    old = _old_folder(folder)
    if os.path.lexists(folder) or old.is_symlink() or not (old / WORK_MARK).is_file() or not (old / mark).is_file():
        return
    try:
        old.rename(folder)
        (folder / WORK_MARK).unlink()
    except OSError as exc:
        raise OutputError(str(folder), exc.strerror or str(exc)) from None


def _old_folder(folder: Path) -> Path:
    return folder.parent / f".{folder.name}.old"


def _swap(staging: Path, folder: Path, old: Path, mark: str, check: Callable[[Path], None] | None) -> None:
    """Two renames. Every folder keeps its work mark until it is where it belongs, so a SIGKILL
    between any two steps leaves only marked work folders (removed by the next run) and an output
    the next run accepts (``restore_interrupted_swap`` puts back one left at ``.NAME.old``)."""
    try:
        if os.path.lexists(folder):
            output_folder(folder, mark)  # still ours to replace: nothing changed it during the build
            if check is not None:
                check(folder)
            (folder / WORK_MARK).touch()
            folder.rename(old)
        try:
            staging.rename(folder)
        except OSError:
            if old.is_dir() and not os.path.lexists(folder):
                old.rename(folder)
                (folder / WORK_MARK).unlink()
            raise
        (folder / WORK_MARK).unlink()
    except OSError as exc:
        raise OutputError(str(folder), exc.strerror or str(exc)) from None
