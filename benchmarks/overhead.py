"""Per-call overhead of hands vs. a hand-written floor and two peer frameworks.

The tool is a trivial async ``add(a: int, b: int) -> int``. Each path is timed from the
raw JSON arguments string (what a model sends) to the tool's result:

* floor         ``json.loads`` + dict dispatch to the coroutine, nothing else; and the
                validated floor the goal is set against: pydantic ``model_validate_json``
                + the call.
* hands         (headline) ``json.loads`` → ``run_tool_use(ToolUseBlock(...), ctx,
                runtime, progress)`` with the real ``PermissionEngine`` built from a
                typical ``.claude/settings.json`` and a ``HookEngine`` with no hook
                configured (asked whether PreToolUse/PostToolUse have hooks, so neither
                is dispatched): lookup, pydantic validation, validate_input, the hooks,
                the engine's decision, the call
                under the default time limit, to_content, the size check →
                the ``ToolResultBlock``. The SimplePolicy rows (no hooks) are kept beside it.
* openai-agents ``FunctionTool.on_invoke_tool(ToolContext(...), args_json)`` of
                ``agents.function_tool(add)``; it parses and validates the JSON itself. A
                fresh ``agents.tool_context.ToolContext`` per call, as its runner makes.
* pydantic-ai   two entry points (``pydantic_ai.FunctionToolset([add])``):
                ``ToolManager.handle_call(ToolCallPart(tool_name, args=args_json,
                tool_call_id))`` — the public, per-call path its agent graph runs
                (resolve, per-call RunContext, validate the JSON with the tool's
                SchemaValidator, capability hooks, ``call_tool``); the ToolManager comes from
                ``ToolManager(toolset=...).for_run_step(RunContext(...))`` once, as per run
                step. And the bare minimum, ``FunctionToolsetTool.args_validator
                .validate_json(args_json)`` then ``FunctionToolset.call_tool(...)`` (no
                per-call context, no hooks) — a lower bound for pydantic-ai.

Serial: one call after the other. Batch: 10 concurrent calls (hands through a
``StreamingToolExecutor`` in a task group, and through ``run_tools``; the others through
``asyncio.gather``), reported per call. Loop: ``query`` + ``ScriptedModel`` with 1 vs N
add calls in one turn; (time_N - time_1) / (N - 1) is the marginal loop cost per extra
call. Medians over interleaved repetitions; the machine may be busy with other work.

Goals (hands headline): serial and batched at or below openai-agents, serial within 3x
the validated floor, marginal loop cost <= 25 µs. When hands misses a goal (or with
``--profile``) the script profiles it: each stage of the pipeline (or each
primitive the executor and the loop use) timed alone without a profiler, then cProfile's
view normalised per tool call.

    .venv/bin/python benchmarks/overhead.py [--quick] [--clock cpu] [--profile]
"""

from __future__ import annotations

import argparse
import asyncio
import cProfile
import gc
import io
import json
import os
import pstats
import statistics
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import anyio

from hands.agent.loop import QueryOptions, query
from hands.core.context import ToolContext
from hands.core.decorator import tool
from hands.core.messages import ToolUseBlock
from hands.core.session import Session
from hands.orchestration import StreamingToolExecutor, ToolResultEvent, run_tools
from hands.orchestration.outbox import Outbox
from hands.pipeline.deadline import within
from hands.pipeline.execution import run_tool_use
from hands.pipeline.pool import ToolPool
from hands.pipeline.runtime import ToolRuntime
from hands.testing import ScriptedModel

GOAL_MARGINAL_US = 25.0
ARGS = '{"a": 2, "b": 3}'
BATCH = 10
LOOP_N = 50

Timed = Callable[[], Awaitable[Any]]
CLOCKS: dict[str, Callable[[], int]] = {"wall": time.perf_counter_ns, "cpu": time.process_time_ns}
clock_ns = time.perf_counter_ns
"""The clock every timing reads: wall time, or (``--clock cpu``) this process's CPU time,
which other processes on a busy machine do not inflate (everything timed runs in-process)."""


async def add(a: int, b: int) -> int:
    """Add two integers.

    Args:
        a: The first number.
        b: The second number.
    """
    return a + b


def no_progress(data: Any) -> None:
    del data


# -- the paths -------------------------------------------------------------------------


class Candidate:
    """One way to run the call: serial and batch-of-10 callables, or why it is missing."""

    def __init__(
        self,
        name: str,
        serial: Timed | None = None,
        batch: Timed | None = None,
        *,
        missing: str = "",
    ) -> None:
        self.name = name
        self.serial = serial
        self.batch = batch
        self.missing = missing
        self.serial_us: list[float] = []
        self.batch_us: list[float] = []


def floor_path() -> Candidate:
    dispatch: dict[str, Callable[..., Awaitable[int]]] = {"add": add}

    async def serial() -> Any:
        return await dispatch["add"](**json.loads(ARGS))

    async def batch() -> Any:
        return await asyncio.gather(*(dispatch["add"](**json.loads(ARGS)) for _ in range(BATCH)))

    return Candidate("floor: json.loads + dict dispatch", serial, batch)


def validated_floor_path() -> Candidate:
    """The floor the goal is measured against: pydantic validates the JSON, then the call."""
    from pydantic import BaseModel

    class AddInput(BaseModel):
        a: int
        b: int

    def call() -> Awaitable[int]:
        parsed = AddInput.model_validate_json(ARGS)
        return add(parsed.a, parsed.b)

    async def serial() -> Any:
        return await call()

    async def batch() -> Any:
        return await asyncio.gather(*(call() for _ in range(BATCH)))

    return Candidate("floor: pydantic validate_json + call", serial, batch)


TYPICAL_SETTINGS: dict[str, Any] = {
    "permissions": {
        "allow": [
            "Bash(git status)",
            "Bash(git diff:*)",
            "Bash(git log:*)",
            "Bash(npm run test:*)",
            "Bash(pytest:*)",
            "Read(~/.config/tool/**)",
            "Edit(./src/**)",
            "WebFetch(domain:docs.python.org)",
            "add",
        ],
        "ask": ["Bash(git push:*)"],
        "deny": ["Read(./.env)", "Read(./secrets/**)", "Bash(rm -rf:*)", "Bash(curl:*)"],
    },
    "env": {"PYTHONDONTWRITEBYTECODE": "1"},
}


def engine_runtime(cwd: Path, tools: list[Any]) -> ToolRuntime:
    """The headline runtime: a settings file loaded into the real permission engine, and
    the hook engine with no hook configured."""
    from hands.hooks.config import HookConfig
    from hands.hooks.engine import HookEngine
    from hands.permissions.policy import build_policy

    settings_dir = cwd / ".claude"
    settings_dir.mkdir(exist_ok=True)
    (settings_dir / "settings.json").write_text(json.dumps(TYPICAL_SETTINGS))
    policy = build_policy(cwd, trusted=True)
    if not policy.rules:
        raise RuntimeError("the benchmark's settings file gave no permission rules")
    return ToolRuntime(tools=ToolPool(tools), policy=policy, hooks=HookEngine(HookConfig()))


def hands_paths(
    cwd: Path, runtime: ToolRuntime, label: str
) -> tuple[Candidate, Candidate, ToolContext]:
    ctx = ToolContext(cwd=cwd, session=Session(), project_dir=cwd)
    ids = [f"toolu_{i:02d}" for i in range(BATCH)]

    async def serial() -> Any:
        block = ToolUseBlock(id="toolu_00", name="add", input=json.loads(ARGS))
        outcome = await run_tool_use(block, ctx, runtime, no_progress)
        return outcome.block

    async def executor_batch() -> Any:
        out: list[Any] = []
        async with anyio.create_task_group() as tg:
            executor = StreamingToolExecutor(runtime=runtime, context=ctx, task_group=tg)
            for tool_id in ids:
                executor.add(ToolUseBlock(id=tool_id, name="add", input=json.loads(ARGS)))
            executor.close()
            async for event in executor.events():
                if isinstance(event, ToolResultEvent):
                    out.append(event.outcome.block)
        return out

    async def run_tools_batch() -> Any:
        blocks = [ToolUseBlock(id=i, name="add", input=json.loads(ARGS)) for i in ids]
        return [
            e.outcome.block
            async for e in run_tools(blocks, runtime=runtime, context=ctx)
            if isinstance(e, ToolResultEvent)
        ]

    main = Candidate(f"hands{label}: run_tool_use / StreamingToolExecutor", serial, executor_batch)
    via_run_tools = Candidate(f"hands{label}: run_tools (batch only)", None, run_tools_batch)
    return main, via_run_tools, ctx


def agents_path() -> Candidate:
    name = "openai-agents: FunctionTool.on_invoke_tool"
    try:
        from agents import function_tool
        from agents.tool_context import ToolContext as AgentsToolContext
    except Exception as exc:  # not installed, or an incompatible version
        return Candidate(name, missing=f"{type(exc).__name__}: {exc}")
    try:
        fn_tool = function_tool(add)

        def invoke(call_id: str) -> Awaitable[Any]:
            tool_ctx = AgentsToolContext(
                context=None, tool_name="add", tool_call_id=call_id, tool_arguments=ARGS
            )
            return fn_tool.on_invoke_tool(tool_ctx, ARGS)

        async def serial() -> Any:
            return await invoke("call_00")

        async def batch() -> Any:
            return await asyncio.gather(*(invoke(f"call_{i:02d}") for i in range(BATCH)))

    except Exception as exc:
        return Candidate(name, missing=f"{type(exc).__name__}: {exc}")
    return Candidate(name, serial, batch)


async def pydantic_ai_paths() -> list[Candidate]:
    names = (
        "pydantic-ai: ToolManager.handle_call",
        "pydantic-ai: validate_json + call_tool",
    )
    try:
        from pydantic_ai import RunContext
        from pydantic_ai.messages import ToolCallPart
        from pydantic_ai.models.test import TestModel
        from pydantic_ai.tool_manager import ToolManager
        from pydantic_ai.toolsets import FunctionToolset
        from pydantic_ai.usage import RunUsage
    except Exception as exc:
        return [Candidate(n, missing=f"{type(exc).__name__}: {exc}") for n in names]
    try:
        toolset = FunctionToolset([add])
        run_ctx = RunContext(deps=None, model=TestModel(), usage=RunUsage())
        manager = await ToolManager(toolset=toolset).for_run_step(run_ctx)
        fn_tool = (await toolset.get_tools(run_ctx))["add"]
        validator: Any = fn_tool.args_validator

        def handle(call_id: str) -> Awaitable[Any]:
            part = ToolCallPart(tool_name="add", args=ARGS, tool_call_id=call_id)
            return manager.handle_call(part)

        async def minimal() -> Any:
            return await toolset.call_tool("add", validator.validate_json(ARGS), run_ctx, fn_tool)

        async def serial() -> Any:
            return await handle("call_00")

        async def batch() -> Any:
            return await asyncio.gather(*(handle(f"call_{i:02d}") for i in range(BATCH)))

        async def minimal_batch() -> Any:
            return await asyncio.gather(*(minimal() for _ in range(BATCH)))

        if await serial() != 5 or await minimal() != 5:
            raise RuntimeError("unexpected result from pydantic-ai")
    except Exception as exc:
        return [Candidate(n, missing=f"{type(exc).__name__}: {exc}") for n in names]
    return [Candidate(names[0], serial, batch), Candidate(names[1], minimal, minimal_batch)]


# -- timing ----------------------------------------------------------------------------


async def per_call_us(fn: Timed, rounds: int, calls_per_round: int) -> float:
    start = clock_ns()
    for _ in range(rounds):
        await fn()
    return (clock_ns() - start) / 1000 / (rounds * calls_per_round)


async def measure(paths: list[Candidate], reps: int, serial_n: int, batch_n: int) -> None:
    live = [p for p in paths if not p.missing]
    for p in live:
        result = await (p.serial or p.batch or no_op)()
        first = result[0] if isinstance(result, list) else result
        value = getattr(first, "content", first)
        if str(value) != "5":
            raise RuntimeError(f"{p.name}: add(2, 3) gave {value!r}")
    for p in live:  # warm-up: imports, validators, caches
        if p.serial is not None:
            await per_call_us(p.serial, 200, 1)
        if p.batch is not None:
            await per_call_us(p.batch, 20, BATCH)
    for _ in range(reps):  # interleaved, so background load hits every path alike
        for p in live:
            gc.collect()
            if p.serial is not None:
                p.serial_us.append(await per_call_us(p.serial, serial_n, 1))
            if p.batch is not None:
                p.batch_us.append(await per_call_us(p.batch, batch_n, BATCH))


def loop_script(n: int) -> dict[str, Any]:
    calls = [{"type": "tool_use", "name": "add", "input": {"a": i, "b": 1}} for i in range(n)]
    return {"turns": [{"blocks": calls}, {"blocks": [{"type": "text", "text": "done"}]}]}


async def loop_once(n: int, cwd: Path, tools: list[Any]) -> float:
    options = QueryOptions(model=ScriptedModel(loop_script(n)), tools=tools, cwd=cwd)
    results = 0
    start = clock_ns()
    async for event in query("add these", options):
        if isinstance(event, ToolResultEvent):
            if event.outcome.is_error:
                raise RuntimeError(f"add failed in the loop: {event.outcome.block.content}")
            results += 1
    elapsed = (clock_ns() - start) / 1000
    if results != n:
        raise RuntimeError(f"{results} results for {n} calls")
    return elapsed


async def stream_only_us(n: int) -> float:
    """The scripted model streaming turn 1 alone (part of the loop cost, not hands')."""
    from hands.models.base import ModelRequest

    model = ScriptedModel(loop_script(n))
    start = clock_ns()
    async for _ in model.stream(ModelRequest(messages=())):
        pass
    return (clock_ns() - start) / 1000


async def measure_loop(cwd: Path, reps: int) -> tuple[float, float, float, float]:
    tools = [tool(read_only=True)(add)]
    for _ in range(3):
        await loop_once(1, cwd, tools)
        await loop_once(LOOP_N, cwd, tools)
    one: list[float] = []
    many: list[float] = []
    s_one: list[float] = []
    s_many: list[float] = []
    for _ in range(reps):
        gc.collect()
        one.append(await loop_once(1, cwd, tools))
        many.append(await loop_once(LOOP_N, cwd, tools))
        s_one.append(await stream_only_us(1))
        s_many.append(await stream_only_us(LOOP_N))
    t1, tn = statistics.median(one), statistics.median(many)
    stream = (statistics.median(s_many) - statistics.median(s_one)) / (LOOP_N - 1)
    return t1, tn, (tn - t1) / (LOOP_N - 1), stream


# -- profiling -------------------------------------------------------------------------


def sync_us(fn: Callable[[], Any], n: int, per: int = 1) -> float:
    start = clock_ns()
    for _ in range(n):
        fn()
    return (clock_ns() - start) / 1000 / (n * per)


async def async_us(fn: Timed, n: int, per: int = 1) -> float:
    for _ in range(min(n, 200)):
        await fn()
    start = clock_ns()
    for _ in range(n):
        await fn()
    return (clock_ns() - start) / 1000 / (n * per)


async def pipeline_stages(
    runtime: ToolRuntime, ctx: ToolContext, n: int
) -> list[tuple[float, str]]:
    """Each step of run_tool_use timed alone (µs per op, no profiler attached)."""
    from hands.core.messages import ToolResultBlock
    from hands.core.spill import content_chars

    found = runtime.tools.find("add")
    assert found is not None
    hands_tool = found
    data = json.loads(ARGS)
    parsed = hands_tool.parse_input(data)
    call_ctx = ctx.for_call("toolu_00", policy=runtime.policy)

    def timeout_scope() -> Awaitable[None]:
        return within(runtime.limits.tool_timeout_s, nothing(), started=time.perf_counter())

    async def nothing() -> None:
        return None

    hooks: Any = runtime.hooks

    def hooks_asked() -> None:
        # what the pipeline asks the hooks before each tool event; with no hook configured
        # for an event, the event is not called at all
        if hooks is not None:
            hooks.handles("PreToolUse")
            hooks.handles("PostToolUse")

    def result_block() -> Any:
        content_chars("5")
        content_chars("5")
        return ToolResultBlock(tool_use_id="toolu_00", content="5")

    def block() -> ToolUseBlock:
        return ToolUseBlock(id="toolu_00", name="add", input=json.loads(ARGS))

    stages = [
        (sync_us(lambda: json.loads(ARGS), n), "json.loads(args)"),
        (sync_us(lambda: ToolUseBlock(id="t", name="add", input=data), n), "ToolUseBlock(...)"),
        (sync_us(lambda: runtime.tools.find("add"), n), "ToolPool.find"),
        (
            sync_us(lambda: ctx.for_call("toolu_00", policy=runtime.policy), n),
            "ToolContext.for_call(tool_use_id, policy=...)  [the per-call context]",
        ),
        (sync_us(lambda: hands_tool.parse_input(data), n), "Tool.parse_input (pydantic)"),
        (
            await async_us(lambda: hands_tool.validate_input(parsed, call_ctx), n),
            "await _BuiltTool.validate_input",
        ),
        (
            await async_us(lambda: runtime.policy.decide(hands_tool, parsed, call_ctx), n),
            f"await {type(runtime.policy).__name__}.decide (incl. the tool's check_permissions)",
        ),
        (
            sync_us(hooks_asked, n),
            "hooks.handles(PreToolUse), (PostToolUse): none configured, neither event is called",
        ),
        (
            await async_us(timeout_scope, n),
            "within(tool_timeout_s, <no wait>): the per-call limit  [in _invoke]",
        ),
        (
            await async_us(lambda: hands_tool.call(parsed, call_ctx, no_progress), n),
            "await _BuiltTool.call -> add (the @tool function's own coroutine)",
        ),
        (
            sync_us(lambda: hands_tool.to_content(5), n),
            "_BuiltTool.to_content(5) -> default_content -> json.dumps(default=str)",
        ),
        (sync_us(result_block, n), "2x spill.content_chars + ToolResultBlock(...)"),
        (
            sync_us(lambda: (time.perf_counter(), time.perf_counter()), n),
            "time.perf_counter() x2 (duration_ms)",
        ),
        (await async_us(nothing, n), "one bare `await coroutine()` layer"),
    ]
    whole = await async_us(lambda: run_tool_use(block(), ctx, runtime, no_progress), n)
    total = sum(us for us, _ in stages[:-1])
    stages.append((whole - total, "rest: the run_tool_use body, _Call(...), ToolCallOutcome(...)"))
    stages.append((whole, "== run_tool_use from the JSON string, as in the table"))
    return stages


async def executor_primitives(runtime: ToolRuntime, n: int) -> list[tuple[float, str]]:
    """The anyio/asyncio operations the executor and the loop pay per call."""
    from hands.orchestration.partition import classify

    async def noop() -> None:
        return None

    async def task_group() -> None:
        async with anyio.create_task_group() as tg:
            tg.start_soon(noop)

    async def plain_tasks() -> None:
        for task in [asyncio.create_task(noop()) for _ in range(BATCH)]:
            await task

    def timer() -> None:
        asyncio.get_running_loop().call_later(60.0, no_progress, None).cancel()

    async def outbox_hop() -> None:
        box = Outbox[int]()
        for i in range(BATCH):
            box.send_nowait(i)
        box.close()
        async for _ in box.receive_all():
            pass

    block = ToolUseBlock(id="toolu_00", name="add", input=json.loads(ARGS))
    return [
        (
            await async_us(task_group, n // BATCH, BATCH),
            "anyio task group + its one start_soon (the executor's supervisor), per call of 10",
        ),
        (
            await async_us(plain_tasks, n // BATCH, BATCH),
            "asyncio.create_task, per task (one a call)",
        ),
        (
            sync_us(timer, n),
            "call_later + cancel: the per-call limit, armed only when a call waits",
        ),
        (
            await async_us(outbox_hop, n // BATCH, BATCH),
            "Outbox send_nowait + receive, per item (one per event hop)",
        ),
        (sync_us(lambda: classify(block, runtime.tools), n), "partition.classify (find + parse)"),
    ]


async def cprofile_top(fn: Timed, rounds: int, per: int, top: int) -> str:
    """cProfile's view, normalised per tool call (the profiler inflates small functions)."""
    profiler = cProfile.Profile()
    profiler.enable()
    for _ in range(rounds):
        await fn()
    profiler.disable()
    calls = rounds * per
    raw: dict[Any, Any] = pstats.Stats(profiler).stats  # type: ignore[attr-defined]
    rows: list[tuple[float, float, int, str]] = []
    for (filename, line, func), (_cc, ncalls, tottime, cumtime, _callers) in raw.items():
        short = filename.replace("\\", "/")
        for marker in ("/site-packages/", "/src/", "/lib/python3"):
            if marker in short:
                short = short.split(marker, 1)[1]
                short = short.split("/", 1)[1] if marker == "/lib/python3" else short
                break
        else:
            short = Path(short).name
        rows.append((tottime, cumtime, ncalls, f"{short}:{line}({func})"))
    rows.sort(reverse=True)
    out = io.StringIO()
    out.write(f"  {'self µs':>8} {'cum µs':>8} {'calls':>6}  function   (per tool call)\n")
    for tottime, cumtime, ncalls, where in rows[:top]:
        out.write(
            f"  {tottime / calls * 1e6:8.2f} {cumtime / calls * 1e6:8.2f} "
            f"{ncalls / calls:6.1f}  {where}\n"
        )
    return out.getvalue()


async def model_events_per_call() -> float:
    """Stream events ScriptedModel emits per tool_use block (the loop acts on one of them)."""
    from hands.models.base import ModelRequest

    model = ScriptedModel(loop_script(LOOP_N))
    events = [event async for event in model.stream(ModelRequest(messages=()))]
    return (len(events) - 2) / LOOP_N  # without MessageStart and MessageStop


async def profile(
    quick: bool,
    marginal: float,
    stream_cost: float,
    runtime: ToolRuntime,
    ctx: ToolContext,
    hands_main: Candidate,
    call_ok: bool,
    loop_ok: bool,
    cwd: Path,
) -> None:
    n = 2000 if quick else 20000
    if not call_ok:
        print("\nprofile: where one run_tool_use call spends its time")
        print(f"each step timed alone, no profiler attached (µs per op, {n} ops):")
        for us, label in await pipeline_stages(runtime, ctx, n):
            print(f"  {us:7.2f}  {label}")
        print(f"\ncProfile of run_tool_use over {n} calls:")
        print(await cprofile_top(hands_main.serial or no_op, n, 1, 16), end="")
    if not loop_ok:
        serial = statistics.median(hands_main.serial_us)
        batch = statistics.median(hands_main.batch_us)
        print("\nprofile: the executor and the loop")
        print(f"  executor overhead per call (batch/10 - serial): {batch - serial:6.1f} µs")
        rest = marginal - stream_cost - batch
        print(
            f"  marginal {marginal:.1f} µs ≈ ScriptedModel {stream_cost:.1f} + run_tool_use "
            f"{serial:.1f} + executor {batch - serial:.1f} + loop and event hops {rest:.1f}"
        )
        print(f"  ScriptedModel events per tool_use block: {await model_events_per_call():.0f}")
        print("  (the loop's pump passes on BlockComplete, TextDelta and MessageStop; the rest no)")
        print(f"primitives, each timed alone (µs per op, {n} ops):")
        for us, label in await executor_primitives(runtime, n):
            print(f"  {us:7.2f}  {label}")
        tools = [tool(read_only=True)(add)]
        rounds = 20 if quick else 100
        print(f"\ncProfile of query with {LOOP_N} add calls in one turn ({rounds} queries):")
        print(await cprofile_top(lambda: loop_once(LOOP_N, cwd, tools), rounds, LOOP_N, 24), end="")


async def no_op() -> None:
    return None


# -- report ----------------------------------------------------------------------------


def fmt(values: list[float]) -> str:
    return f"{statistics.median(values):9.2f}" if values else f"{'-':>9}"


def ratio(values: list[float], base: list[float]) -> str:
    if not values or not base:
        return f"{'-':>7}"
    return f"{statistics.median(values) / statistics.median(base):6.2f}x"


def goal_line(label: str, value: float, bound: float, what: str) -> bool:
    met = value <= bound
    print(f"  {label:<44} {value:8.2f}  goal ≤ {bound:g} {what}  {'MET' if met else 'MISSED'}")
    return met


def median_of(path: Candidate, batch: bool = False) -> float:
    values = path.batch_us if batch else path.serial_us
    return statistics.median(values) if values else float("nan")


async def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer repetitions")
    parser.add_argument("--profile", action="store_true", help="profile even when goals are met")
    parser.add_argument(
        "--clock",
        choices=sorted(CLOCKS),
        default="wall",
        help="wall time, or this process's CPU time (steadier on a busy machine)",
    )
    args = parser.parse_args()
    global clock_ns
    clock_ns = CLOCKS[args.clock]
    reps, serial_n, batch_n, loop_reps = (5, 500, 50, 7) if args.quick else (15, 1000, 100, 21)

    load_before = os.getloadavg()
    with tempfile.TemporaryDirectory(prefix="hands-bench-") as tmp:
        os.environ["HANDS_HOME"] = str(Path(tmp) / "home")
        cwd = Path(tmp) / "project"
        cwd.mkdir()

        hands_add = tool(read_only=True)(add)
        runtime = engine_runtime(cwd, [hands_add])
        simple_runtime = ToolRuntime(tools=ToolPool([hands_add]))
        hands_main, hands_run_tools, ctx = hands_paths(cwd, runtime, "")
        simple_main, simple_run_tools, _ = hands_paths(cwd, simple_runtime, " (SimplePolicy)")
        bare = floor_path()
        floor = validated_floor_path()
        agents = agents_path()
        peers = [agents, *(await pydantic_ai_paths())]
        paths = [bare, floor, hands_main, hands_run_tools, simple_main, simple_run_tools, *peers]
        for p in paths:
            if p.missing:
                print(f"skipped {p.name}: {p.missing}")
        await measure(paths, reps, serial_n, batch_n)
        t1, tn, marginal, stream_cost = await measure_loop(cwd, loop_reps)

        print(f"\nhands per-call overhead: trivial async add(a, b), args {ARGS}")
        print(
            "headline hands rows: the permission engine with a settings file of "
            f"{len(runtime.policy.rules)} rules (policy {type(runtime.policy).__name__}), "
            "the hook engine with no hook configured"
        )
        print(
            f"median of {reps} interleaved reps ({serial_n} serial calls / {batch_n} batches "
            f"of {BATCH} each); µs per call ({args.clock} clock); ratio = path / hands headline"
        )
        load_after = os.getloadavg()
        print(
            f"load average (1/5/15 min) before: {'/'.join(f'{x:.2f}' for x in load_before)}, "
            f"after: {'/'.join(f'{x:.2f}' for x in load_after)} on {os.cpu_count()} cores\n"
        )
        header = f"{'path':<56} {'serial':>9} {'vs hands':>8} {'batch/10':>9} {'vs hands':>8}"
        print(header)
        print("-" * len(header))
        for p in paths:
            if p.missing:
                print(f"{p.name:<56} {'not available':>36}")
                continue
            print(
                f"{p.name:<56} {fmt(p.serial_us)} {ratio(p.serial_us, hands_main.serial_us):>8} "
                f"{fmt(p.batch_us)} {ratio(p.batch_us, hands_main.batch_us):>8}"
            )
        print("\nratios of hands headline to each (≤ 1.00x: hands is at or below it)")
        for p in [bare, floor, *peers]:
            if p.missing:
                continue
            print(
                f"  hands / {p.name:<46} serial {ratio(hands_main.serial_us, p.serial_us)}"
                f"   executor batch {ratio(hands_main.batch_us, p.batch_us)}"
                f"   run_tools batch {ratio(hands_run_tools.batch_us, p.batch_us)}"
            )
        print()
        print(
            f"loop: query + ScriptedModel, one turn of 1 vs {LOOP_N} add calls "
            f"(median of {loop_reps})"
        )
        print(f"  1 call: {t1:9.1f} µs   {LOOP_N} calls: {tn:9.1f} µs")
        print(f"  marginal loop cost per extra call: {marginal:6.1f} µs")
        print(f"    of which ScriptedModel streaming the extra block: {stream_cost:6.1f} µs")

        hands_us = median_of(hands_main)
        print("\ngoals (µs per call)")
        call_ok = True
        if not agents.missing:
            call_ok &= goal_line(
                "hands serial vs openai-agents", hands_us, median_of(agents), "(openai-agents)"
            )
        call_ok &= goal_line(
            "hands serial vs 3x the validated floor", hands_us, 3 * median_of(floor), "(3x)"
        )
        batch_ok = True
        if not agents.missing:
            batch_ok &= goal_line(
                "hands StreamingToolExecutor batch vs openai-agents",
                median_of(hands_main, True),
                median_of(agents, True),
                "(openai-agents gather)",
            )
            batch_ok &= goal_line(
                "hands run_tools batch vs openai-agents",
                median_of(hands_run_tools, True),
                median_of(agents, True),
                "(openai-agents gather)",
            )
        loop_ok = goal_line("marginal loop cost per extra call", marginal, GOAL_MARGINAL_US, "")

        if args.profile or not call_ok or not batch_ok or not loop_ok:
            await profile(
                args.quick,
                marginal,
                stream_cost,
                runtime,
                ctx,
                hands_main,
                call_ok and not args.profile,
                loop_ok and batch_ok and not args.profile,
                cwd,
            )
    return 0


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
