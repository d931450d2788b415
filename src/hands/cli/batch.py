"""``hands batch TASKS.jsonl``: run a task file's sessions, locally or on Ray."""

from __future__ import annotations

import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Literal, cast

from hands.cli.args import UsageError

if TYPE_CHECKING:
    from hands.batch.gateway import ModelGateway


def batch_main(
    *,
    tasks_path: Path,
    out: Path | None,
    engine: Literal["local", "ray"],
    address: str | None,
    concurrency: int | None,
    sandbox: Literal["bwrap", "none"],
    model: str | None,
    retries: int,
    resume: bool,
    run_dir: Path | None,
    quiet: bool,
    model_concurrency: int | None = None,
) -> int:
    """Run the batch; the exit code is 0 when every task has a result."""
    from hands.batch.engines import Engine, LocalEngine, RayEngine
    from hands.batch.results import ResultsFile
    from hands.batch.runner import results_path_default, run_batch
    from hands.batch.session import RunSettings
    from hands.batch.tasks import load_tasks

    tasks = load_tasks(tasks_path)
    out = out if out is not None else results_path_default(tasks_path)
    if out.exists() and out.stat().st_size and not resume:
        raise UsageError(
            f"{out} already has results: pass --resume to skip the tasks it holds, or choose "
            "another --out"
        )
    if sandbox == "bwrap":
        _check_sandbox()
    if concurrency is not None and concurrency < 1:
        raise UsageError("--concurrency must be at least 1")
    chosen: Engine
    if engine == "ray":
        import importlib.util

        if importlib.util.find_spec("ray") is None:
            raise UsageError("--engine ray needs Ray: pip install 'hands[ray]'")
        chosen = RayEngine(address=address, concurrency=concurrency or 32, retries=retries)
    else:
        if address is not None:
            raise UsageError("--address is for --engine ray")
        chosen = LocalEngine(
            concurrency=concurrency or max(1, (os.cpu_count() or 2)), retries=retries
        )
    where = run_dir if run_dir is not None else out.with_name(out.stem + ".runs")
    gateway = _gateway(model_concurrency, engine=engine, address=address)
    env = gateway.session_env() if gateway is not None else {}
    settings = RunSettings(run_dir=where.absolute(), sandbox=sandbox, model=model, env=env)
    from hands.cli.console import ShownConsole

    console = None if quiet else ShownConsole(stderr=True)
    try:
        run_batch(
            tasks, engine=chosen, settings=settings, results=ResultsFile(out), console=console
        )
    finally:
        if gateway is not None:
            gateway.stop()
    if not quiet:
        if gateway is not None:
            stats = gateway.stats
            print(
                f"hands: {stats.requests} model requests, at most {stats.peak_in_flight} at once "
                f"(limit {model_concurrency}); {stats.rate_limited} rate-limited answers waited "
                f"out ({stats.waited_s:.1f} s held)",
                file=sys.stderr,
            )
        print(f"hands: results in {out}", file=sys.stderr)
    return 0


def _gateway(limit: int | None, *, engine: str, address: str | None) -> ModelGateway | None:
    """The started model gateway of ``--model-concurrency``, or None without it."""
    if limit is None:
        return None
    if limit < 1:
        raise UsageError("--model-concurrency must be at least 1")
    from hands.batch.gateway import ModelGateway

    host = "127.0.0.1"
    if engine == "ray" and address is not None:
        import ray.util

        # this machine's address on the route to the cluster: where its nodes reach it
        locate = cast("Callable[[str], object]", ray.util.get_node_ip_address)
        host = str(locate(address))
    gateway = ModelGateway(limit=limit, env=os.environ, host=host)
    if not gateway.providers:
        raise UsageError(
            "--model-concurrency limits requests to a model API, and none is configured "
            "(ANTHROPIC_API_KEY, OPENAI_API_KEY or their *_BASE_URL)"
        )
    gateway.start()
    return gateway


def _check_sandbox() -> None:
    from hands.tools.bash.sandbox.sandbox import SandboxUnavailable, check_available

    try:
        check_available()
    except SandboxUnavailable as exc:
        raise UsageError(f"{exc} Install bubblewrap, or pass --sandbox none.") from exc
