"""Compaction in whole sessions: clearing old results, summaries, hooks, failures."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from hands import QueryOptions, query
from hands.agent.compaction import CompactionSettings, compact_conversation
from hands.agent.compaction.clearing import CLEARED
from hands.agent.compaction.summary import SUMMARY_SYSTEM
from hands.agent.events import CompactionEvent, ResultEvent
from hands.core.context import ToolContext
from hands.core.messages import Message, ToolResultBlock, user_text
from hands.core.session import Session
from hands.errors import ConfigError, ModelError
from hands.models.base import ModelRequest, StreamEvent, WrappedModel
from hands.models.catalog import context_window
from hands.models.facts import facts_for
from hands.orchestration.events import ToolResultEvent
from hands.testing import ScriptedModel
from hands.tools.file.edit import EditTool
from hands.tools.file.read import ReadTool
from hooks.kit import cmd, engine_for, group, python_script

pytestmark = pytest.mark.anyio

LINE = "the quick brown fox jumps over the lazy dog, again and again\n"


def big_file(path: Path, lines: int = 50) -> Path:
    path.write_text("".join(f"{i} {LINE}" for i in range(lines)))
    return path


def read(path: Path) -> list[dict[str, Any]]:
    return [{"type": "tool_use", "name": "Read", "input": {"file_path": str(path)}}]


def say(text: str) -> list[dict[str, Any]]:
    return [{"type": "text", "text": text}]


SMALL = CompactionSettings(window_tokens=4000, percent=50, keep_results=1)


class Run:
    def __init__(self, model: Any, events: list[Any], q: Any) -> None:
        self.model, self.events, self.query = model, events, q

    @property
    def compactions(self) -> list[CompactionEvent]:
        return [e for e in self.events if isinstance(e, CompactionEvent)]

    @property
    def result(self) -> ResultEvent:
        assert isinstance(self.events[-1], ResultEvent)
        return self.events[-1]

    @property
    def results(self) -> list[ToolResultBlock]:
        return [e.outcome.block for e in self.events if isinstance(e, ToolResultEvent)]


async def run(
    tmp_path: Path,
    model: Any,
    settings: CompactionSettings,
    *,
    hooks: Any = None,
) -> Run:
    q = query(
        "read the files",
        QueryOptions(
            model=model,
            tools=[ReadTool(), EditTool()],
            cwd=tmp_path,
            permission_mode="acceptEdits",
            compaction=settings,
            hooks=hooks,
            session=Session(session_id="compact-test", home=tmp_path / "home"),
        ),
    )
    events = [e async for e in q]
    return Run(model, events, q)


def is_summary_request(request: ModelRequest) -> bool:
    return request.system == SUMMARY_SYSTEM


async def test_old_results_are_cleared_first_when_that_is_enough(tmp_path: Path) -> None:
    files = [big_file(tmp_path / f"f{i}.txt", 30) for i in range(3)]
    model = ScriptedModel.from_turns(*(read(f) for f in files), say("done"))
    settings = CompactionSettings(window_tokens=4000, percent=55, keep_results=1)
    r = await run(tmp_path, model, settings)
    assert r.result.subtype == "success"
    assert not any(is_summary_request(req) for req in model.requests)
    assert r.compactions and all(c.outcome.status == "cleared" for c in r.compactions)
    last = model.requests[-1].messages
    results = [b for m in last for b in m.content if isinstance(b, ToolResultBlock)]
    assert [b.text == CLEARED for b in results] == [True, True, False]
    assert "19 the quick brown fox" in results[-1].text  # the newest keeps its body


async def test_auto_compaction_summarises_and_the_session_goes_on(tmp_path: Path) -> None:
    files = [big_file(tmp_path / f"f{i}.txt") for i in range(3)]
    log = tmp_path / "hooks.log"
    logger = python_script(
        tmp_path,
        "log.py",
        "import json, sys\n"
        "e = json.load(sys.stdin)\n"
        f"open({str(log)!r}, 'a').write(e['hook_event_name'] + ':' + "
        "str(e.get('trigger') or e.get('source')) + '\\n')\n"
        "if e['hook_event_name'] == 'PreCompact': print('Keep the file names.')\n",
    )
    hooks = engine_for(
        {
            "PreCompact": [group("auto", cmd(logger))],
            "SessionStart": [group("compact", cmd(logger))],
            "PostCompact": [group("auto", cmd(logger))],
        }
    )
    model = ScriptedModel.from_turns(
        *(read(f) for f in files),
        say("SUMMARY: the user wants the three files read; f0-f2 were read."),
        [
            {
                "type": "tool_use",
                "name": "Edit",
                "input": {
                    "file_path": str(files[0]),
                    "old_string": "49 the quick",
                    "new_string": "49 the slow",
                },
            }
        ],
        say("done"),
    )
    settings = CompactionSettings(window_tokens=6000, percent=50, keep_results=4)
    r = await run(tmp_path, model, settings, hooks=hooks)
    assert r.result.subtype == "success", r.result.error
    (compaction,) = [c.outcome for c in r.compactions]
    assert compaction.status == "compacted" and compaction.trigger == "auto", compaction
    summary_at = next(i for i, req in enumerate(model.requests) if is_summary_request(req))
    asked = model.requests[summary_at]
    assert "Keep the file names." in asked.messages[-1].text  # the hook's instructions
    before, after = model.requests[summary_at - 1], model.requests[summary_at + 1]
    assert len(after.messages) < len(before.messages)
    opening = after.messages[0]
    assert "SUMMARY: the user wants the three files read" in opening.text
    assert f"Working directory: {tmp_path}" in opening.text
    assert f"Read earlier in this session: {files[-1]}" in opening.text
    assert compaction.tokens_after < compaction.tokens_before
    # the read-state survived: the edit of a file read before the summary needs no Read
    edit = r.results[-1]
    assert not edit.is_error, edit.text
    assert "49 the slow" in files[0].read_text()
    assert log.read_text().splitlines() == [
        "PreCompact:auto",
        "PostCompact:auto",
        "SessionStart:compact",
    ]
    assert r.query.messages[0] is opening or r.query.messages[0] == opening


class FailingSummaries(WrappedModel):
    """The scripted model, except that a summary request fails at the provider."""

    def __init__(self, inner: ScriptedModel) -> None:
        super().__init__(inner)
        self.scripted = inner
        self.summary_requests = 0

    @property
    def requests(self) -> list[ModelRequest]:
        return self.scripted.requests

    async def stream(self, request: ModelRequest) -> AsyncIterator[StreamEvent]:
        if is_summary_request(request):
            self.summary_requests += 1
            raise ModelError("overloaded")
        async for event in self.inner.stream(request):
            yield event


async def test_a_failed_summary_keeps_the_cleared_conversation_and_says_so(
    tmp_path: Path,
) -> None:
    files = [big_file(tmp_path / f"f{i}.txt") for i in range(4)]
    model = FailingSummaries(ScriptedModel.from_turns(*(read(f) for f in files), say("done")))
    settings = CompactionSettings(window_tokens=4000, percent=50, keep_results=2)
    r = await run(tmp_path, model, settings)
    assert r.result.subtype == "success"
    failed = [c.outcome for c in r.compactions if c.outcome.status == "failed"]
    assert failed and "overloaded" in failed[0].error
    assert model.summary_requests == 1  # not tried again in the same query
    # nothing was lost: every call and every result is still there, old bodies cleared
    messages = r.query.messages
    assert messages[0].text == "read the files"
    results = [b for m in messages for b in m.content if isinstance(b, ToolResultBlock)]
    assert len(results) == 4 and results[0].text == CLEARED and results[-1].text != CLEARED


async def test_an_empty_summary_is_a_failure_too(tmp_path: Path) -> None:
    files = [big_file(tmp_path / f"f{i}.txt") for i in range(3)]
    model = ScriptedModel.from_turns(
        *(read(f) for f in files),
        [{"type": "tool_use", "name": "Read", "input": {"file_path": str(files[0])}}],
        say("done"),
    )
    r = await run(tmp_path, model, CompactionSettings(window_tokens=3000, percent=50))
    failed = [c.outcome for c in r.compactions if c.outcome.status == "failed"]
    assert failed and "no text" in failed[0].error
    assert r.result.subtype == "success"


async def test_a_pre_compact_hook_can_block_compaction(tmp_path: Path) -> None:
    files = [big_file(tmp_path / f"f{i}.txt") for i in range(3)]
    blocker = python_script(
        tmp_path, "block.py", "import sys\nsys.stderr.write('not now')\nsys.exit(2)\n"
    )
    hooks = engine_for({"PreCompact": [group("auto", cmd(blocker))]})
    model = ScriptedModel.from_turns(*(read(f) for f in files), say("done"))
    r = await run(tmp_path, model, CompactionSettings(window_tokens=3000, percent=50), hooks=hooks)
    blocked = [c.outcome for c in r.compactions if c.outcome.status == "blocked"]
    assert blocked and "not now" in blocked[0].error
    assert not any(is_summary_request(req) for req in model.requests)


async def test_manual_compaction_that_fails_changes_nothing(tmp_path: Path) -> None:
    messages = [
        user_text("first"),
        Message(role="assistant", content=(*user_text("answer").content,)),
        user_text("second"),
        Message(role="assistant", content=(*user_text("again").content,)),
    ]
    model = ScriptedModel.from_turns()  # every request fails: the script is empty
    outcome = await compact_conversation(
        messages, model=model, ctx=ToolContext(cwd=tmp_path), trigger="manual"
    )
    assert outcome.status == "failed" and not outcome.changed
    assert list(outcome.messages) == messages


def test_windows_come_from_the_table_settings_and_environment() -> None:
    assert context_window("anthropic:claude-sonnet-4-5") == 200_000
    assert context_window("openai:gpt-4.1-mini") == 1_047_576
    assert context_window("anthropic:claude-sonnet-4-5[1m]") == 1_000_000
    assert context_window("ollama:mystery", {"mystery": 32_000}) == 32_000
    settings = CompactionSettings.from_env(
        {"CLAUDE_AUTOCOMPACT_PCT_OVERRIDE": "80"},
        {"contextWindows": {"gpt-4o": 64_000}}.get,
    )
    assert settings.limit_for(ScriptedModel({"turns": []}, name="openai:gpt-4o")) == 51_200
    assert not CompactionSettings.from_env({"DISABLE_AUTO_COMPACT": "1"}).auto
    assert (
        CompactionSettings.from_env({"HANDS_CONTEXT_WINDOW": "5000"}).window_of(facts_for("x"))
        == 5000
    )
    assert settings.window_of(facts_for("openai:gpt-4o-mini")) == 64_000  # the settings' prefix
    with pytest.raises(ConfigError, match="from 1 to 100"):
        CompactionSettings.from_env({"HANDS_AUTOCOMPACT_PCT": "250"})
    json.dumps(settings.windows)
