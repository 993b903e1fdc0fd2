"""``build --out``: the one rule for outputs. A folder is replaced only when it is missing, empty or
a previous build; a user's folder, file, FIFO or device is refused with one line and left as it
was, and nothing beside it is removed that the build did not make."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest
from conftest import FIXTURES

from rules_kb.errors import OutputError
from rules_kb.render.output import WORK_MARK, make_work_folder, output_folder, remove_work_folder
from rules_kb.site import build as site_build
from rules_kb.site.reuse import MANIFEST as UNITS

HOSTILE = str(FIXTURES / "hostile")
RULE_PAGE = Path("mtg/rule/100.1a/index.html")


def listing(folder: Path) -> dict[str, bytes | str]:
    """Every entry under ``folder``: a file's bytes, a link's target, a folder or node kind."""
    seen: dict[str, bytes | str] = {}
    for path in sorted(folder.rglob("*")):
        mode = path.lstat().st_mode
        name = str(path.relative_to(folder))
        if stat.S_ISLNK(mode):
            seen[name] = "-> " + os.readlink(path)
        elif stat.S_ISREG(mode):
            seen[name] = path.read_bytes()
        else:
            seen[name] = stat.filemode(mode)[0]
    return seen


def build(cli, out: Path | str) -> tuple[int, str, str]:
    return cli("--corpus", HOSTILE, "build", "--out", str(out))


def test_a_users_folder_is_refused_and_kept(cli, tmp_path):
    """Before: the folder was emptied and replaced by the site, ``precious.txt`` gone, exit 0."""
    mine = tmp_path / "mine"
    mine.mkdir()
    (mine / "precious.txt").write_text("mine\n", encoding="utf-8")
    before = listing(tmp_path)
    code, out, err = build(cli, mine)
    assert (code, out) == (1, "")
    assert err == (f"Error: {mine}: cannot write: a folder that is neither empty nor a previous build "
                   f"(no {UNITS} in it): refused rather than emptied\n")
    assert listing(tmp_path) == before


@pytest.mark.parametrize("kind", ["file", "fifo", "device"])
def test_a_file_fifo_or_device_at_out_is_refused_and_kept(cli, tmp_path, kind):
    """Before: each was removed and a site put in its place."""
    target = tmp_path / "out"
    if kind == "file":
        target.write_text("keep\n", encoding="utf-8")
    elif kind == "fifo":
        os.mkfifo(target)
    else:
        try:
            os.mknod(target, stat.S_IFCHR | 0o600, os.makedev(1, 3))  # a copy of /dev/null's node
        except PermissionError:
            pytest.skip("making a device node needs root")
    before = listing(tmp_path)
    code, _, err = build(cli, target)
    described = {"file": "a regular file", "fifo": "a FIFO", "device": "a character device"}[kind]
    assert code == 1
    assert err == f"Error: {target}: cannot write: {described}, not a folder: refused rather than replaced\n"
    assert listing(tmp_path) == before


def test_a_build_keeps_the_src_sibling_and_leaves_no_work_folder(cli, tmp_path):
    """Before: a sibling ``site-src`` folder was deleted to hold mkdocs' sources."""
    sibling = tmp_path / "site-src"
    sibling.mkdir()
    (sibling / "notes.md").write_text("my notes\n", encoding="utf-8")
    code, _, err = build(cli, tmp_path / "site")
    assert code == 0, err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["site", "site-src"]
    assert (sibling / "notes.md").read_text(encoding="utf-8") == "my notes\n"
    site = tmp_path / "site"
    assert (site / RULE_PAGE).is_file() and (site / UNITS).is_file() and not (site / WORK_MARK).exists()

    # a file put into the previous build is never deleted: the build is refused naming it (issue 38)
    (site / "stray.txt").write_text("x", encoding="utf-8")
    (site / RULE_PAGE).unlink()
    code, _, err = build(cli, site)
    assert code == 1 and err.startswith(f"Error: {site}: cannot write: a previous build holding files no build "
                                        "wrote (stray.txt): refused rather than deleted;")
    assert (site / "stray.txt").read_text(encoding="utf-8") == "x"
    # once it is moved out, the previous build is replaced and the site is complete again
    (site / "stray.txt").unlink()
    code, _, err = build(cli, site)
    assert code == 0, err
    assert (site / RULE_PAGE).is_file()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["site", "site-src"]


def test_a_folder_in_the_way_of_a_work_folder_is_refused(cli, tmp_path):
    """A user's ``.site.staging`` is not taken for one an interrupted build left."""
    theirs = tmp_path / ".site.staging"
    theirs.mkdir()
    (theirs / "keep.txt").write_text("keep", encoding="utf-8")
    code, _, err = build(cli, tmp_path / "site")
    assert code == 1 and err == f"Error: {theirs}: cannot write: exists and was not made by rules-kb: " \
                                "refused rather than replaced\n"
    assert (theirs / "keep.txt").read_text(encoding="utf-8") == "keep"
    assert sorted(p.name for p in tmp_path.iterdir()) == [".site.staging"]


def test_a_symlink_to_a_previous_build_is_built_through(cli, tmp_path):
    """Before: a traceback, and ``.linkdir.old`` left behind."""
    real = tmp_path / "real"
    code, _, err = build(cli, real)
    assert code == 0, err
    link = tmp_path / "linkdir"
    link.symlink_to(real, target_is_directory=True)
    (real / "sitemap.xml").unlink()  # else nothing changed since the build into real: nothing to build
    code, out, err = build(cli, link)
    assert code == 0, err
    assert f"in {real}\n" in out  # the folder the link names, not the link
    assert link.is_symlink() and (link / RULE_PAGE).is_file() and (real / "sitemap.xml").is_file()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["linkdir", "real"]
    code, out, _ = build(cli, link)  # the link and the folder it names are one output
    assert code == 0 and out.startswith("nothing changed since the last build")


def test_a_relative_out_is_relative_to_the_working_folder(cli, tmp_path, monkeypatch):
    """Before: outside the repository, mkdocs resolved it against mkdocs.yml and failed."""
    monkeypatch.chdir(tmp_path)
    code, _, err = build(cli, "site1")
    assert code == 0, err
    assert (tmp_path / "site1" / RULE_PAGE).is_file()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["site1"]


def test_an_interrupted_build_leaves_the_previous_site_and_no_work_folder(tmp_path, monkeypatch):
    """Ctrl-C while the writers run: the old site stays as it was, the work folders are removed."""
    from rules_kb.assemble.knowledge import build_knowledge

    hostile = build_knowledge(FIXTURES / "hostile")
    out = tmp_path / "site"
    site_build.build_site(FIXTURES / "hostile", out, knowledge=hostile)
    before = listing(tmp_path)

    def interrupted(_knowledge, folder: Path) -> None:
        assert (folder / WORK_MARK).is_file()
        raise KeyboardInterrupt

    monkeypatch.setattr(site_build, "EXTRA_WRITERS", (*site_build.EXTRA_WRITERS[:1], interrupted))
    with pytest.raises(KeyboardInterrupt):
        site_build.build_site(FIXTURES / "hostile", out, knowledge=hostile)
    assert listing(tmp_path) == before


def test_only_marked_work_folders_are_removed(tmp_path):
    left = make_work_folder(tmp_path / ".w")
    (left / "half.html").write_text("x", encoding="utf-8")
    make_work_folder(left)  # what an interrupted run left is cleared
    assert sorted(p.name for p in left.iterdir()) == [WORK_MARK]
    remove_work_folder(left)
    assert not left.exists()
    plain = tmp_path / ".plain"
    plain.mkdir()
    with pytest.raises(OutputError, match="was not made by rules-kb"):
        remove_work_folder(plain)
    with pytest.raises(OutputError, match="was not made by rules-kb"):
        make_work_folder(plain)
    assert plain.is_dir()


def test_an_empty_or_missing_folder_is_taken(tmp_path):
    (tmp_path / "empty").mkdir()
    assert output_folder(tmp_path / "empty", UNITS) == tmp_path / "empty"
    assert output_folder(tmp_path / "new" / "site", UNITS) == tmp_path / "new" / "site"
