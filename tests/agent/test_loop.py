from __future__ import annotations

import json
from collections.abc import AsyncIterator, Sequence
from pathlib import Path
from typing import Any

import anyio
import pytest

from hands import QueryOptions, ToolContext, query, tool
from hands.agent.events import BlockEvent, MessageEvent, ResultEvent, TextDeltaEvent
from hands.core.limits import Limits
from hands.core.messages import ToolResultBlock, ToolUseBlock
from hands.errors import ModelError
from hands.models.base import ModelRequest, StreamEvent
from hands.models.facts import facts_for
from hands.orchestration.events import ToolProgressEvent, ToolResultEvent
from hands.testing import ScriptedModel

pytestmark = pytest.mark.anyio

log: list[str] = []


@tool(read_only=True)
async def probe(label: str, seconds: float = 0.0) -> str:
    """Record when it runs."""
    log.append(f"start {label}")
    await anyio.sleep(seconds)
    log.append(f"end {label}")
    return f"{label} ok"


@tool
def mutate(label: str, ctx: ToolContext) -> str:
    """A tool that is not read-only."""
    return f"{label} changed in {ctx.cwd.name}"


@tool(read_only=True)
def shout(text: str, progress: Any) -> str:
    """Report progress, then answer."""
    progress(f"shouting {text}")
    return text.upper()


def opts(model: Any, **kw: Any) -> QueryOptions:
    return QueryOptions(
        model=model, tools=[probe, mutate, shout], permission_mode="bypassPermissions", **kw
    )


async def collect(q: Any) -> list[Any]:
    return [event async for event in q]


async def test_multi_turn_session_appends_results_as_one_user_message(tmp_path: Path) -> None:
    model = ScriptedModel.from_turns(
        [
            {"type": "text", "text": "Two probes."},
            {"type": "tool_use", "name": "probe", "input": {"label": "a"}},
            {"type": "tool_use", "name": "probe", "input": {"label": "b"}},
        ],
        [{"type": "text", "text": "All done."}],
    )
    q = query("go", opts(model, cwd=tmp_path))
    events = await collect(q)
    result = events[-1]
    assert isinstance(result, ResultEvent)
    assert result.subtype == "success" and result.num_turns == 2 and result.result == "All done."
    assert [m.role for m in q.messages] == ["user", "assistant", "user", "assistant"]
    results_msg = q.messages[2]
    assert [b.tool_use_id for b in results_msg.content if isinstance(b, ToolResultBlock)] == [
        "toolu_s00_01",
        "toolu_s00_02",
    ]
    # the second request carried the whole conversation and the tool specs
    second = model.requests[1]
    assert len(second.messages) == 3
    assert sorted(t.name for t in second.tools) == ["mutate", "probe", "shout"]
    assert (
        "".join(e.text for e in events if isinstance(e, TextDeltaEvent)) == "Two probes.All done."
    )
    user_events = [e for e in events if isinstance(e, MessageEvent) and e.message.role == "user"]
    assert user_events[0].message == results_msg


class LoggingModel:
    """Wraps a model and logs when its stream ends."""

    def __init__(self, inner: ScriptedModel) -> None:
        self.inner = inner
        self.name = inner.name
        self.facts = inner.facts

    async def stream(self, request: ModelRequest) -> AsyncIterator[StreamEvent]:
        async for event in self.inner.stream(request):
            yield event
        log.append("stream end")


def two_turns() -> ScriptedModel:
    return ScriptedModel.from_turns(
        [
            {"type": "tool_use", "name": "probe", "input": {"label": "early"}},
            {"type": "text", "text": "still talking", "delay_ms": 150},
        ],
        [{"type": "text", "text": "ok"}],
    )


async def test_tools_start_while_the_model_is_still_streaming(tmp_path: Path) -> None:
    log.clear()
    await collect(query("go", opts(LoggingModel(two_turns()), cwd=tmp_path)))
    assert log[:3] == ["start early", "end early", "stream end"]


async def test_batch_mode_waits_for_the_whole_message(tmp_path: Path) -> None:
    log.clear()
    await collect(query("go", opts(LoggingModel(two_turns()), cwd=tmp_path, streaming=False)))
    assert log[:3] == ["stream end", "start early", "end early"]


async def test_progress_and_context_reach_the_caller(tmp_path: Path) -> None:
    model = ScriptedModel.from_turns(
        [
            {"type": "tool_use", "name": "shout", "input": {"text": "hi"}},
            {"type": "tool_use", "name": "mutate", "input": {"label": "m"}},
        ],
        [{"type": "text", "text": "ok"}],
    )
    events = await collect(query("go", opts(model, cwd=tmp_path)))
    progress = [e for e in events if isinstance(e, ToolProgressEvent)]
    assert [p.data for p in progress] == ["shouting hi"]
    outs = [e.outcome.block.text for e in events if isinstance(e, ToolResultEvent)]
    assert outs == ["HI", f"m changed in {tmp_path.name}"]


async def test_max_turns_stops_the_loop(tmp_path: Path) -> None:
    turn = [{"type": "tool_use", "name": "probe", "input": {"label": "x"}}]
    model = ScriptedModel.from_turns(turn, turn, turn)
    events = await collect(query("go", opts(model, cwd=tmp_path, max_turns=2)))
    result = events[-1]
    assert result.subtype == "error_max_turns" and result.num_turns == 2
    assert model.turns_left == 1


class BreakingModel:
    """Streams one tool_use, then the connection drops."""

    name = "breaking"
    facts = facts_for("breaking")

    async def stream(self, request: ModelRequest) -> AsyncIterator[StreamEvent]:
        from hands.models.base import BlockComplete, MessageStart, ToolUseStart

        yield MessageStart(id="m", model="breaking")
        yield ToolUseStart(index=0, id="toolu_a", name="probe")
        yield BlockComplete(
            index=0,
            block=ToolUseBlock(id="toolu_a", name="probe", input={"label": "slow", "seconds": 5}),
        )
        await anyio.sleep(0.01)
        raise ModelError("connection reset by peer")


async def test_a_broken_stream_discards_started_tools_and_settles_them(tmp_path: Path) -> None:
    q = query("go", opts(BreakingModel(), cwd=tmp_path))
    with anyio.fail_after(3):
        events = await collect(q)
    result = events[-1]
    assert result.subtype == "error_during_execution"
    assert "connection reset by peer" in result.error
    # the conversation stays valid: the tool_use has its (discarded) result
    assistant, user = q.messages[1], q.messages[2]
    assert [b.id for b in assistant.tool_uses] == ["toolu_a"]
    block = user.content[0]
    assert isinstance(block, ToolResultBlock) and block.is_error
    assert block.text.startswith("Discarded")


async def test_interrupt_settles_running_tools(tmp_path: Path) -> None:
    model = ScriptedModel.from_turns(
        [{"type": "tool_use", "name": "probe", "input": {"label": "long", "seconds": 30}}],
        [{"type": "text", "text": "never"}],
    )
    q = query("go", opts(model, cwd=tmp_path))
    events: list[Any] = []
    with anyio.fail_after(5):
        async for event in q:
            events.append(event)
            if isinstance(event, BlockEvent):
                await anyio.sleep(0.05)
                q.interrupt()
    result = events[-1]
    assert result.subtype == "interrupted"
    results = [e for e in events if isinstance(e, ToolResultEvent)]
    assert len(results) == 1 and results[0].outcome.block.text.startswith("Interrupted by the user")
    assert model.turns_left == 1


async def test_message_budget_spills_the_largest_results(tmp_path: Path) -> None:
    @tool(read_only=True, max_result_chars=None)
    def never_spilled(n: int) -> str:
        """Like Read: bounded by itself."""
        return "r" * n

    @tool(read_only=True)
    def blob(n: int) -> str:
        """A big output."""
        return "b" * n

    model = ScriptedModel.from_turns(
        [
            {"type": "tool_use", "name": "blob", "input": {"n": 6000}},
            {"type": "tool_use", "name": "blob", "input": {"n": 1000}},
            {"type": "tool_use", "name": "never_spilled", "input": {"n": 4000}},
        ],
        [{"type": "text", "text": "ok"}],
    )
    q = query(
        "go",
        QueryOptions(
            model=model,
            tools=[blob, never_spilled],
            cwd=tmp_path,
            limits=Limits(message_budget_chars=9_000),
        ),
    )
    await collect(q)
    blocks = [b for b in q.messages[2].content if isinstance(b, ToolResultBlock)]
    assert blocks[0].text.startswith("<persisted-output>")
    assert blocks[1].text == "b" * 1000
    assert blocks[2].text == "r" * 4000


async def test_script_exhaustion_is_a_clear_error(tmp_path: Path) -> None:
    model = ScriptedModel.from_turns(
        [{"type": "tool_use", "name": "probe", "input": {"label": "x"}}]
    )
    events = await collect(query("go", opts(model, cwd=tmp_path)))
    assert events[-1].subtype == "error_during_execution"
    assert "all were used" in events[-1].error


async def test_scripted_stream_sends_input_as_json_fragments() -> None:
    from hands.models.base import BlockComplete, InputJsonDelta, MessageStop

    model = ScriptedModel.from_turns(
        [
            {
                "type": "tool_use",
                "name": "probe",
                "input": {"label": "a long label here", "seconds": 0},
            }
        ]
    )
    events = [e async for e in model.stream(ModelRequest(messages=()))]
    fragments = [e.partial_json for e in events if isinstance(e, InputJsonDelta)]
    assert len(fragments) >= 3
    assert json.loads("".join(fragments)) == {"label": "a long label here", "seconds": 0}
    complete = [e for e in events if isinstance(e, BlockComplete)]
    assert complete[0].tool_use is not None
    assert isinstance(events[-1], MessageStop) and events[-1].stop_reason == "tool_use"


async def test_a_tool_source_is_asked_before_every_request(tmp_path: Path) -> None:
    from hands.agent.options import ToolSource
    from hands.pipeline.pool import ToolPool

    class Growing(ToolSource):
        def __init__(self) -> None:
            self.asked = 0

        def current_pool(self) -> ToolPool:
            self.asked += 1
            return ToolPool([probe] if self.asked == 1 else [probe, shout])

    model = ScriptedModel.from_turns(
        [{"type": "tool_use", "name": "probe", "input": {"label": "x"}}],
        [{"type": "tool_use", "name": "shout", "input": {"text": "y"}}],
        [{"type": "text", "text": "ok"}],
    )
    source = Growing()
    q = query("go", QueryOptions(model=model, tools=source, cwd=tmp_path))
    events = await collect(q)
    assert [t.name for t in model.requests[0].tools] == ["probe"]
    assert [t.name for t in model.requests[1].tools] == ["probe", "shout"]
    outs = [e.outcome.block.text for e in events if isinstance(e, ToolResultEvent)]
    assert outs == ["x ok", "Y"]
    # the protocol's default reminder is none: only the prompt and the turns are sent
    assert [m.role for m in model.requests[1].messages] == ["user", "assistant", "user"]


async def test_a_tool_source_reminder_is_sent_before_the_request(tmp_path: Path) -> None:
    from hands.agent.options import ToolSource
    from hands.core.messages import Message, user_text
    from hands.pipeline.pool import ToolPool

    class Reminding(ToolSource):
        def current_pool(self) -> ToolPool:
            return ToolPool([probe])

        def reminder_message(self, messages: Sequence[Message]) -> Message | None:
            said = any(m.text == "remember probe" for m in messages)
            return None if said else user_text("remember probe")

    model = ScriptedModel.from_turns(
        [{"type": "tool_use", "name": "probe", "input": {"label": "x"}}],
        [{"type": "text", "text": "ok"}],
    )
    q = query("go", QueryOptions(model=model, tools=Reminding(), cwd=tmp_path))
    events = await collect(q)
    sent = [m.text for m in events_messages(events)]
    assert sent[0] == "remember probe"
    assert [m.text for m in model.requests[0].messages] == ["go", "remember probe"]
    assert [m.text for m in model.requests[1].messages].count("remember probe") == 1


def events_messages(events: list[Any]) -> list[Any]:
    return [e.message for e in events if isinstance(e, MessageEvent)]


class FlakyModel:
    """The first stream breaks after a tool_use (retryably); the next ones work."""

    name = "flaky"
    facts = facts_for("flaky")

    def __init__(self) -> None:
        self.calls = 0
        self.inner = ScriptedModel.from_turns(
            [{"type": "tool_use", "name": "probe", "input": {"label": "second try"}}],
            [{"type": "text", "text": "done"}],
        )

    async def stream(self, request: ModelRequest) -> AsyncIterator[StreamEvent]:
        from hands.errors import StreamInterruptedError
        from hands.models.base import BlockComplete, MessageStart

        self.calls += 1
        if self.calls == 1:
            yield MessageStart(id="m", model="flaky")
            yield BlockComplete(
                index=0,
                block=ToolUseBlock(
                    id="toolu_lost", name="probe", input={"label": "lost", "seconds": 5}
                ),
            )
            await anyio.sleep(0.01)
            raise StreamInterruptedError("connection reset", retryable=True)
        async for event in self.inner.stream(request):
            yield event


async def test_a_broken_stream_is_retried_and_its_tools_discarded(tmp_path: Path) -> None:
    from hands.agent.events import StreamRetryEvent

    model = FlakyModel()
    q = query("go", QueryOptions(model=model, tools=[probe], cwd=tmp_path, stream_retry_delay_s=0))
    with anyio.fail_after(5):
        events = await collect(q)
    assert events[-1].subtype == "success" and events[-1].result == "done"
    retries = [e for e in events if isinstance(e, StreamRetryEvent)]
    assert len(retries) == 1 and "connection reset" in retries[0].error
    lost = [e for e in events if isinstance(e, ToolResultEvent) and e.tool_use.id == "toolu_lost"]
    assert lost and lost[0].outcome.block.text.startswith("Discarded")
    # the conversation has no trace of the broken stream
    ids = [b.id for m in q.messages for b in m.tool_uses]
    assert ids == ["toolu_s00_00"]
    assert model.calls == 3
    assert len(model.inner.requests[0].messages) == 1
