from __future__ import annotations

from pathlib import Path

import anyio
import pytest

from hands.core.context import ToolContext
from hands.core.limits import Limits
from hands.orchestration.events import ToolProgressEvent, ToolResultEvent
from hands.orchestration.streaming import StreamingToolExecutor, ToolState
from hands.pipeline.runtime import ToolRuntime
from support import Timeline, make_pool, run_all, use

pytestmark = pytest.mark.anyio


def setup(tmp_path: Path, **limits: object) -> tuple[Timeline, ToolRuntime, ToolContext]:
    tl = Timeline()
    runtime = ToolRuntime(tools=make_pool(tl), limits=Limits(**limits))  # type: ignore[arg-type]
    ctx = ToolContext(cwd=tmp_path, permission_mode="bypassPermissions")
    return tl, runtime, ctx


def results(events: list) -> list[ToolResultEvent]:
    return [e for e in events if isinstance(e, ToolResultEvent)]


async def test_results_in_request_order_when_later_tools_finish_first(tmp_path: Path) -> None:
    tl, runtime, ctx = setup(tmp_path)
    blocks = [
        use("Safe", "slow", wait_for="end fast"),
        use("Safe", "fast"),
    ]
    events, _ = await run_all(blocks, runtime, ctx)
    assert tl.entries.index("end fast") < tl.entries.index("end slow")
    assert [r.tool_use.id for r in results(events)] == ["toolu_slow", "toolu_fast"]


async def test_progress_comes_out_before_earlier_results(tmp_path: Path) -> None:
    _tl, runtime, ctx = setup(tmp_path)
    blocks = [use("Safe", "first", wait_for="end second"), use("Safe", "second", progress=2)]
    events, _ = await run_all(blocks, runtime, ctx)
    kinds = [(type(e).__name__, e.tool_use.id) for e in events]
    first_result = kinds.index(("ToolResultEvent", "toolu_first"))
    progress = [i for i, k in enumerate(kinds) if k == ("ToolProgressEvent", "toolu_second")]
    assert len(progress) == 2
    assert all(i < first_result for i in progress)
    assert [e.data for e in events if isinstance(e, ToolProgressEvent)] == [
        "second step 0",
        "second step 1",
    ]


async def test_safe_tools_overlap_and_unsafe_waits_for_them(tmp_path: Path) -> None:
    tl, runtime, ctx = setup(tmp_path)
    blocks = [
        use("Safe", "a", wait_for="start b"),
        use("Safe", "b", wait_for="start a"),
        use("Unsafe", "x"),
        use("Safe", "c"),
    ]
    await run_all(blocks, runtime, ctx)
    e = tl.entries
    # a and b ran at the same time (each waited for the other to start)
    assert e.index("start b") < e.index("end a") and e.index("start a") < e.index("end b")
    # x started only after both ended; c only after x ended
    assert e.index("start x") > max(e.index("end a"), e.index("end b"))
    assert e.index("start c") > e.index("end x")


async def test_queued_unsafe_blocks_later_safe_tools(tmp_path: Path) -> None:
    tl, runtime, ctx = setup(tmp_path)
    async with anyio.create_task_group() as tg:
        ex = StreamingToolExecutor(runtime=runtime, context=ctx, task_group=tg)
        ex.add(use("Safe", "a", wait_for="go"))
        ex.add(use("Unsafe", "x"))
        ex.add(use("Safe", "later"))
        await tl.event("start a").wait()
        await anyio.sleep(0.01)
        # x waits for a; the later safe call must not overtake x
        assert ex.state_of("toolu_a") is ToolState.EXECUTING
        assert ex.state_of("toolu_x") is ToolState.QUEUED
        assert ex.state_of("toolu_later") is ToolState.QUEUED
        tl.event("go").set()
        ex.close()
        async for _ in ex.events():
            pass
    assert tl.entries.index("start later") > tl.entries.index("end x")


async def test_state_transitions_queued_executing_completed_yielded(tmp_path: Path) -> None:
    tl, runtime, ctx = setup(tmp_path)
    seen: list[ToolState] = []
    async with anyio.create_task_group() as tg:
        ex = StreamingToolExecutor(runtime=runtime, context=ctx, task_group=tg)
        ex.add(use("Unsafe", "first", wait_for="release first"))
        ex.add(use("Unsafe", "second", wait_for="release second"))
        seen.append(ex.state_of("toolu_second"))  # queued behind the first
        await tl.event("start first").wait()
        tl.event("release first").set()
        await tl.event("start second").wait()
        seen.append(ex.state_of("toolu_second"))
        tl.event("release second").set()
        while ex.state_of("toolu_second") is ToolState.EXECUTING:
            await anyio.sleep(0.001)
        seen.append(ex.state_of("toolu_second"))
        ex.close()
        events = [e async for e in ex.events()]
        seen.append(ex.state_of("toolu_second"))
    # nothing earlier is pending, so a completed call is emitted (yielded) at once
    assert seen == [ToolState.QUEUED, ToolState.EXECUTING, ToolState.YIELDED, ToolState.YIELDED]
    assert len(results(events)) == 2


async def test_completed_result_waits_for_earlier_one(tmp_path: Path) -> None:
    tl, runtime, ctx = setup(tmp_path)
    async with anyio.create_task_group() as tg:
        ex = StreamingToolExecutor(runtime=runtime, context=ctx, task_group=tg)
        ex.add(use("Safe", "slow", wait_for="release"))
        ex.add(use("Safe", "quick"))
        await tl.event("start quick").wait()
        while "end quick" not in tl.entries:
            await anyio.sleep(0.001)
        await anyio.sleep(0.01)
        assert ex.state_of("toolu_quick") is ToolState.COMPLETED
        assert ex.state_of("toolu_slow") is ToolState.EXECUTING
        tl.event("release").set()
        ex.close()
        async for _ in ex.events():
            pass
        assert ex.state_of("toolu_quick") is ToolState.YIELDED


async def test_failing_shell_cancels_running_siblings(tmp_path: Path) -> None:
    tl, runtime, ctx = setup(tmp_path)
    blocks = [
        use("Safe", "reader", hang=True),
        use("SafeShell", "bad", fail=True, wait_for="start reader"),
        use("Safe", "other", hang=True),
    ]
    events, _ = await run_all(blocks, runtime, ctx)
    res = {r.tool_use.id: r.outcome for r in results(events)}
    assert res["toolu_bad"].block.text == "bad failed"
    for label in ("reader", "other"):
        outcome = res[f"toolu_{label}"]
        assert outcome.is_error and outcome.status == "cancelled"
        assert 'Cancelled: parallel tool call SafeShell(label: "bad"' in outcome.block.text
    assert sorted(tl.cancelled) == ["other", "reader"]


async def test_cascade_switched_off_keeps_errors_local(tmp_path: Path) -> None:
    tl, runtime, ctx = setup(tmp_path)
    blocks = [
        use("Safe", "reader", wait_for="end bad"),
        use("SafeShell", "bad", fail=True),
    ]
    events, _ = await run_all(blocks, runtime, ctx, cascade=False)
    res = {r.tool_use.id: r.outcome for r in results(events)}
    assert not res["toolu_reader"].is_error
    assert res["toolu_bad"].is_error
    assert tl.cancelled == []


async def test_other_tools_errors_stay_local(tmp_path: Path) -> None:
    tl, runtime, ctx = setup(tmp_path)
    blocks = [use("Safe", "a", wait_for="end b"), use("Safe", "b", fail=True)]
    events, _ = await run_all(blocks, runtime, ctx)
    res = [r.outcome for r in results(events)]
    assert not res[0].is_error and res[1].is_error
    assert tl.cancelled == []


async def test_shell_error_cancels_queued_and_later_calls(tmp_path: Path) -> None:
    tl, runtime, ctx = setup(tmp_path)
    async with anyio.create_task_group() as tg:
        ex = StreamingToolExecutor(runtime=runtime, context=ctx, task_group=tg)
        ex.add(use("Shell", "bad", fail=True))
        ex.add(use("Unsafe", "queued"))
        await tl.event("start bad").wait()
        while "end bad" not in tl.entries:
            await anyio.sleep(0.001)
        await anyio.sleep(0.01)
        ex.add(use("Safe", "after"))
        ex.close()
        events = [e async for e in ex.events()]
    res = [r.outcome for r in results(events)]
    assert [o.status for o in res] == ["error", "cancelled", "cancelled"]
    assert "start queued" not in tl.entries and "start after" not in tl.entries


async def test_discard_abandons_everything_pending(tmp_path: Path) -> None:
    tl, runtime, ctx = setup(tmp_path)
    async with anyio.create_task_group() as tg:
        ex = StreamingToolExecutor(runtime=runtime, context=ctx, task_group=tg)
        ex.add(use("Safe", "done"))
        ex.add(use("Safe", "running", hang=True))
        ex.add(use("Unsafe", "queued"))
        await tl.event("start running").wait()
        ex.discard()
        ex.add(use("Safe", "late"))
        ex.close()
        events = [e async for e in ex.events()]
    res = {r.tool_use.id: r.outcome for r in results(events)}
    assert len(res) == 4
    assert not res["toolu_done"].is_error
    for key in ("toolu_running", "toolu_queued", "toolu_late"):
        assert res[key].is_error and res[key].block.text.startswith("Discarded")
    assert tl.cancelled == ["running"]
    assert "start queued" not in tl.entries


async def test_interrupt_cancels_all_and_settles_every_call(tmp_path: Path) -> None:
    tl, runtime, ctx = setup(tmp_path)
    async with anyio.create_task_group() as tg:
        ex = StreamingToolExecutor(runtime=runtime, context=ctx, task_group=tg)
        ex.add(use("Safe", "r1", hang=True))
        ex.add(use("Safe", "r2", hang=True))
        ex.add(use("Unsafe", "waiting"))
        await tl.event("start r2").wait()
        ex.interrupt()
        ex.close()
        events = [e async for e in ex.events()]
    res = [r.outcome for r in results(events)]
    assert [r.tool_use.id for r in results(events)] == ["toolu_r1", "toolu_r2", "toolu_waiting"]
    assert all(o.is_error for o in res)
    assert res[0].block.text.startswith("Interrupted by the user")
    assert "before this call started" in res[2].block.text
    assert sorted(tl.cancelled) == ["r1", "r2"]


async def test_cancelling_one_call_leaves_unrelated_ones_running(tmp_path: Path) -> None:
    tl, runtime, ctx = setup(tmp_path)
    async with anyio.create_task_group() as tg:
        ex = StreamingToolExecutor(runtime=runtime, context=ctx, task_group=tg)
        ex.add(use("Safe", "victim", hang=True))
        ex.add(use("Safe", "bystander", wait_for="end victim"))
        await tl.event("start bystander").wait()
        ex.cancel("toolu_victim")  # one call's own scope
        ex.close()
        events = [e async for e in ex.events()]
    res = {r.tool_use.id: r.outcome for r in results(events)}
    assert res["toolu_victim"].status == "cancelled"
    assert not res["toolu_bystander"].is_error
    assert tl.cancelled == ["victim"]


async def test_context_modifiers_apply_in_request_order(tmp_path: Path) -> None:
    tl, runtime, ctx = setup(tmp_path)
    one, two = tmp_path / "one", tmp_path / "two"
    blocks = [
        use("Safe", "a", set_cwd=str(one), wait_for="end b"),
        use("Safe", "b", set_cwd=str(two)),
        use("Unsafe", "after"),
    ]
    events, ex = await run_all(blocks, runtime, ctx)
    mods = [e for e in tl.entries if e.startswith("modify")]
    assert mods == ["modify a", "modify b"]
    assert ex.context.cwd == two
    # the call after both ran with the modified context
    assert results(events)[2].outcome.block.text == f"after done in {two}"


async def test_a_call_over_its_time_limit_gets_a_timeout_result(tmp_path: Path) -> None:
    tl, runtime, ctx = setup(tmp_path, tool_timeout_s=0.05)
    blocks = [use("Safe", "stuck", hang=True), use("Safe", "quick")]
    events, _ = await run_all(blocks, runtime, ctx)
    res = [r.outcome for r in results(events)]
    assert res[0].is_error and res[0].block.text.startswith("Safe timed out after 0.05 s")
    assert not res[1].is_error
    assert tl.cancelled == ["stuck"]


async def test_concurrency_cap(tmp_path: Path) -> None:
    tl, runtime, ctx = setup(tmp_path, max_concurrency=2)
    blocks = [use("Safe", f"s{i}", seconds=0.02) for i in range(5)]
    await run_all(blocks, runtime, ctx)
    running = peak = 0
    for entry in tl.entries:
        running += 1 if entry.startswith("start") else -1
        peak = max(peak, running)
    assert peak == 2


async def test_unknown_tool_gets_its_error_at_once(tmp_path: Path) -> None:
    _tl, runtime, ctx = setup(tmp_path)
    async with anyio.create_task_group() as tg:
        ex = StreamingToolExecutor(runtime=runtime, context=ctx, task_group=tg)
        ex.add(use("Unsafe", "blocker", hang=True))
        ex.add(use("Nope", "ghost"))
        assert ex.state_of("toolu_ghost") is ToolState.COMPLETED
        ex.interrupt()
        ex.close()
        events = [e async for e in ex.events()]
    ghost = results(events)[1].outcome
    assert "There is no tool named Nope in this session" in ghost.block.text
    assert "Safe, SafeShell, Shell, Unsafe" in ghost.block.text


async def test_add_after_close_is_a_developer_error(tmp_path: Path) -> None:
    _tl, runtime, ctx = setup(tmp_path)
    async with anyio.create_task_group() as tg:
        ex = StreamingToolExecutor(runtime=runtime, context=ctx, task_group=tg)
        ex.close()
        with pytest.raises(RuntimeError, match="after close"):
            ex.add(use("Safe", "x"))


async def test_the_task_group_ends_only_after_a_running_call(tmp_path: Path) -> None:
    tl, runtime, ctx = setup(tmp_path)
    async with anyio.create_task_group() as tg:
        ex = StreamingToolExecutor(runtime=runtime, context=ctx, task_group=tg)
        ex.add(use("Safe", "slow", seconds=0.02))
        ex.close()  # the body ends without reading a single event
    assert tl.entries == ["start slow", "end slow"]
    (result,) = results([e async for e in ex.events()])
    assert not result.outcome.is_error and result.outcome.block.text.startswith("slow done")


async def test_cancelling_the_task_group_interrupts_and_settles_every_call(
    tmp_path: Path,
) -> None:
    tl, runtime, ctx = setup(tmp_path)
    async with anyio.create_task_group() as tg:
        ex = StreamingToolExecutor(runtime=runtime, context=ctx, task_group=tg)
        ex.add(use("Safe", "stuck", hang=True))
        ex.add(use("Unsafe", "queued"))
        await tl.event("start stuck").wait()
        tg.cancel_scope.cancel()
        ex.close()
    res = [r.outcome for r in results([e async for e in ex.events()])]
    assert [o.status for o in res] == ["cancelled", "cancelled"]
    assert res[0].block.text.startswith("Interrupted by the user")
    assert "before this call started" in res[1].block.text
    assert tl.cancelled == ["stuck"]
    assert "start queued" not in tl.entries
