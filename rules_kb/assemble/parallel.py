"""Independent work on both cores, results in the order asked: the output never depends on how
many processes made it.

``RULES_KB_WORKERS`` sets the number of worker processes (default: two, or one on a one-core
machine); ``1`` runs everything in this process, which is how a test proves the two give the
same bytes. Workers exchange data with this process over pipes, never through a file. At most a
few jobs are in flight at a time, so a long list of documents is never held whole in results.
"""

from __future__ import annotations

import gc
import os
import signal
from collections import deque
from collections.abc import Callable, Iterable, Iterator, Mapping

from rules_kb.errors import OutputError
from rules_kb.heap import release_free_memory

ENVIRONMENT = "RULES_KB_WORKERS"
CANCEL_SECONDS = 30  # what a cancelled child has to clean up before it is killed


def worker_count(environ: Mapping[str, str] = os.environ) -> int:
    """Worker processes to use: ``RULES_KB_WORKERS`` when it is a positive number, else min(2, cores)."""
    chosen = environ.get(ENVIRONMENT, "")
    if chosen.isdigit() and int(chosen) > 0:
        return int(chosen)
    return max(1, min(2, os.cpu_count() or 1))


def map_in_order(function: Callable, jobs: Iterable[tuple], workers: int | None = None, ahead: int = 2,
                 shared: object = None) -> Iterator:
    """``function(*job)`` for every job, yielded in the jobs' order; in worker processes when more
    than one is allowed, with at most ``ahead`` jobs per worker submitted before their results are
    taken (results and job data are held a few at a time, not all at once).

    ``shared``, when given, is every call's first argument, ``function(shared, *job)``: a worker
    receives it once, as it starts (a forked one inherits it, nothing pickled), rather than a copy
    with each job (the aligner's pairs sent 113 MB of rule texts through the pipes that way)."""
    workers = worker_count() if workers is None else workers
    jobs = iter(jobs)
    if workers < 2:
        for job in jobs:
            yield function(*job) if shared is None else function(shared, *job)
        return
    from concurrent.futures import ProcessPoolExecutor  # not on the lookup path (it imports pickle)

    call = _call if shared is None else _call_with_shared
    with ProcessPoolExecutor(max_workers=workers, initializer=_keep_shared, initargs=(shared,)) as pool:
        pending: deque = deque()
        for job in jobs:
            pending.append(pool.submit(call, function, job))
            if len(pending) >= workers * ahead:
                yield _result(pending.popleft().result())
        while pending:
            yield _result(pending.popleft().result())


class Beside:
    """``function(*args)`` in a forked process while this one goes on with other work: the child
    starts from a copy of everything this process holds (nothing is pickled on the way in: the
    knowledge base is a gigabyte at full history), and only its result comes back over a pipe.

    ``result()`` waits for it and returns what it returned, or raises what it raised there
    (``KeyboardInterrupt`` included); ``cancel()`` stops it when this side failed, with
    nothing of its temporary files left. ``where``
    names the output the two make, for the error when the child dies without a word (killed,
    out of memory). Objects alive at the fork are frozen out of the collector until the child
    ends: a collection in the child would touch, and so copy, every page the two share. A freeze
    made before (a caller keeping its own long-lived heap out of the collector's walks) is kept:
    the collector has one frozen set, so thawing it would thaw the caller's too. Only where
    ``fork`` exists; callers run the work in order themselves when ``worker_count()`` is 1
    (``can_fork``)."""

    def __init__(self, where: str, function: Callable, *args) -> None:
        import multiprocessing

        self.where = where
        context = multiprocessing.get_context("fork")
        self._receiving, sending = context.Pipe(duplex=False)
        release_free_memory()  # else both processes start with the freed pages of every earlier step
        self._thaw = gc.get_freeze_count() == 0
        gc.freeze()
        self._child = context.Process(target=_send_outcome, args=(function, args, sending))
        self._child.start()
        sending.close()

    def result(self):
        try:
            outcome = self._receiving.recv()
        except EOFError:
            raise OutputError(self.where, "the second process ended without a word (killed, or out of memory)") \
                from None
        finally:
            self._end()
        return _result(outcome)

    def cancel(self) -> None:
        """Stop the child as Ctrl-C would (SIGTERM raises ``Cancelled`` in it: its ``finally`` blocks
        remove its temporary files), and wait for it; killed only if it has not stopped after
        ``CANCEL_SECONDS``. Not SIGINT: a process started in the background ignores it, and so
        would the child."""
        if self._child.pid is not None and self._child.is_alive():
            os.kill(self._child.pid, signal.SIGTERM)
        self._child.join(CANCEL_SECONDS)
        if self._child.is_alive():
            self._child.kill()
        self._end()

    def _end(self) -> None:
        self._receiving.close()
        self._child.join()
        if self._thaw:
            gc.unfreeze()


def can_fork() -> bool:
    """Whether work may go to a second process (``Beside``): two workers allowed and ``fork`` exists."""
    return worker_count() >= 2 and hasattr(os, "fork")


class Cancelled(BaseException):
    """Raised in a ``Beside`` child that its parent cancelled (as ``KeyboardInterrupt``: no handler stops it)."""


def _cancelled(signum, frame) -> None:
    raise Cancelled


def _send_outcome(function: Callable, args: tuple, sending) -> None:
    """In the forked child: ``function``'s outcome, as ``_result`` reads it, sent whole."""
    signal.signal(signal.SIGTERM, _cancelled)
    try:
        outcome = (True, function(*args))
    except BaseException as exc:  # Ctrl-C too: the parent raises it as it was raised here
        outcome = (False, (type(exc), exc.args, dict(vars(exc))))
    try:
        sending.send(outcome)
    finally:
        sending.close()


def _call(function: Callable, job: tuple) -> tuple:
    """In a worker: the result, or what it raised as (class, args, attributes). Typed errors take
    their own arguments (``SourceError(path, problem)``), which pickling an exception would lose."""
    try:
        return (True, function(*job))
    except Exception as exc:  # handed back whole, raised in the parent as it was raised here
        return (False, (type(exc), exc.args, dict(vars(exc))))


_SHARED: object = None  # in a worker process: what ``map_in_order``'s ``shared`` handed it as it started


def _keep_shared(value: object) -> None:
    global _SHARED
    _SHARED = value


def _call_with_shared(function: Callable, job: tuple) -> tuple:
    return _call(function, (_SHARED, *job))


def _result(outcome: tuple):
    done, value = outcome
    if done:
        return value
    kind, args, attributes = value
    error = kind.__new__(kind)
    error.args = args
    vars(error).update(attributes)
    raise error


__all__ = ["ENVIRONMENT", "Beside", "can_fork", "map_in_order", "worker_count"]
