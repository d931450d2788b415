"""Sub-agents: the cost of a spawn, and parallel Explore agents against sequential ones.

* Round trip. The same work, one ``probe`` call (a trivial read-only tool), done inline
  (the main agent calls it: 2 scripted model turns) and through an Agent call whose
  sub-agent calls it (the main agent's 2 turns + the sub-agent's 2). Both through
  ``query`` with scripted models; the difference of the medians is the spawn overhead:
  choosing the type, filtering the pool, building the options, SubagentStart (no hooks
  here), the sub-agent's own loop and its two scripted turns, the sidechain transcript,
  the progress events and the result. Goal: < 5 ms.
* Parallel. 10 Explore agents, each waiting 200 ms in a tool, started by one turn of 10
  Agent calls (they run side by side) against 10 turns of one Agent call each. Goal: the
  parallel run ≥ 5× faster.

    .venv/bin/python benchmarks/subagents.py [--quick]
"""

from __future__ import annotations

import argparse
import os
import statistics
import tempfile
import time
from typing import Any

import anyio

from hands import tool
from hands.agent.loop import QueryOptions, query
from hands.agent.subagents.tool import AgentTool
from hands.pipeline.pool import ToolPool
from hands.testing import ScriptedAgents, ScriptedModel


@tool(read_only=True)
async def probe(seconds: float = 0.0) -> str:
    """Wait, then answer."""
    if seconds:
        await anyio.sleep(seconds)
    return "ok"


POOL = ToolPool([probe, AgentTool()])


def _probe(seconds: float = 0.0) -> dict[str, Any]:
    return {"type": "tool_use", "name": "probe", "input": {"seconds": seconds}}


def _agent(prompt: str, n: int) -> dict[str, Any]:
    return {
        "type": "tool_use",
        "id": f"toolu_agent_{n}",
        "name": "Agent",
        "input": {"description": "search", "prompt": prompt, "subagent_type": "Explore"},
    }


def _text(value: str) -> dict[str, Any]:
    return {"type": "text", "text": value}


CPU: list[float] = []


async def _run(model: Any) -> float:
    started, cpu = time.perf_counter(), time.process_time()
    async for _ in query("go", QueryOptions(model=model, tools=POOL, stream_retries=0)):
        pass
    CPU.append(time.process_time() - cpu)
    return time.perf_counter() - started


def inline() -> ScriptedModel:
    return ScriptedModel.from_turns([_probe()], [_text("done")])


def delegated() -> ScriptedAgents:
    return ScriptedAgents(
        ScriptedModel.from_turns([_agent("find it", 0)], [_text("done")]),
        {"find it": ScriptedModel.from_turns([_probe()], [_text("found")])},
    )


def parallel(n: int, wait: float) -> ScriptedAgents:
    prompts = [f"search part {i}" for i in range(n)]
    return ScriptedAgents(
        ScriptedModel.from_turns([_agent(p, i) for i, p in enumerate(prompts)], [_text("done")]),
        {p: ScriptedModel.from_turns([_probe(wait)], [_text("found")]) for p in prompts},
    )


def sequential(n: int, wait: float) -> ScriptedAgents:
    prompts = [f"search part {i}" for i in range(n)]
    return ScriptedAgents(
        ScriptedModel.from_turns(
            *[[_agent(p, i)] for i, p in enumerate(prompts)], [_text("done")]
        ),
        {p: ScriptedModel.from_turns([_probe(wait)], [_text("found")]) for p in prompts},
    )


async def main(quick: bool) -> None:
    reps = 15 if quick else 60
    for _ in range(5):  # warm up imports and caches
        await _run(inline())
        await _run(delegated())
    a: list[float] = []
    b: list[float] = []
    ca: list[float] = []
    cb: list[float] = []
    for _ in range(reps):  # interleaved, so load on the machine hits both alike
        a.append(await _run(inline()))
        ca.append(CPU[-1])
        b.append(await _run(delegated()))
        cb.append(CPU[-1])
    ma, mb = statistics.median(a) * 1000, statistics.median(b) * 1000
    la, lb = min(a) * 1000, min(b) * 1000
    print(f"one probe call, inline vs through a sub-agent ({reps} interleaved runs)")
    pa, pb = statistics.median(ca) * 1000, statistics.median(cb) * 1000
    print("                      wall median   wall best  CPU median")
    print(f"  inline              {ma:8.2f} ms {la:8.2f} ms {pa:8.2f} ms")
    print(f"  through an Explore  {mb:8.2f} ms {lb:8.2f} ms {pb:8.2f} ms")
    verdict = "met" if mb - ma < 5 else "NOT met"
    print(
        f"  spawn overhead      {mb - ma:8.2f} ms {lb - la:8.2f} ms {pb - pa:8.2f} ms"
        f"   goal < 5 ms (wall median): {verdict}"
    )
    print(f"  (load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs)")

    n, wait = 10, 0.2
    runs = 2 if quick else 5
    par = [await _run(parallel(n, wait)) for _ in range(runs)]
    seq = [await _run(sequential(n, wait)) for _ in range(runs)]
    mp, ms = statistics.median(par), statistics.median(seq)
    print(f"\n{n} Explore agents, each waiting {wait * 1000:.0f} ms in a tool (median of {runs})")
    print(f"  sequential (10 turns)   {ms * 1000:8.1f} ms")
    print(f"  parallel (one turn)     {mp * 1000:8.1f} ms")
    verdict = "met" if ms / mp >= 5 else "NOT met"
    print(f"  speed-up                {ms / mp:8.2f}x  goal >= 5x: {verdict}")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--quick", action="store_true")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as home:
        os.environ["HANDS_HOME"] = home  # sidechain transcripts go to a scratch home
        anyio.run(main, args.quick)
