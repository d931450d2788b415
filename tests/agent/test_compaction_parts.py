"""A summary request that would not fit the window: the conversation is summarised in parts."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from hands import QueryOptions, query
from hands.agent.compaction import CompactionSettings
from hands.agent.compaction.compactor import CompactOutcome, describe
from hands.agent.compaction.summary import SUMMARY_SYSTEM
from hands.agent.compaction.tokens import estimate_request
from hands.agent.events import CompactionEvent, ResultEvent
from hands.cli.output import compaction_message
from hands.core.session import Session
from hands.testing import ScriptedModel
from hands.tools.file.read import ReadTool

from .compaction_kit import Summaries

pytestmark = pytest.mark.anyio
LINE = "the quick brown fox jumps over the lazy dog, again and again\n"
WINDOW = 3800  # room for a few results per part beside the Read tool's definition


def read(path: Path) -> list[dict[str, Any]]:
    return [{"type": "tool_use", "name": "Read", "input": {"file_path": str(path)}}]


async def session(tmp_path: Path, sizes: list[int]) -> tuple[Summaries, list[Any]]:
    files = []
    for i, lines in enumerate(sizes):
        path = tmp_path / f"f{i}.txt"
        path.write_text("".join(f"{n} {LINE}" for n in range(lines)))
        files.append(path)
    model = Summaries(
        ScriptedModel.from_turns(*(read(f) for f in files), [{"type": "text", "text": "done"}])
    )
    q = query(
        "read the files",
        QueryOptions(
            model=model,
            tools=[ReadTool()],
            cwd=tmp_path,
            compaction=CompactionSettings(window_tokens=WINDOW, percent=90, keep_results=10),
            session=Session(session_id="parts", home=tmp_path / "home"),
        ),
    )
    return model, [e async for e in q]


def summarised(events: list[Any]) -> CompactOutcome:
    outcomes = [e.outcome for e in events if isinstance(e, CompactionEvent)]
    done = [o for o in outcomes if o.status == "compacted"]
    assert done, outcomes
    return done[0]


async def test_a_summary_too_large_for_the_window_is_made_in_parts(tmp_path: Path) -> None:
    model, events = await session(tmp_path, [40, 40, 40, 40, 40])
    assert isinstance(events[-1], ResultEvent) and events[-1].subtype == "success"
    outcome = summarised(events)
    assert outcome.method == "parts" and outcome.summary_parts >= 2 and outcome.left_out == 0
    asked = [r for r in model.requests if r.system == SUMMARY_SYSTEM]
    assert len(asked) >= outcome.summary_parts
    for request in asked:  # every summary request fits the window, its answer included
        size = estimate_request(request.messages, request.system, request.tools)
        assert size + request.max_tokens <= WINDOW
    assert "notes on the parts before" in asked[1].messages[0].text  # the notes carried on
    line = compaction_message(CompactionEvent(outcome=outcome), session_id="parts")
    meta = line["compact_metadata"]
    assert meta["summary_method"] == "parts" and meta["summary_parts"] == outcome.summary_parts
    assert f"in {outcome.summary_parts} parts" in describe(outcome)
    after = model.requests[model.requests.index(asked[-1]) + 1]
    assert "summarised in" in after.messages[0].text  # the model is told how


async def test_a_message_too_large_for_any_request_is_left_out_and_counted(
    tmp_path: Path,
) -> None:
    model, events = await session(tmp_path, [10, 140, 10, 10])
    assert isinstance(events[-1], ResultEvent) and events[-1].subtype == "success"
    outcome = summarised(events)
    assert outcome.method == "parts" and outcome.left_out == 2  # the call and its result
    assert "too large to summarise were dropped" in describe(outcome)
    line = compaction_message(CompactionEvent(outcome=outcome), session_id="parts")
    assert line["compact_metadata"]["left_out_messages"] == 2
    asked = [r for r in model.requests if r.system == SUMMARY_SYSTEM]
    assert all("109 the quick" not in m.text for r in asked for m in r.messages)
