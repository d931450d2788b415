"""A library user's own model object, with a name and a stream but no ``facts``, runs a
whole session: hands assumes its facts (unknown provider, the default window, no price)
and says so once."""

from __future__ import annotations

import warnings
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from hands import Harness, QueryOptions, ToolContext, query, tool
from hands.agent.compaction.settings import CompactionSettings
from hands.agent.events import ResultEvent
from hands.cli.output import result_message
from hands.core.messages import TextBlock, ToolUseBlock
from hands.discovery.deferral import DeferringSource
from hands.errors import ConfigError
from hands.models.base import (
    BlockComplete,
    MessageStart,
    MessageStop,
    ModelRequest,
    StreamEvent,
    Usage,
)
from hands.models.catalog import DEFAULT_WINDOW
from hands.models.facts import ModelFactsWarning, facts_of

pytestmark = pytest.mark.anyio


@tool(read_only=True)
def look(path: str, ctx: ToolContext) -> str:
    """Say whether a file exists in the working directory."""
    return f"{path}: {'there' if (ctx.cwd / path).exists() else 'missing'}"


def own_model_class() -> type:
    """A fresh class each time, as a library user writes one: ``name`` and ``stream``."""

    class LocalModel:
        name = "my-local-model"

        def __init__(self) -> None:
            self.requests: list[ModelRequest] = []

        async def stream(self, request: ModelRequest) -> AsyncIterator[StreamEvent]:
            self.requests.append(request)
            yield MessageStart(id=f"m{len(self.requests)}", model=self.name)
            if len(self.requests) == 1:
                call = ToolUseBlock(id="call-1", name="look", input={"path": "notes.txt"})
                yield BlockComplete(index=0, block=call)
                yield MessageStop(
                    stop_reason="tool_use", usage=Usage(input_tokens=120, output_tokens=8)
                )
            else:
                yield BlockComplete(index=0, block=TextBlock(text="notes.txt is there."))
                yield MessageStop(
                    stop_reason="end_turn", usage=Usage(input_tokens=150, output_tokens=6)
                )

    return LocalModel


async def test_a_model_without_facts_runs_a_query_priced_unknown_with_one_warning(
    tmp_path: Path,
) -> None:
    (tmp_path / "notes.txt").write_text("hi\n")
    model = own_model_class()()
    options = QueryOptions(
        model=model, tools=[look], cwd=tmp_path, permission_mode="bypassPermissions"
    )
    with pytest.warns(ModelFactsWarning) as caught:
        events = [event async for event in query("Is notes.txt there?", options)]
    assert len(caught) == 1  # two requests, compaction and the ledger asked: one warning
    text = str(caught[0].message)
    assert "LocalModel" in text and "`facts`" in text and f"{DEFAULT_WINDOW:,}" in text
    result = events[-1]
    assert isinstance(result, ResultEvent) and result.subtype == "success"
    assert result.result == "notes.txt is there." and len(model.requests) == 2
    share = result.model_usage["my-local-model"]
    assert (share.requests, share.usage.input_tokens, share.cost_usd) == (2, 270, 0.0)
    assert not share.priced  # reported as unknown, not as free
    wire = result_message(result)
    assert wire["total_cost_usd"] == 0
    assert wire["modelUsage"]["my-local-model"]["contextWindow"] == DEFAULT_WINDOW


async def test_its_assumed_facts_reach_compaction_deferral_and_the_harness(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    for name in ("HANDS_CONTEXT_WINDOW", "CLAUDE_CODE_AUTO_COMPACT_WINDOW"):
        monkeypatch.delenv(name, raising=False)
    (tmp_path / "notes.txt").write_text("hi\n")
    model = own_model_class()()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        facts = facts_of(model)
        async with Harness.open(tmp_path, model=model, extra_tools=[look]) as harness:
            source = harness.source
            assert isinstance(source, DeferringSource)
            assert (source.window, source.references) == (DEFAULT_WINDOW, False)
            assert harness.compaction.window_for(model) == DEFAULT_WINDOW
            events = [
                e
                async for e in harness.query(
                    "Is notes.txt there?", permission_mode="bypassPermissions"
                )
            ]
    assert [type(w.message) for w in caught] == [ModelFactsWarning]
    assert (facts.provider, facts.name, facts.capabilities.server_web_search) == (
        "",
        "my-local-model",
        False,
    )
    assert facts.cost(Usage(input_tokens=1_000_000)) is None
    result = events[-1]
    assert isinstance(result, ResultEvent) and result.result == "notes.txt is there."
    monkeypatch.setenv("HANDS_CONTEXT_WINDOW", "50000")
    assert CompactionSettings.from_env().window_for(model) == 50_000


def test_facts_of_the_wrong_type_are_a_config_error_naming_the_attribute() -> None:
    model = own_model_class()()
    model.facts = {"context_window": 8000}  # type: ignore[attr-defined]
    with pytest.raises(ConfigError, match=r"LocalModel\.facts is a dict; .*ModelFacts"):
        facts_of(model)
    with pytest.raises(ConfigError, match=r"\.facts"):
        query("hi", QueryOptions(model=model))
