"""Where one tool call's instructions go: each step of ``run_tool_use`` counted alone.

One process, one callgrind run. Every step runs N times inside its own
``functools.reduce`` call; callgrind collects only inside ``functools_reduce``
(``--collect-atstart=no --toggle-collect``) and writes its counts after each one
(``--dump-after``), so each dump is one step, whatever the process did before. The step
that does nothing (the reduce loop calling an empty function) is subtracted from each.

The call is the trivial ``add`` tool of ``overhead.py`` with its headline set-up: the
permission engine built from a typical settings file, the hook engine with no hook. A
coroutine step is driven by hand (``send(None)``): on this path none of them waits, and
the driving costs what ``await`` costs. The rows are the steps ``run_tool_use`` takes,
in order, then the whole call; what the whole costs beyond the rows' sum is the frames
that join them (the pipeline's own coroutine, its ``try`` and the stage functions).

    .venv/bin/python benchmarks/call_steps.py [--calls N] [--only TEXT ...]

``--only``: count only the steps whose name contains one of the texts (the empty step
and the whole call are always counted), for a quicker run while changing one step.
"""

from __future__ import annotations

import argparse
import asyncio
import functools
import json
import os
import re
import subprocess
import sys
import tempfile
from collections.abc import Callable, Coroutine
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
CALLS = 2000


def drive(coro: Coroutine[Any, Any, Any]) -> Any:
    """Run a coroutine that finishes without waiting, as ``await`` would."""
    try:
        coro.send(None)
    except StopIteration as stop:
        return stop.value
    raise RuntimeError("the step waited; it cannot be counted alone")


def steps(cwd: Path) -> list[tuple[str, Callable[[], Any]]]:
    """(what, one run of it) for every step of the call, in the pipeline's order."""
    sys.path.insert(0, str(HERE))
    import overhead
    from hands.core.context import ToolContext
    from hands.core.decorator import tool
    from hands.core.messages import ToolUseBlock, build_result_block, build_tool_use_block
    from hands.core.outcome import build_outcome
    from hands.core.session import Session
    from hands.pipeline import execution
    from hands.pipeline.pool import resolve

    add = tool(read_only=True)(overhead.add)
    runtime = overhead.engine_runtime(cwd, [add])
    ctx = ToolContext(cwd=cwd, session=Session(), project_dir=cwd)
    block = ToolUseBlock(id="toolu_00", name="add", input=json.loads(overhead.ARGS))
    found = resolve("add", runtime.tools)
    assert found is not None
    call_ctx = ctx.for_call(block.id, policy=runtime.policy)
    parsed = found.parse_input(block.input)
    handles, policy, progress = runtime.hooks.handles, runtime.policy, overhead.no_progress
    call = execution._Call(block, found, call_ctx, runtime, parsed)
    drive(execution._invoke(call, progress, None))
    floor = overhead.validated_floor_path()
    assert floor.serial is not None
    floor_step = floor.serial
    args = json.loads(overhead.ARGS)

    async def nothing() -> None:
        return None

    def run_one() -> Any:
        return drive(execution.run_tool_use(block, ctx, runtime, progress))

    return [
        ("(the empty step, subtracted from the others)", lambda: None),
        ("the validated floor: validate_json + the call", lambda: drive(floor_step())),
        (
            "the block: json.loads + ToolUseBlock",
            lambda: ToolUseBlock(id="toolu_00", name="add", input=json.loads(overhead.ARGS)),
        ),
        ("  of it json.loads", lambda: json.loads(overhead.ARGS)),
        (
            "  of it ToolUseBlock(...) (a frozen __init__, by keyword)",
            lambda: ToolUseBlock(id="toolu_00", name="add", input=args),
        ),
        (
            "  the same block through build_tool_use_block",
            lambda: build_tool_use_block("toolu_00", "add", args, "tool_use"),
        ),
        ("a coroutine awaited (what each async stage costs to enter)", lambda: drive(nothing())),
        ("find the tool: resolve", lambda: resolve("add", runtime.tools)),
        ("the call's context: ctx.for_call", lambda: ctx.for_call("toolu_00", policy=policy)),
        ("parse the input: tool.parse_input (pydantic)", lambda: found.parse_input(block.input)),
        (
            "the call's state: _Call",
            lambda: execution._Call(block, found, call_ctx, runtime, parsed),
        ),
        ("the hooks' check: handles, once", lambda: handles("PreToolUse")),
        (
            "the permission decision: policy.decide",
            lambda: drive(policy.decide(found, parsed, call_ctx)),
        ),
        (
            "the tool: tool.call (wrapper + add + ToolResult)",
            lambda: drive(found.call(parsed, call_ctx, progress)),
        ),
        ("the function alone: add(2, 3)", lambda: drive(overhead.add(2, 3))),
        ("rendering: tool.to_content", lambda: found.to_content(5)),
        (
            "_invoke (the call, its timing and content)",
            lambda: drive(execution._invoke(call, progress, None)),
        ),
        ("the result: _finish (result block + outcome)", lambda: execution._finish(call)),
        (
            "  of it build_result_block + build_outcome",
            lambda: build_outcome(
                build_result_block("toolu_00", "5", False, "tool_result"),
                "ok",
                found,
                parsed,
                5,
                None,
                (),
                True,
                0.0,
            ),
        ),
        ("the whole call: run_tool_use", run_one),
    ]


async def child(calls: int, only: list[str]) -> None:
    with tempfile.TemporaryDirectory(prefix="hands-steps-") as tmp:
        cwd = Path(tmp) / "project"
        cwd.mkdir()
        table = steps(cwd)
        if only:
            last = len(table) - 1
            table = [
                (what, step)
                for index, (what, step) in enumerate(table)
                if index in (0, last) or any(text in what for text in only)
            ]
        for _, step in table:  # warm every cache the steps fill
            for _ in range(200):
                step()
        print(json.dumps([what for what, _ in table]), flush=True)
        for _, step in table:
            functools.reduce(lambda _acc, _i, step=step: step(), range(calls), None)


def count(calls: int, only: list[str]) -> list[tuple[str, float]]:
    with tempfile.TemporaryDirectory(prefix="hands-steps-cg-") as tmp:
        out = Path(tmp) / "callgrind.out"
        command = [
            "valgrind", "--tool=callgrind", f"--callgrind-out-file={out}",
            "--collect-atstart=no", "--toggle-collect=functools_reduce",
            "--dump-after=functools_reduce", "--dump-instr=no",
            sys.executable, str(Path(__file__).resolve()), "--child", str(calls),
            *(f"--only={text}" for text in only),
        ]  # fmt: skip
        env = {**os.environ, "PYTHONHASHSEED": "0"}
        done = subprocess.run(command, env=env, capture_output=True, text=True, check=False)
        if done.returncode != 0:
            raise SystemExit(f"the counted run failed:\n{done.stderr[-3000:]}")
        names: list[str] = json.loads(done.stdout.strip().splitlines()[-1])
        parts = sorted(Path(tmp).glob("callgrind.out.*"), key=lambda p: int(p.suffix[1:]))
        totals = []
        for part in parts:
            found = re.search(r"^(?:summary|totals):\s+(\d+)", part.read_text(), re.M)
            totals.append(int(found[1]) if found else 0)
        totals = totals[-len(names) :]
        if len(totals) != len(names):
            raise SystemExit(f"{len(parts)} dumps for {len(names)} steps")
        empty = totals[0]
        return [(name, (total - empty) / calls) for name, total in zip(names, totals, strict=True)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--calls", type=int, default=CALLS, help="runs of each step")
    parser.add_argument(
        "--only", action="append", default=[], help="count only the steps naming this text"
    )
    parser.add_argument("--child", type=int, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child is not None:
        asyncio.run(child(args.child, args.only))
        return
    rows = count(args.calls, args.only)
    whole = rows[-1][1]
    print(f"instructions per run of each step (callgrind, {args.calls} runs, less the empty step)")
    for name, per in rows[1:]:
        print(f"  {name:<60} {per:>9,.0f} {per / whole:>6.1%}")


if __name__ == "__main__":
    main()
