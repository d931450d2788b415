"""Streaming tool execution vs. batch mode vs. the ideal critical path.

Each scenario is one assistant turn streamed by ``ScriptedModel`` (a delay before each
block, a delay before the message ends) whose tool_use blocks call sleeping tools: a
concurrency-safe one (``@tool(read_only=True)``) and an unsafe one (plain ``@tool``).
The same scenario runs through ``query`` twice: streaming (tools start as their blocks
complete) and batch mode (``streaming=False``: tools run after the whole message
arrived, batch by batch).

Measured time: from the start of ``query`` until turn 1 is complete, taken from the
events: the turn's assistant ``MessageEvent`` arrives once its last tool result is in
and its stream has ended (the last ``ToolResultEvent`` of turn 1 is reported too).

Ideal critical path, from the script alone: ``max(T_end, max finish)``, where a safe
tool starts when its block completes (and after every earlier unsafe tool finished) and
an unsafe tool starts when its block completed and every earlier tool finished.

Goal per scenario: measured ≤ 1.02 × ideal + 5 ms. The script exits 1 if one misses.

    .venv/bin/python benchmarks/streaming.py [--runs N] [--scale F]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import anyio

from hands.agent.events import MessageEvent
from hands.agent.loop import QueryOptions, query
from hands.core.decorator import tool
from hands.core.tool import Tool
from hands.orchestration import ToolResultEvent
from hands.testing import ScriptedModel

SLACK_FACTOR = 1.02
SLACK_S = 0.005


@tool(read_only=True)
async def wait_safe(seconds: float) -> str:
    """Sleep, then report; concurrency-safe (read-only)."""
    await anyio.sleep(seconds)
    return f"slept {seconds:g} s"


@tool
async def wait_unsafe(seconds: float) -> str:
    """Sleep, then report; not concurrency-safe."""
    await anyio.sleep(seconds)
    return f"slept {seconds:g} s"


TOOLS: list[Tool[Any, Any]] = [wait_safe, wait_unsafe]


@dataclass(frozen=True)
class Call:
    """One tool_use block: completes ``at`` s after the stream starts, runs ``duration`` s."""

    at: float
    duration: float
    safe: bool


@dataclass(frozen=True)
class Scenario:
    name: str
    calls: tuple[Call, ...]
    end: float
    """T_end: when the message stops streaming (s after the start)."""

    def scaled(self, factor: float) -> Scenario:
        return Scenario(
            self.name,
            tuple(Call(c.at * factor, c.duration * factor, c.safe) for c in self.calls),
            self.end * factor,
        )

    def shape(self) -> str:
        calls = " ".join(f"{'S' if c.safe else 'U'}{c.duration:g}@{c.at:g}" for c in self.calls)
        return f"{calls}  end@{self.end:g}"

    def script(self) -> dict[str, Any]:
        """Turn 1 streams the calls; turn 2 ends the conversation."""
        blocks: list[dict[str, Any]] = []
        previous = 0.0
        for call in self.calls:
            blocks.append(
                {
                    "type": "tool_use",
                    "name": "wait_safe" if call.safe else "wait_unsafe",
                    "input": {"seconds": call.duration},
                    "delay_ms": (call.at - previous) * 1000,
                }
            )
            previous = call.at
        return {
            "turns": [
                {"blocks": blocks, "end_delay_ms": (self.end - previous) * 1000},
                {"blocks": [{"type": "text", "text": "done"}]},
            ]
        }

    def ideal(self) -> float:
        """max(T_end, max finish) with the executor's start rules."""
        finishes: list[float] = []
        unsafe_done = 0.0
        for call in self.calls:
            if call.safe:
                start = max(call.at, unsafe_done)
            else:
                start = max([call.at, *finishes])
            finish = start + call.duration
            finishes.append(finish)
            if not call.safe:
                unsafe_done = max(unsafe_done, finish)
        return max([self.end, *finishes])

    def batch_ideal(self) -> float:
        """T_end plus, for each greedy batch, its longest call (for reference)."""
        total, group = self.end, 0.0
        for call in self.calls:
            if call.safe:
                group = max(group, call.duration)
                continue
            total += group + call.duration
            group = 0.0
        return total + group


# Durations in seconds at --scale 1. "long tool first" is the reference shape: the stream
# lasts 2 s, its first block completes at 0.3 s and carries a 5 s tool.
SCENARIOS = (
    Scenario(
        "all safe",
        (Call(0.1, 0.3, True), Call(0.2, 0.3, True), Call(0.3, 0.3, True), Call(0.4, 0.3, True)),
        0.5,
    ),
    Scenario(
        "all unsafe",
        (Call(0.1, 0.2, False), Call(0.2, 0.2, False), Call(0.3, 0.2, False)),
        0.4,
    ),
    Scenario(
        "mixed",
        (
            Call(0.075, 0.25, True),
            Call(0.15, 0.15, True),
            Call(0.225, 0.15, False),
            Call(0.3, 0.15, True),
            Call(0.375, 0.1, True),
        ),
        0.45,
    ),
    Scenario(
        "long tool first",
        (
            Call(0.3, 5.0, True),
            Call(0.8, 0.8, True),
            Call(1.3, 0.8, True),
            Call(1.8, 0.8, True),
        ),
        2.0,
    ),
)


async def run_once(scenario: Scenario, *, streaming: bool, cwd: Path) -> tuple[float, float]:
    """(turn 1 complete, last tool result of turn 1), seconds after the query started."""
    options = QueryOptions(
        model=ScriptedModel(scenario.script()),
        tools=TOOLS,
        cwd=cwd,
        permission_mode="bypassPermissions",
        streaming=streaming,
    )
    expected = len(scenario.calls)
    results = 0
    last_result = turn_done = 0.0
    started = time.perf_counter()
    async for event in query("go", options):
        now = time.perf_counter() - started
        if turn_done:
            continue
        if isinstance(event, ToolResultEvent):
            if event.outcome.is_error:
                raise RuntimeError(f"{scenario.name}: tool failed: {event.outcome.block.content}")
            results += 1
            last_result = now
        elif isinstance(event, MessageEvent):
            turn_done = now
    if results != expected:
        raise RuntimeError(f"{scenario.name}: {results} results for {expected} calls")
    return turn_done, last_result


def ms(seconds: float) -> str:
    return f"{seconds * 1000:8.1f}"


async def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3, help="runs per mode (median taken)")
    parser.add_argument("--scale", type=float, default=1.0, help="multiply every duration")
    args = parser.parse_args()
    runs = max(3, args.runs)
    scenarios = [s.scaled(args.scale) for s in SCENARIOS]

    with tempfile.TemporaryDirectory(prefix="hands-bench-") as tmp:
        os.environ["HANDS_HOME"] = str(Path(tmp) / "home")
        cwd = Path(tmp) / "project"
        cwd.mkdir()
        # Warm-up: imports, pydantic validators, the first event loop timers.
        warm = Scenario("warm-up", (Call(0.01, 0.01, True), Call(0.02, 0.01, False)), 0.03)
        await run_once(warm, streaming=True, cwd=cwd)
        await run_once(warm, streaming=False, cwd=cwd)

        print(f"hands streaming benchmark: median of {runs} runs per mode; times in ms")
        print(f"load average at start: {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores")
        print("shape: S/U = safe/unsafe, duration@block-complete-time (s), end = T_end\n")
        for s in scenarios:
            print(f"  {s.name:<16} {s.shape()}")
        print()
        header = (
            f"{'scenario':<16} {'stream':>8} {'last res':>8} {'batch':>8} {'ideal':>8} "
            f"{'b-ideal':>8} {'excess':>7} {'ratio':>6} {'limit':>8} {'speedup':>7}  verdict"
        )
        print(header)
        print("-" * len(header))
        failed = 0
        for s in scenarios:
            streamed: list[tuple[float, float]] = []
            batched: list[tuple[float, float]] = []
            for _ in range(runs):  # interleaved, so background load hits both alike
                streamed.append(await run_once(s, streaming=True, cwd=cwd))
                batched.append(await run_once(s, streaming=False, cwd=cwd))
            measured = statistics.median(t for t, _ in streamed)
            last = statistics.median(r for _, r in streamed)
            batch = statistics.median(t for t, _ in batched)
            ideal = s.ideal()
            limit = SLACK_FACTOR * ideal + SLACK_S
            ok = measured <= limit
            failed += not ok
            print(
                f"{s.name:<16} {ms(measured)} {ms(last)} {ms(batch)} {ms(ideal)} "
                f"{ms(s.batch_ideal())} {(measured - ideal) * 1000:7.1f} {measured / ideal:6.3f} "
                f"{ms(limit)} "
                f"{batch / measured:6.2f}x  {'PASS' if ok else 'FAIL'}"
            )
        print()
        print("stream   = turn 1 complete with streaming (median); last res = its last result")
        print("batch    = the same with streaming=False; b-ideal = T_end + each batch's longest")
        print("ideal    = max(T_end, max finish); excess = stream - ideal")
        print(
            f"limit    = {SLACK_FACTOR:g} x ideal + {SLACK_S * 1000:g} ms; ratio = stream / ideal"
        )
        print("speedup  = batch / stream")
        print(f"\n{len(scenarios) - failed}/{len(scenarios)} scenarios within the limit")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
