"""Property: every tool_use gets exactly one tool_result, in request order, whatever happens."""

from __future__ import annotations

from pathlib import Path

import anyio
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from hands.core.context import ToolContext
from hands.core.limits import Limits
from hands.orchestration.events import ToolResultEvent
from hands.orchestration.streaming import StreamingToolExecutor
from hands.pipeline.runtime import ToolRuntime
from support import Timeline, make_pool, use

call = st.fixed_dictionaries(
    {
        "tool": st.sampled_from(["Safe", "Unsafe", "Shell", "SafeShell", "Missing"]),
        "seconds": st.sampled_from([0.0, 0.001, 0.003, 0.006]),
        "fail": st.booleans(),
        "hang": st.booleans(),
        "gap": st.sampled_from([0.0, 0.0, 0.002]),
        "bad_input": st.integers(min_value=0, max_value=9),
    }
)
scenario = st.fixed_dictionaries(
    {
        "calls": st.lists(call, min_size=0, max_size=8),
        "ending": st.sampled_from(["close", "close", "discard", "interrupt"]),
        "end_after": st.sampled_from([0.0, 0.002, 0.005]),
        "cascade": st.booleans(),
        "cap": st.sampled_from([1, 2, 10]),
    }
)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(scenario)
def test_every_tool_use_gets_exactly_one_result_in_order(case: dict) -> None:
    async def main() -> list[ToolResultEvent]:
        tl = Timeline()
        runtime = ToolRuntime(tools=make_pool(tl), limits=Limits(max_concurrency=case["cap"]))
        ctx = ToolContext(cwd=Path.cwd(), permission_mode="bypassPermissions")
        blocks = []
        for i, c in enumerate(case["calls"]):
            fields: dict = {"seconds": c["seconds"], "fail": c["fail"], "hang": c["hang"]}
            if c["bad_input"] == 0:
                fields["seconds"] = "not a number"
            blocks.append(use(c["tool"], f"c{i}", id=f"toolu_{i}", **fields))
        got: list[ToolResultEvent] = []
        with anyio.fail_after(10):
            async with anyio.create_task_group() as tg:
                ex = StreamingToolExecutor(
                    runtime=runtime, context=ctx, task_group=tg, cascade_errors=case["cascade"]
                )

                async def feed() -> None:
                    for block, c in zip(blocks, case["calls"], strict=True):
                        if c["gap"]:
                            await anyio.sleep(c["gap"])
                        ex.add(block)
                    await anyio.sleep(case["end_after"])
                    if case["ending"] == "discard":
                        ex.discard()
                    elif case["ending"] == "interrupt":
                        ex.interrupt()
                    elif any(c["hang"] for c in case["calls"]):
                        # something hangs: only an interrupt can end it, as in real life
                        ex.interrupt()
                    ex.close()

                tg.start_soon(feed)
                async for event in ex.events():
                    if isinstance(event, ToolResultEvent):
                        got.append(event)
        return got

    got = anyio.run(main)
    ids = [r.tool_use.id for r in got]
    assert ids == [f"toolu_{i}" for i in range(len(case["calls"]))]
    for r in got:
        assert r.outcome.block.tool_use_id == r.tool_use.id
        if r.outcome.is_error:
            assert r.outcome.block.text.strip()
