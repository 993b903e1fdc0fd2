"""`link` and `audit` on long notes: the judge-note fixtures pasted 1, 10, 100 and 300 times.

Each size is linked and audited by one ``rules-kb`` process (the note index and store warm: a first
untimed run builds them), and by the site's link page in headless Chromium (``rulesKbLinker.link``
and ``.audit`` timed with ``performance.now()``, the page's own code). Seconds per run; a time that
grows faster than the note (10× the note, 10× the time) is the defect this bench was written for
(session 32: 297 s to audit 3.9 MB, each citation scanning the note from its start).

Run: .venv/bin/python benchmarks/bench_notes.py [--corpus DIR] [--sizes 1 10 100 300] [--no-page]
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))
NOTES = ROOT / "tests" / "fixtures" / "notes"


def fixture_text() -> str:
    """Every Markdown and text fixture note (not the expected outputs), one after another."""
    names = sorted(p for p in NOTES.iterdir() if p.suffix in (".md", ".txt") and ".expected" not in p.name)
    return "\n\n".join(p.read_text(encoding="utf-8").rstrip("\n") for p in names) + "\n"


def timed(command: list[str]) -> float:
    started = time.perf_counter()
    subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
    return time.perf_counter() - started


def measure_page(corpus: Path, notes: dict[int, str]) -> dict[int, tuple[float, float]]:
    """Seconds the link page's own code takes to link and to audit each note."""
    import markdown
    from bench_search import serve
    from conftest import CHROMIUM, CHROMIUM_ARGS
    from playwright.sync_api import sync_playwright
    from test_notes_browser import SHELL, SITE

    from rules_kb.assemble.knowledge import load_knowledge
    from rules_kb.notes.assets import write_link_assets

    with tempfile.TemporaryDirectory(prefix="bench-notes-") as work:
        folder = Path(work)
        (folder / "link").mkdir()
        body = markdown.markdown((SITE / "link.md").read_text(encoding="utf-8"))
        (folder / "link" / "index.html").write_text(SHELL.format(body=body), encoding="utf-8")
        (folder / "assets").mkdir()
        for script in ("link.js", "refs.js"):
            (folder / "assets" / script).write_bytes((SITE / "assets" / script).read_bytes())
        write_link_assets(load_knowledge(corpus, ROOT / "build" / "cache"), folder)
        server, base = serve(folder)
        figures = {}
        try:
            with sync_playwright() as playwright:
                browser = playwright.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
                page = browser.new_page()
                page.goto(base + "link/")
                page.wait_for_selector("#link-form[data-ready=true]", timeout=60000)
                for copies, text in notes.items():
                    figures[copies] = tuple(page.evaluate("""(text) => {
                        const t0 = performance.now();
                        const options = {baseUrl: "https://example.org/", game: null, pin: null, asOf: null};
                        window.rulesKbLinker.link(text, "md", options);
                        const t1 = performance.now();
                        window.rulesKbLinker.audit(text, "md", {game: null, asOf: null});
                        return [(t1 - t0) / 1000, (performance.now() - t1) / 1000]; }""", text))
                browser.close()
        finally:
            server.shutdown()
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", type=Path, default=ROOT / "corpus")
    parser.add_argument("--sizes", type=int, nargs="+", default=[1, 10, 100, 300])
    parser.add_argument("--no-page", action="store_true", help="the command only")
    args = parser.parse_args()
    one = fixture_text()
    cli = [str(ROOT / ".venv" / "bin" / "rules-kb"), "--corpus", str(args.corpus)]
    with tempfile.TemporaryDirectory(prefix="bench-notes-") as work:
        notes = {}
        for copies in args.sizes:
            path = Path(work) / f"note-{copies}.md"
            notes[copies] = "\n\n".join([one.rstrip("\n")] * copies) + "\n"
            path.write_text(notes[copies], encoding="utf-8")
        first = Path(work) / f"note-{args.sizes[0]}.md"
        warm = timed([*cli, "audit", str(first)]) + timed([*cli, "link", str(first)])
        print(f"note index and store ready: {warm:.1f} s (untimed)", flush=True)
        page = {} if args.no_page else measure_page(args.corpus, notes)
        print(f"{'copies':>6} {'MB':>6} {'link s':>8} {'audit s':>8} {'page link s':>12} {'page audit s':>13}")
        for copies in args.sizes:
            path = Path(work) / f"note-{copies}.md"
            linked, audited = timed([*cli, "link", str(path)]), timed([*cli, "audit", str(path)])
            in_page = page.get(copies)
            shown = f"{in_page[0]:12.2f} {in_page[1]:13.2f}" if in_page else f"{'-':>12} {'-':>13}"
            print(f"{copies:6d} {path.stat().st_size / 1e6:6.2f} {linked:8.2f} {audited:8.2f} {shown}", flush=True)


if __name__ == "__main__":
    main()
