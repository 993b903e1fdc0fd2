"""What each page generator costs: CPU seconds, pages and a checksum of what it made, in one process.

    python benchmarks/bench_pages.py [--corpus corpus] [--only rule_pages diff_pages ...]

The knowledge base is read as ``rules-kb build`` reads it (its signed snapshot when one of the
corpus as it is exists, else built from the caches under ``RULES_KB_CACHE``); then every generator
of ``site.pages.PAGE_GENERATORS`` runs in their order, in this process, and nothing is written.
The order matters: the diff pages note the rows the rule pages link to, so a rule page measured
alone compares those pairs itself (``--only`` keeps the order and skips the others' CPU from the
table, not their work). The checksum (sha256 of each page's path, title and body) says whether a
change kept every page the same. CPU seconds do not depend on the machine's load; wall would.
The knowledge base is frozen out of the collector first, as the build freezes it when it forks.
"""

from __future__ import annotations

import argparse
import gc
import hashlib
import time
from pathlib import Path

from rules_kb.assemble.caches import cache_root
from rules_kb.assemble.knowledge import load_knowledge
from rules_kb.render.site_data import load_site_data
from rules_kb.site.pages import PAGE_GENERATORS


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--corpus", type=Path, default=Path("corpus"))
    parser.add_argument("--only", nargs="*", default=None, help="generators to print (all run, in order)")
    args = parser.parse_args()
    started = time.process_time()
    knowledge = load_knowledge(args.corpus, cache_root())
    print(f"{'knowledge base':<22} {time.process_time() - started:8.1f} CPU s")
    site = load_site_data(knowledge)
    gc.freeze()  # as the build does at its fork (assemble/parallel.py): the collector skips the knowledge base
    total = 0.0
    for generate in PAGE_GENERATORS:
        started = time.process_time()
        digest, count = hashlib.sha256(), 0
        for page in generate(site):
            count += 1
            for part in (page.path, page.title, page.body):
                digest.update(part.encode())
                digest.update(b"\0")
        spent = time.process_time() - started
        total += spent
        if args.only is None or generate.__name__ in args.only:
            print(f"{generate.__name__:<22} {spent:8.1f} CPU s {count:7,} pages  {digest.hexdigest()[:16]}")
    print(f"{'every generator':<22} {total:8.1f} CPU s")


if __name__ == "__main__":
    main()
