"""The Ray side of the batch: a pool of worker actors and the loop that feeds them.

Ray is imported only here and only when a Ray batch runs. Each worker is an actor that
runs one session at a time; the driver keeps up to ``depth`` tasks queued on each ready
worker, so a worker that finishes one starts the next without waiting for the driver.
A send lost with its worker (actor died, node lost, session killed from outside) goes
back to the queue with its attempt counted; Ray restarts the worker.
"""

from __future__ import annotations

import os
import time
from collections import deque
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, cast

from hands.batch.session import SessionCrashed, run_task_data, worker_lost
from hands.batch.tasks import BatchTask

DataRunner = Callable[[Mapping[str, Any], Mapping[str, Any], int], dict[str, Any]]
"""Runs one attempt of a task given as plain data (:func:`run_task_data`)."""
OnResult = Callable[[dict[str, Any]], None]
OnStart = Callable[[BatchTask], None]


class SessionWorker:
    """The actor: runs the sessions sent to it, one at a time."""

    def __init__(self, runner: DataRunner = run_task_data) -> None:
        self._runner = runner

    def ready(self) -> bool:
        """Answers once the worker's process is up (the driver sends nothing before)."""
        return True

    def run(
        self, task: Mapping[str, Any], settings: Mapping[str, Any], attempt: int
    ) -> dict[str, Any]:
        """One attempt of one task; raises :class:`SessionCrashed` to be sent again."""
        return self._runner(task, settings, attempt)


@dataclass(frozen=True, kw_only=True, slots=True)
class PoolShape:
    """How many workers, what each asks of the cluster, how deep their queues are."""

    address: str | None
    workers: int
    num_cpus: float
    memory_mb: int
    depth: int
    retries: int
    runner: DataRunner


@dataclass(kw_only=True)
class _Send:
    task: BatchTask
    attempt: int
    worker: int


@dataclass(kw_only=True)
class RayPool:
    """Workers started at once; tasks fed to the ready ones; every task one result."""

    shape: PoolShape
    settings: Mapping[str, Any]
    cold_start_s: float | None = None
    """Seconds from starting the pool until its first worker was ready."""
    all_ready_s: float | None = None
    """Seconds from starting the pool until every worker it started was ready."""
    _actors: list[Any] = field(default_factory=lambda: list[Any]())
    _ready: set[int] = field(default_factory=lambda: set[int]())
    _starting: dict[Any, int] = field(default_factory=lambda: dict[Any, int]())
    _queued: list[int] = field(default_factory=lambda: list[int]())

    def drive(self, tasks: Sequence[BatchTask], *, on_start: OnStart, on_result: OnResult) -> None:
        """Run every task; returns when each has had its result reported."""
        if self.shape.address is None:
            start_local_ray()
        else:
            import ray

            if not ray.is_initialized():
                ray.init(address=self.shape.address, log_to_driver=False, include_dashboard=False)
        started = time.monotonic()
        self._start_workers(min(self.shape.workers, len(tasks)))
        waiting: deque[tuple[BatchTask, int]] = deque((t, 1) for t in tasks)
        sends: dict[Any, _Send] = {}
        announced: set[str] = set()
        while waiting or sends:
            self._feed(waiting, sends, announced, on_start)
            done = self._wait([*sends, *self._starting])
            for ref in done:
                if ref in self._starting:
                    self._worker_up(ref)
                    now = time.monotonic() - started
                    self.cold_start_s = self.cold_start_s or now
                    if self.all_ready_s is None and len(self._ready) == len(self._actors):
                        self.all_ready_s = now
                    continue
                send = sends.pop(ref)
                self._queued[send.worker] -= 1
                result = self._result(ref, send, waiting)
                if result is not None:
                    on_result(result)

    def close(self) -> None:
        """Stop the workers (pending ones too)."""
        import ray

        for actor in self._actors:
            ray.kill(actor, no_restart=True)
        self._actors.clear()

    def _start_workers(self, count: int) -> None:
        import ray

        worker_class = cast(
            "Any",
            ray.remote(SessionWorker).options(
                num_cpus=self.shape.num_cpus,
                memory=self.shape.memory_mb * 1024 * 1024,
                max_restarts=-1,
                max_task_retries=0,
            ),
        )
        for index in range(max(1, count)):
            actor = worker_class.remote(self.shape.runner)
            self._actors.append(actor)
            self._queued.append(0)
            self._starting[actor.ready.remote()] = index

    def _worker_up(self, ref: Any) -> None:
        import ray

        index = self._starting.pop(ref)
        try:
            ray.get(ref)
        except Exception:  # died while starting: Ray restarts it; ask again
            self._starting[self._actors[index].ready.remote()] = index
            return
        self._ready.add(index)

    def _feed(
        self,
        waiting: deque[tuple[BatchTask, int]],
        sends: dict[Any, _Send],
        announced: set[str],
        on_start: OnStart,
    ) -> None:
        # fill the least loaded ready workers first, up to ``depth`` queued each
        while waiting and self._ready:
            worker = min(self._ready, key=lambda i: self._queued[i])
            if self._queued[worker] >= self.shape.depth:
                return
            task, attempt = waiting.popleft()
            if task.id not in announced:
                announced.add(task.id)
                on_start(task)
            data = task.model_dump(mode="json")
            ref = self._actors[worker].run.remote(data, self.settings, attempt)
            sends[ref] = _Send(task=task, attempt=attempt, worker=worker)
            self._queued[worker] += 1

    @staticmethod
    def _wait(refs: list[Any]) -> list[Any]:
        import ray

        first = cast("list[Any]", ray.wait(refs, num_returns=1)[0])
        # and every other one already done, in the same round trip
        rest = cast("list[Any]", ray.wait(refs, num_returns=len(refs), timeout=0)[0])
        return list(dict.fromkeys([*first, *rest]))

    def _result(
        self, ref: Any, send: _Send, waiting: deque[tuple[BatchTask, int]]
    ) -> dict[str, Any] | None:
        """The send's result, or None when it was lost with its worker and sent again."""
        import ray
        from ray.exceptions import RayError, RayTaskError

        try:
            return cast("dict[str, Any]", ray.get(ref))
        except RayTaskError as exc:
            if not isinstance(exc.cause, SessionCrashed):
                raise  # a bug in the runner itself, as the local engine surfaces it
            why = str(exc.cause)
        except RayError as exc:  # the worker, its node or the object lost
            why = f"{type(exc).__name__}: {_first_line(exc)}"
            self._worker_lost(send.worker)
        if send.attempt > self.shape.retries:
            return worker_lost(send.task.id, send.attempt, why)
        waiting.appendleft((send.task, send.attempt + 1))
        return None

    def _worker_lost(self, index: int) -> None:
        # Ray restarts the actor; send it nothing until it answers again
        if index in self._ready:
            self._ready.discard(index)
            self._starting[self._actors[index].ready.remote()] = index


LOCAL_ONLY = "RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER"
"""Ray's switch for a machine that is not a cluster node: set to 0, Ray takes the loopback
address as the node's address (on Linux it otherwise swaps 127.0.0.1 for an address the
network reaches), and its services listen where the node's address is."""


def start_local_ray() -> None:
    """Start a Ray of hands' own on this machine, every service listening on loopback.

    Never one found running on the machine (``--address auto`` joins that), nor when
    this process has already started or joined one. Ray's core servers
    (GCS, raylet, object manager, every worker's gRPC server), the dashboard agent, the
    runtime-env agent and the metrics exporter bind loopback when the node's address is
    loopback, and the dashboard is not started. The switch goes to Ray's processes
    through the environment, and to the Ray already imported in this one (for the rest of
    this process: a later ``ray.init()`` here starts on loopback too).
    """
    import ray

    if ray.is_initialized():  # the program started (or joined) one itself
        return
    from ray._private import ray_constants

    os.environ[LOCAL_ONLY] = "0"
    cast("Any", ray_constants).ENABLE_RAY_CLUSTER = False
    ray.init(
        address="local",
        _node_ip_address="127.0.0.1",
        include_dashboard=False,
        dashboard_host="127.0.0.1",
        log_to_driver=False,
    )


def _first_line(exc: BaseException) -> str:
    text = str(exc).strip()
    return text.splitlines()[0][:300] if text else ""
