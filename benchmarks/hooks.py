"""Per-call overhead of hooks: none, one Python callback, one command hook (`true`).

The tool is a trivial async ``add(a, b)``; each path runs the full per-call pipeline
(``run_tool_use`` from the JSON arguments to the ``ToolResultBlock``):

* no hooks        ``ToolRuntime(hooks=None)``: the path every session without hooks takes.
* empty engine    a ``HookEngine`` with hooks only for another event (SessionStart): the
                  cost of having hooks configured that do not apply to the call.
* Python callback one PreToolUse callback returning ``None`` (no opinion).
* command `true`  one PreToolUse command hook ``true``: a ``bash -c true`` process per call.

Medians over interleaved repetitions; ratios are against "no hooks".

    .venv/bin/python benchmarks/hooks.py [--quick]
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import os
import statistics
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from hands.core.context import ToolContext
from hands.core.decorator import tool
from hands.core.messages import ToolUseBlock
from hands.core.session import Session
from hands.hooks.callbacks import HookCallbacks
from hands.hooks.config import parse_hooks
from hands.hooks.engine import HookEngine
from hands.pipeline.execution import run_tool_use
from hands.pipeline.pool import ToolPool
from hands.pipeline.runtime import ToolRuntime

ARGS = '{"a": 2, "b": 3}'
GOAL_NO_HOOKS_US = 20.0


async def add(a: int, b: int) -> int:
    """Add two integers.

    Args:
        a: The first number.
        b: The second number.
    """
    return a + b


def no_progress(data: Any) -> None:
    del data


def runtimes() -> list[tuple[str, ToolRuntime]]:
    pool = ToolPool([tool(read_only=True)(add)])
    callbacks = HookCallbacks()

    def nothing(data: dict[str, Any]) -> None:
        return None

    callbacks.add("PreToolUse", nothing, matcher="add")
    other = parse_hooks(
        [("bench", {"SessionStart": [{"hooks": [{"type": "command", "command": "true"}]}]})]
    )
    command = parse_hooks(
        [
            (
                "bench",
                {
                    "PreToolUse": [
                        {"matcher": "add", "hooks": [{"type": "command", "command": "true"}]}
                    ]
                },
            )
        ]
    )
    return [
        ("no hooks", ToolRuntime(tools=pool)),
        ("hooks for another event only", ToolRuntime(tools=pool, hooks=HookEngine(other))),
        (
            "one Python callback",
            ToolRuntime(tools=pool, hooks=HookEngine(parse_hooks([]), callbacks=callbacks)),
        ),
        ("one command hook `true`", ToolRuntime(tools=pool, hooks=HookEngine(command))),
    ]


async def per_call_us(fn: Callable[[], Awaitable[Any]], n: int) -> float:
    start = time.perf_counter_ns()
    for _ in range(n):
        await fn()
    return (time.perf_counter_ns() - start) / 1000 / n


async def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer repetitions")
    args = parser.parse_args()
    reps = 5 if args.quick else 11
    fast_n, slow_n = (500, 20) if args.quick else (2000, 60)
    with tempfile.TemporaryDirectory(prefix="hands-bench-hooks-") as tmp:
        os.environ["HANDS_HOME"] = str(Path(tmp) / "home")
        cwd = Path(tmp) / "project"
        cwd.mkdir()
        ctx = ToolContext(cwd=cwd, session=Session(), project_dir=cwd)
        paths = runtimes()
        samples: dict[str, list[float]] = {name: [] for name, _ in paths}

        def caller(runtime: ToolRuntime) -> Callable[[], Awaitable[Any]]:
            async def call() -> Any:
                block = ToolUseBlock(id="toolu_00", name="add", input=json.loads(ARGS))
                outcome = await run_tool_use(block, ctx, runtime, no_progress)
                if outcome.block.content != "5":
                    raise RuntimeError(f"unexpected result {outcome.block.content!r}")
                return outcome

            return call

        for name, runtime in paths:  # warm-up
            await per_call_us(caller(runtime), 5 if "command" in name else 200)
        for _ in range(reps):
            for name, runtime in paths:
                gc.collect()
                n = slow_n if "command" in name else fast_n
                samples[name].append(await per_call_us(caller(runtime), n))

    base = statistics.median(samples["no hooks"])
    print("hands hook overhead per call: run_tool_use on a trivial async add(a, b)")
    print(f"median of {reps} interleaved reps; µs per call; ratio = path / no hooks")
    print(f"load average: {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores\n")
    header = f"{'path':<32} {'µs/call':>10} {'vs no hooks':>12}"
    print(header)
    print("-" * len(header))
    for name, _ in paths:
        med = statistics.median(samples[name])
        print(f"{name:<32} {med:10.1f} {med / base:11.2f}x")
    verdict = "MET" if base <= GOAL_NO_HOOKS_US else "MISSED"
    print(f"\nno-hooks per call {base:.1f} µs, goal ≤ {GOAL_NO_HOOKS_US:g} µs: {verdict}")
    return 0


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
