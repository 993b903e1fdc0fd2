"""Publishing: the host-limit check, and the workflow's steps run here up to the upload."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
import yaml
from conftest import FIXTURES, ROOT, SHARED

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
    assert watcher == [".github/scripts/keep-fetched-releases"] and f"\n{watcher[0]}" in section


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


# --- the release watcher's step: what it fetches is committed back before the build ------------

KEEP = ROOT / ".github" / "scripts" / "keep-fetched-releases"


def git(repo, *args: str) -> str:
    return subprocess.run(["git", "-C", str(repo), *args], check=True, capture_output=True, text=True).stdout


@pytest.fixture
def watched_repo(tmp_path):
    """A clone whose corpus holds Magic 2025-11-14 and the tournament documents the pages link (as the
    project's corpus does), pushing to a bare origin, as the workflow's checkout."""
    from rules_kb.releases.add import add_release

    origin, repo = tmp_path / "origin.git", tmp_path / "repo"
    git(tmp_path, "init", "--quiet", "--bare", "--initial-branch=main", str(origin))
    git(tmp_path, "clone", "--quiet", str(origin), str(repo))
    (repo / "corpus").mkdir()
    (repo / "corpus" / "manifest.toml").write_text("# test corpus\n", encoding="utf-8")
    add_release(repo / "corpus", SHARED / "corpus/mtg-current/txt/CR-2025-11-14.txt", version="2025-11-14")
    for pdf in ("mtg/MTG_MTR_2025_Apr_21_EN.pdf", "mtg/MTG_IPG_2024Sep23_EN.pdf"):
        add_release(repo / "corpus", SHARED / "corpus/tournament" / pdf)
    git(repo, "add", "corpus")
    git(repo, "-c", "user.name=t", "-c", "user.email=t@t", "commit", "--quiet", "-m", "corpus")
    git(repo, "push", "--quiet", "origin", "HEAD:refs/heads/main")
    return repo


def keep_releases(repo, base: str, tmp_path, game: str = "mtg") -> subprocess.CompletedProcess:
    """The workflow's step, its pages served on 127.0.0.1 (the saved stand-ins of test_updates)."""
    rules_kb = Path(sys.executable).parent / "rules-kb"
    env = {**os.environ, "RULES_KB": str(rules_kb), "PYTHONPATH": str(ROOT), "RULES_KB_CACHE": str(tmp_path / "cache")}
    games = ["--game", game] if game else []
    urls = ["--wizards-url", f"{base}en/rules/", "--dm-url", f"{base}rule/"]
    return subprocess.run([str(KEEP), *games, *urls], cwd=repo, env=env,
                          capture_output=True, text=True, timeout=600)


def test_the_watcher_commits_a_fetched_release_once(watched_repo, tmp_path, serve_dir):
    from test_updates import publish

    folder = publish(tmp_path / "site")
    base = serve_dir(folder)
    before = git(watched_repo, "rev-parse", "HEAD").strip()
    done = keep_releases(watched_repo, base, tmp_path)
    assert done.returncode == 0, done.stderr
    # One commit on main, pushed, holding the publisher's bytes and their manifest entry, and nothing else.
    assert git(watched_repo, "rev-list", f"{before}..HEAD").count("\n") == 1
    assert git(watched_repo, "rev-parse", "origin/main") == git(watched_repo, "rev-parse", "HEAD")
    assert git(watched_repo, "log", "-1", "--format=%s") == "corpus: add mtg-cr-2026-01-16 (rules-kb updates --fetch)\n"
    changed = git(watched_repo, "diff", "--name-only", before, "HEAD").split()
    assert changed == ["corpus/manifest.toml", "corpus/mtg/CR-2026-01-16.txt"]
    committed = subprocess.run(["git", "-C", str(watched_repo), "show", "HEAD:corpus/mtg/CR-2026-01-16.txt"],
                               check=True, capture_output=True).stdout
    assert committed == (folder / "2026/downloads/MagicCompRules 20260116.txt").read_bytes()
    assert 'versions = ["2026-01-16"]' in git(watched_repo, "show", "HEAD:corpus/manifest.toml")
    assert "3260 rules, 276 examples, 725 terms" in git(watched_repo, "log", "-1", "--format=%b")
    assert git(watched_repo, "status", "--porcelain") == ""
    # The next week: nothing new, nothing committed.
    done = keep_releases(watched_repo, base, tmp_path)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[-1] == "no new release: nothing committed"
    assert git(watched_repo, "rev-list", f"{before}..HEAD").count("\n") == 1


def test_a_failed_fetch_commits_nothing(watched_repo, tmp_path, serve_dir):
    """Magic's 2026-01-16 is good, Duel Masters' PDF link serves an error page: neither is committed."""
    from test_updates import publish

    folder = publish(tmp_path / "site")
    (folder / "img").mkdir()
    (folder / "img/dm_rule_20260723_5.pdf").write_text("<!doctype html><title>404</title>", encoding="utf-8")
    before = git(watched_repo, "rev-parse", "HEAD").strip()
    done = keep_releases(watched_repo, serve_dir(folder), tmp_path, game="")
    assert done.returncode == 1
    assert "download is not a PDF" in done.stderr and "added " not in done.stdout
    assert done.stderr.splitlines()[-1] == "Error: updates --fetch failed; nothing committed"
    heads = {git(watched_repo, "rev-parse", ref).strip() for ref in ("HEAD", "origin/main")}
    assert heads == {before}
    assert git(watched_repo, "status", "--porcelain", "--untracked-files=all") == ""
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
