"""Publishing: the host-limit check, and the workflow's steps run here up to the upload."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest
import yaml
from conftest import FIXTURES, ROOT

from rules_kb.site.publish import BUDGET, HOSTS, MiB, measure, over_limits

WORKFLOW = ROOT / ".github" / "workflows" / "publish.yml"
README = ROOT / "README.md"


def test_the_test_site_fits_every_host(real_site, cli):
    for host in HOSTS:
        code, out, err = cli("publish", "--check", "--host", host, "--dir", str(real_site))
        assert code == 0, err
        assert f"{HOSTS[host].name}: fits" in out and f"{BUDGET.name}: fits" in out
    figures = measure(real_site)
    assert figures.files == sum(len(names) for _, _, names in os.walk(real_site))


def test_the_check_names_what_is_over(tmp_path, cli):
    site = tmp_path / "site"
    (site / "many").mkdir(parents=True)
    (site / "index.html").write_text("<h1>x</h1>", encoding="utf-8")
    for i in range(20_000):
        (site / "many" / f"{i}.json").touch()
    with open(site / "big.json", "wb") as handle:  # sparse: 26 MiB without writing them
        handle.truncate(26 * MiB)
    code, out, err = cli("publish", "--check", "--host", "cloudflare", "--dir", str(site))
    assert code == 1
    assert err.startswith(f"Error: {site}: over Cloudflare Pages (free plan)'s limits: 20,002 files (limit 20,000); "
                          "big.json is 26.0 MiB (limit 25 MiB a file)")
    assert err.count("\n") == 1
    code, out, err = cli("publish", "--check", "--host", "gitlab", "--dir", str(site))
    assert code == 1 and "GitLab Pages (gitlab.com): fits" in out and "rules-kb's own budget" in err
    assert over_limits(measure(site), HOSTS["github"]) == []


def test_publish_needs_a_built_site(tmp_path, cli):
    code, _, err = cli("publish", "--check", "--host", "github", "--dir", str(tmp_path))
    assert code == 1 and err == f"Error: {tmp_path}: holds no built site (run `rules-kb build` first)\n"


def build_steps() -> list[str]:
    """The ``run:`` lines of the workflow's build job that run on every trigger."""
    jobs = yaml.safe_load(WORKFLOW.read_text(encoding="utf-8"))["jobs"]
    return [step["run"] for step in jobs["build"]["steps"] if "run" in step and "if" not in step]


def test_workflow_steps_are_readme_commands():
    readme = README.read_text(encoding="utf-8")
    section = readme[readme.index("## Publish the site"):]
    steps = build_steps()
    assert steps == ["make setup", "make build", "make check-site HOST=github"]
    assert all(f"\n{step}" in section for step in steps)
    watcher = [step["run"] for step in yaml.safe_load(WORKFLOW.read_text(encoding="utf-8"))["jobs"]["build"]["steps"]
               if "if" in step]
    assert watcher == [".venv/bin/rules-kb updates --fetch"] and f"\n{watcher[0]}" in section


@pytest.mark.skipif(not (ROOT / ".venv" / "bin" / "rules-kb").exists(), reason="needs `make setup`'s environment")
def test_workflow_steps_run_here_up_to_the_upload(tmp_path):
    """Each build step, as the workflow runs it, on the hostile corpus into a temporary folder."""
    env = {**os.environ, "CORPUS": str(FIXTURES / "hostile"), "BUILD": str(tmp_path / "build"),
           "RULES_KB_CACHE": str(tmp_path / "cache")}
    (tmp_path / "build").mkdir()
    for step in build_steps():
        done = subprocess.run(["bash", "-c", step], cwd=ROOT, env=env, capture_output=True, text=True, timeout=600)
        assert done.returncode == 0, f"{step}: {done.stderr[-2000:]}"
    assert (tmp_path / "build" / "site" / "mtg" / "rule" / "100.1a" / "index.html").is_file()
    assert "GitHub Pages: fits" in done.stdout


def test_a_symlink_out_of_the_site_and_an_unreadable_folder_are_refused_not_miscounted(tmp_path, cli):
    """Issue 38, item 8. Before: the check counted the bytes of a file a symlink named outside the
    folder, and skipped a folder it could not read (here: strace makes its open fail with EACCES,
    as it would for a folder of another user), so it undercounted in silence."""
    import shutil
    import sys

    site = tmp_path / "site"
    site.mkdir()
    (site / "index.html").write_text("<html></html>\n", encoding="utf-8")
    outside = tmp_path / "big.bin"
    outside.write_bytes(b"x" * 1000)
    (site / "big.bin").symlink_to(outside)
    code, _, err = cli("publish", "--check", "--host", "github", "--dir", str(site))
    assert (code, err) == (1, f"Error: {site / 'big.bin'}: a symlink out of the site (to {outside}): a host would "
                              "not publish it\n")
    (site / "big.bin").unlink()
    hidden = site / "hidden"
    hidden.mkdir()
    (hidden / "page.html").write_text("x" * 1000, encoding="utf-8")
    if shutil.which("strace") is None:
        pytest.skip("strace is not installed")
    done = subprocess.run(["strace", "-f", "-qq", "-o", os.devnull, "-P", str(hidden), "-e",
                           "inject=openat:error=EACCES", str(Path(sys.executable).parent / "rules-kb"), "publish",
                           "--check", "--host", "github", "--dir", str(site)], capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 1
    assert done.stderr == (f"Error: {hidden}: cannot read this folder of the site (Permission denied): the figures "
                           "would leave it out\n")
