"""Where the sessions run: a pool on this machine, or Ray tasks across a cluster.

Both take the tasks not done yet and call ``on_result`` with each result as it
finishes. A task is retried (up to ``retries`` more attempts) only when its worker died
under it — the session killed from outside, the worker process or its node lost —
never for the task's own failure, which is a result like any other.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ThreadPoolExecutor, wait
from dataclasses import dataclass
from typing import Any, Protocol, cast

from hands.batch.session import RunSettings, SessionCrashed, run_task, run_task_data
from hands.batch.tasks import BatchTask

Runner = Callable[[BatchTask, RunSettings, int], dict[str, Any]]
"""Runs one attempt of a task (:func:`hands.batch.session.run_task`)."""
DataRunner = Callable[[Mapping[str, Any], Mapping[str, Any], int], dict[str, Any]]
"""The same on plain data, for Ray (:func:`hands.batch.session.run_task_data`)."""
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


def crashed(task: BatchTask, attempts: int, why: str) -> dict[str, Any]:
    """The result of a task whose every attempt lost its worker."""
    return {"id": task.id, "status": "error", "attempt": attempts, "error": f"worker lost: {why}"}


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
                        result = crashed(task, attempt, str(exc))
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
    """Each session a Ray task; ``address`` None starts (or joins) a local Ray instance.

    Every task asks for ``num_cpus`` and ``memory_mb``, so Ray runs as many at once as
    the cluster's resources allow; at most ``concurrency`` are in flight (running or
    queued in Ray, so a worker that finishes starts the next at once). Ray retries a
    task whose worker or node died (``max_retries``) and a session killed from outside
    (:class:`SessionCrashed`); nothing else.
    """

    address: str | None = None
    concurrency: int = 32
    retries: int = 2
    num_cpus: float = 1.0
    memory_mb: int = 1024
    runner: DataRunner = run_task_data

    def run(
        self,
        tasks: Sequence[BatchTask],
        settings: RunSettings,
        *,
        on_start: OnStart,
        on_result: OnResult,
    ) -> None:
        """Submit the tasks to Ray, ``concurrency`` in flight, results as they finish."""
        import ray

        if not ray.is_initialized():
            ray.init(address=self.address, log_to_driver=False, include_dashboard=False)
        remote = ray.remote(self.runner).options(
            num_cpus=self.num_cpus,
            memory=self.memory_mb * 1024 * 1024,
            max_retries=self.retries,
            retry_exceptions=[SessionCrashed],
        )
        data = settings.to_data()
        pending = list(tasks)
        running: dict[Any, BatchTask] = {}
        while pending or running:
            while pending and len(running) < max(1, self.concurrency):
                task = pending.pop(0)
                on_start(task)
                running[remote.remote(task.model_dump(mode="json"), data, 1)] = task
            refs = list(running)
            first = cast("list[Any]", ray.wait(refs, num_returns=1)[0])
            # then every other one already done, in the same round trip to the driver
            rest = cast("list[Any]", ray.wait(refs, num_returns=len(refs), timeout=0)[0])
            for ref in dict.fromkeys([*first, *rest]):
                task = running.pop(ref)
                try:
                    result = cast("dict[str, Any]", ray.get(ref))
                except Exception as exc:  # every retry lost its worker
                    result = crashed(task, self.retries + 1, f"{type(exc).__name__}: {exc}")
                on_result(result)
