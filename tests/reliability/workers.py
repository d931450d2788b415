"""Jobs run in worker processes: each worker a subreaper, its jobs one after another.

A fault run mostly waits (for timeouts), so several at once use the machine well. Each
worker is a subreaper, so the processes a run leaves behind come back to that worker,
where the run's own leftover check finds them and no other run's.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import os
import sys
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import TypeVar

from .kit import become_subreaper, scale

J = TypeVar("J")
R = TypeVar("R")


def worker_count() -> int:
    """``RELIABILITY_WORKERS``, or the scale's number; 1 runs every job in this process."""
    return max(1, scale("workers"))


def in_workers(job: Callable[[J], R], items: Sequence[J], workers: int) -> Iterator[R]:
    """``job`` of each item, in the items' order, run by ``workers`` processes."""
    if workers <= 1 or len(items) <= 1:
        yield from (job(item) for item in items)
        return
    context = multiprocessing.get_context("spawn")
    with (
        _importable(),
        ProcessPoolExecutor(
            max_workers=min(workers, len(items)), mp_context=context, initializer=become_subreaper
        ) as pool,
    ):
        yield from pool.map(job, items, chunksize=1)


@contextlib.contextmanager
def _importable() -> Iterator[None]:
    """This suite's modules importable by their names in a spawned worker.

    pytest imports them as ``tests.reliability.*`` without putting the checkout on
    ``sys.path`` (which a spawned process starts with); last, so it shadows nothing.
    """
    root = str(Path(__file__).resolve().parents[2])
    added = root not in sys.path
    if added:
        sys.path.append(root)
    try:
        yield
    finally:
        if added:
            sys.path.remove(root)


def load_factor(workers: int) -> float:
    """How much longer a run may take with ``workers`` at once on this machine's cores."""
    return max(1.0, workers / (os.cpu_count() or 1))
