"""Output files: only regular files are replaced, symlinks are written through, modes kept,
no temporary file survives an error or SIGTERM."""

from __future__ import annotations

import os
import signal
import stat
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import ROOT

from rules_kb.errors import OutputError
from rules_kb.render.output import write_atomically


def leftovers(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir() if p.name.endswith(".tmp"))


def test_a_fifo_is_refused_not_replaced(tmp_path):
    """Before: the FIFO was renamed over and replaced by a regular file, exit 0."""
    fifo = tmp_path / "out.jsonl"
    os.mkfifo(fifo)
    with pytest.raises(OutputError, match="a FIFO, not a regular file: refused rather than replaced"):
        write_atomically(fifo, ["x"])
    assert stat.S_ISFIFO(fifo.lstat().st_mode) and leftovers(tmp_path) == []


def test_a_directory_is_refused(tmp_path):
    with pytest.raises(OutputError, match="a directory, not a regular file"):
        write_atomically(tmp_path, ["x"])


def test_a_device_is_refused_before_anything_is_written(cli):
    """Before: ``--json /dev/full`` renamed a file over the device and reported success."""
    code, _out, err = cli("ingest", "--only", "seed-000", "--json", "/dev/full")
    assert code == 1 and err == "Error: /dev/full: cannot write: a character device, not a regular file: " \
                                "refused rather than replaced\n"
    assert stat.S_ISCHR(os.stat("/dev/full").st_mode)


def test_a_symlink_is_written_through_and_kept(tmp_path):
    """Before: the link was replaced by a regular file and its target left stale."""
    target = tmp_path / "real" / "model.jsonl"
    target.parent.mkdir()
    target.write_text("old\n", encoding="utf-8")
    link = tmp_path / "model.jsonl"
    link.symlink_to(target)
    write_atomically(link, ["new"])
    assert link.is_symlink() and target.read_text(encoding="utf-8") == "new\n"
    assert leftovers(tmp_path) == [] and leftovers(target.parent) == []


def test_a_symlink_loop_is_an_output_error(tmp_path):
    loop = tmp_path / "loop.jsonl"
    loop.symlink_to(loop)
    with pytest.raises(OutputError, match="cannot follow the symlink"):
        write_atomically(loop, ["x"])


def test_the_replaced_files_mode_is_kept_and_a_new_file_follows_the_umask(tmp_path):
    """Before: every output was forced to 0644, whatever the file it replaced."""
    kept = tmp_path / "private.jsonl"
    kept.write_text("old\n", encoding="utf-8")
    kept.chmod(0o640)
    write_atomically(kept, ["new"])
    assert stat.S_IMODE(kept.stat().st_mode) == 0o640
    previous = os.umask(0o027)
    try:
        write_atomically(tmp_path / "fresh.jsonl", ["new"])
    finally:
        os.umask(previous)
    assert stat.S_IMODE((tmp_path / "fresh.jsonl").stat().st_mode) == 0o640


def test_an_error_while_writing_leaves_the_old_file_and_no_temporary(tmp_path):
    path = tmp_path / "out.jsonl"
    path.write_text("old\n", encoding="utf-8")

    def lines():
        yield "first"
        raise RuntimeError("the producer failed")

    with pytest.raises(RuntimeError):
        write_atomically(path, lines())
    assert path.read_text(encoding="utf-8") == "old\n" and leftovers(tmp_path) == []


def test_sigterm_while_writing_leaves_no_temporary(tmp_path):
    """Before: SIGTERM killed the process with the default action and the .tmp file stayed."""
    script = (
        "import os, signal, sys\n"
        "from pathlib import Path\n"
        "from rules_kb.cli import install_signal_handlers\n"
        "from rules_kb.render.output import write_atomically\n"
        "install_signal_handlers()\n"
        "def lines():\n"
        "    yield 'first'\n"
        "    os.kill(os.getpid(), signal.SIGTERM)\n"
        "    yield 'never'\n"
        "write_atomically(Path(sys.argv[1]), lines())\n"
    )
    done = subprocess.run([sys.executable, "-c", script, str(tmp_path / "out.jsonl")], cwd=ROOT, timeout=60,
                          capture_output=True, text=True)
    assert done.returncode == 128 + signal.SIGTERM
    assert list(tmp_path.iterdir()) == []
