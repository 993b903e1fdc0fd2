"""Writing output files all or nothing: a temporary file in the same folder, then a rename.

Only regular files are replaced: a device (``/dev/full``), a FIFO or a directory at the
target is refused, since renaming over it would silently replace the node. A symlink is
followed on purpose: the file it points to is replaced and the link is kept. The new file
keeps the mode of the file it replaces, or gets the usual ``0666`` less the umask; the
temporary file is removed on every exit path Python sees (errors, Ctrl-C, and SIGTERM
once the CLI has turned it into ``SystemExit``).
"""

from __future__ import annotations

import os
import stat
import tempfile
from collections.abc import Iterable
from pathlib import Path

from rules_kb.errors import OutputError


def write_atomically(path: Path, lines: Iterable[str], newline: bool = True) -> None:
    """Write lines to ``path`` via a temporary file, so a failure leaves no partial output."""
    target = resolve_target(path)
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        handle, temporary = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.", suffix=".tmp")
    except OSError as exc:
        raise OutputError(str(path), exc.strerror or str(exc)) from None
    try:
        with os.fdopen(handle, "w", encoding="utf-8", newline="\n") as out:
            for line in lines:
                out.write(line)
                if newline:
                    out.write("\n")
            out.flush()
            os.fsync(out.fileno())
        os.chmod(temporary, _mode_for(target))
        os.replace(temporary, target)
    except OSError as exc:
        Path(temporary).unlink(missing_ok=True)
        raise OutputError(str(path), exc.strerror or str(exc)) from None
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise


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
        umask = os.umask(0)
        os.umask(umask)
        return 0o666 & ~umask
