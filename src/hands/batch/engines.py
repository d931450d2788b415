"""Where the sessions run: a pool on this machine, or Ray tasks across a cluster.

Both take the tasks not done yet and call ``on_result`` with each result as it
finishes. A task is retried (up to ``retries`` more attempts) only when its worker died
under it — the session killed from outside, the worker process or its node lost —
never for the task's own failure, which is a result like any other.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ThreadPoolExecutor, wait
from dataclasses import dataclass
from typing import Any, Protocol

from hands.batch.ray_pool import DataRunner, PoolShape, RayPool
from hands.batch.session import RunSettings, SessionCrashed, run_task, run_task_data, worker_lost
from hands.batch.tasks import BatchTask

Runner = Callable[[BatchTask, RunSettings, int], dict[str, Any]]
"""Runs one attempt of a task (:func:`hands.batch.session.run_task`)."""
OnResult = Callable[[dict[str, Any]], None]
OnStart = Callable[[BatchTask], None]


class Engine(Protocol):
    """Runs tasks and reports each result once."""

    def run(
        self,
        tasks: Sequence[BatchTask],
        settings: RunSettings,
        *,
        on_start: OnStart,
        on_result: OnResult,
    ) -> None:
        """Run every task; returns when all have a result."""
        ...


@dataclass(frozen=True, kw_only=True, slots=True)
class LocalEngine:
    """Sessions as processes on this machine, ``concurrency`` at a time."""

    concurrency: int = 4
    retries: int = 2
    runner: Runner = run_task

    def run(
        self,
        tasks: Sequence[BatchTask],
        settings: RunSettings,
        *,
        on_start: OnStart,
        on_result: OnResult,
    ) -> None:
        """Run the tasks on a thread pool, each session a process of its own."""
        lock = threading.Lock()

        def one(task: BatchTask) -> None:
            on_start(task)
            for attempt in range(1, self.retries + 2):
                try:
                    result = self.runner(task, settings, attempt)
                except SessionCrashed as exc:
                    if attempt > self.retries:
                        result = worker_lost(task.id, attempt, str(exc))
                    else:
                        continue
                with lock:
                    on_result(result)
                return

        with ThreadPoolExecutor(max_workers=max(1, self.concurrency)) as pool:
            futures: set[Future[None]] = {pool.submit(one, t) for t in tasks}
            while futures:
                done, futures = wait(futures, return_when=FIRST_COMPLETED)
                for future in done:
                    future.result()  # a bug in the runner itself surfaces here


@dataclass(frozen=True, kw_only=True, slots=True)
class RayEngine:
    """Sessions on a pool of Ray actors; ``address`` None starts a Ray of hands' own.

    ``concurrency`` workers (Ray actors, started together at the beginning, each asking for
    ``num_cpus`` and ``memory_mb``, so Ray places as many as the cluster holds and the
    rest as resources free up) run one session at a time each, with ``depth`` tasks queued
    on each so a worker that finishes starts its next at once, without a round trip to the
    driver. A task whose worker died under it (the process or its node lost, the session
    killed from outside: :class:`SessionCrashed`) is sent again, to whichever worker is
    free, up to ``retries`` more times, its result's ``attempt`` counting the sends; a
    dead worker is restarted by Ray. Nothing else is retried.
    """

    address: str | None = None
    concurrency: int = 32
    retries: int = 2
    num_cpus: float = 1.0
    memory_mb: int = 1024
    depth: int = 2
    runner: DataRunner = run_task_data

    def run(
        self,
        tasks: Sequence[BatchTask],
        settings: RunSettings,
        *,
        on_start: OnStart,
        on_result: OnResult,
    ) -> None:
        """Run the tasks on the worker pool; each result as it finishes."""
        if not tasks:
            return
        shape = PoolShape(
            address=self.address,
            workers=max(1, self.concurrency),
            num_cpus=self.num_cpus,
            memory_mb=self.memory_mb,
            depth=max(1, self.depth),
            retries=self.retries,
            runner=self.runner,
        )
        pool = RayPool(shape=shape, settings=settings.to_data())
        try:
            pool.drive(tasks, on_start=on_start, on_result=on_result)
        finally:
            pool.close()
