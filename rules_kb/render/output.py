"""Writing output files all or nothing: a temporary file in the same folder, then a rename."""

from __future__ import annotations

import os
import tempfile
from collections.abc import Iterable
from pathlib import Path

from rules_kb.errors import OutputError


def write_atomically(path: Path, lines: Iterable[str], newline: bool = True) -> None:
    """Write lines to ``path`` via a temporary file, so a failure leaves no partial output."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    except OSError as exc:
        raise OutputError(str(path), exc.strerror or str(exc)) from None
    try:
        with os.fdopen(handle, "w", encoding="utf-8", newline="\n") as out:
            for line in lines:
                out.write(line)
                if newline:
                    out.write("\n")
        os.chmod(temporary, 0o644)  # mkstemp's 0600 would make the model readable by its owner only
        os.replace(temporary, path)
    except OSError as exc:
        Path(temporary).unlink(missing_ok=True)
        raise OutputError(str(path), exc.strerror or str(exc)) from None
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise
