"""Independent work on both cores, results in the order asked: the output never depends on how
many processes made it.

``RULES_KB_WORKERS`` sets the number of worker processes (default: two, or one on a one-core
machine); ``1`` runs everything in this process, which is how a test proves the two give the
same bytes. Workers exchange data with this process over pipes, never through a file. At most a
few jobs are in flight at a time, so a long list of documents is never held whole in results.
"""

from __future__ import annotations

import os
from collections import deque
from collections.abc import Callable, Iterable, Iterator, Mapping

ENVIRONMENT = "RULES_KB_WORKERS"


def worker_count(environ: Mapping[str, str] = os.environ) -> int:
    """Worker processes to use: ``RULES_KB_WORKERS`` when it is a positive number, else min(2, cores)."""
    chosen = environ.get(ENVIRONMENT, "")
    if chosen.isdigit() and int(chosen) > 0:
        return int(chosen)
    return max(1, min(2, os.cpu_count() or 1))


def map_in_order(function: Callable, jobs: Iterable[tuple], workers: int | None = None, ahead: int = 2
                 ) -> Iterator:
    """``function(*job)`` for every job, yielded in the jobs' order; in worker processes when more
    than one is allowed, with at most ``ahead`` jobs per worker submitted before their results are
    taken (results and job data are held a few at a time, not all at once)."""
    workers = worker_count() if workers is None else workers
    jobs = iter(jobs)
    if workers < 2:
        for job in jobs:
            yield function(*job)
        return
    from concurrent.futures import ProcessPoolExecutor  # not on the lookup path (it imports pickle)

    with ProcessPoolExecutor(max_workers=workers) as pool:
        pending: deque = deque()
        for job in jobs:
            pending.append(pool.submit(_call, function, job))
            if len(pending) >= workers * ahead:
                yield _result(pending.popleft().result())
        while pending:
            yield _result(pending.popleft().result())


def _call(function: Callable, job: tuple) -> tuple:
    """In a worker: the result, or what it raised as (class, args, attributes). Typed errors take
    their own arguments (``SourceError(path, problem)``), which pickling an exception would lose."""
    try:
        return (True, function(*job))
    except Exception as exc:  # handed back whole, raised in the parent as it was raised here
        return (False, (type(exc), exc.args, dict(vars(exc))))


def _result(outcome: tuple):
    done, value = outcome
    if done:
        return value
    kind, args, attributes = value
    error = kind.__new__(kind)
    error.args = args
    vars(error).update(attributes)
    raise error


__all__ = ["ENVIRONMENT", "map_in_order", "worker_count"]
