"""The store's input key names the inputs and nothing else, and the benchmark measures the code it froze.

A warm lookup rebuilds the store when the key it computes differs from the one recorded: the
key must not move with the working folder, file times or byte-code files, and a benchmark run
must not read the checkout it was started in (an edit there meanwhile used to change the key).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

from conftest import ROOT

from rules_kb.assemble.caches import cache_key

sys.path.insert(0, str(ROOT / "benchmarks"))
import bench_store


def _key_in_fresh_interpreter(package_parent: Path, corpus: Path, cwd: Path) -> str:
    program = ("from pathlib import Path; from rules_kb.assemble.caches import cache_key; "
               f"print(cache_key(Path({str(corpus)!r})))")
    env = {**os.environ, "PYTHONPATH": str(package_parent)}
    done = subprocess.run([sys.executable, "-P", "-c", program], capture_output=True, text=True, env=env, cwd=cwd,
                          check=True, timeout=60)
    return done.stdout.strip()


def test_the_key_ignores_folder_file_times_and_bytecode(tmp_path, subset_corpus):
    source = tmp_path / "source"
    shutil.copytree(ROOT / "rules_kb", source / "rules_kb", ignore=shutil.ignore_patterns("__pycache__"))
    first = _key_in_fresh_interpreter(source, subset_corpus, tmp_path)
    subprocess.run([sys.executable, "-m", "compileall", "-q", str(source / "rules_kb")], check=True)
    for path in (source / "rules_kb").rglob("*.py"):
        os.utime(path, (1, 1))
    assert _key_in_fresh_interpreter(source, subset_corpus, ROOT) == first
    assert first == cache_key(subset_corpus)  # the copy is the checkout's code: the same key in this process


def test_the_key_moves_with_the_code_and_the_curated_files(tmp_path, subset_corpus):
    source = tmp_path / "source"
    shutil.copytree(ROOT / "rules_kb", source / "rules_kb", ignore=shutil.ignore_patterns("__pycache__"))
    before = _key_in_fresh_interpreter(source, subset_corpus, tmp_path)
    (source / "rules_kb" / "errors.py").write_text((ROOT / "rules_kb" / "errors.py").read_text() + "\n# edit\n")
    assert _key_in_fresh_interpreter(source, subset_corpus, tmp_path) != before


def test_the_benchmark_imports_its_frozen_copy_even_when_started_in_the_checkout(tmp_path):
    source = bench_store.freeze_source(tmp_path / "frozen")
    python, env = bench_store.frozen_python(source)
    done = subprocess.run([*python, "-c", "import rules_kb; print(rules_kb.__file__)"], capture_output=True,
                          text=True, env=env, cwd=ROOT, check=True, timeout=60)
    assert Path(done.stdout.strip()) == source / "rules_kb" / "__init__.py"
    assert list((source / "rules_kb").rglob("*.pyc"))  # byte-compiled, as an installed package is
