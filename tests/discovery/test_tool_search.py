"""ToolSearch's three query forms, and found tools joining the request and staying."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, ClassVar

import anyio
from discovery_helpers import make

from hands.agent.events import ResultEvent
from hands.agent.loop import QueryOptions, query
from hands.core.session import Session
from hands.discovery.deferral import DeferredPool, DeferringSource
from hands.discovery.tool_search import (
    NO_MATCH,
    ToolSearchTool,
    parse_query,
    tool_reference_blocks,
)
from hands.orchestration.events import ToolResultEvent
from hands.pipeline.pool import ToolPool
from hands.testing import ScriptedModel


def catalogue() -> list[Any]:
    return [
        make("Read", "Read a file from disk.", defer=False),
        make("Bash", "Run a shell command.", defer=False),
        make("mcp__github__create_pull_request", "Open new pull request"),
        make("mcp__github__list_pull_requests", "List pull requests"),
        make("mcp__github__create_issue", "Create a new issue in a repository"),
        make("mcp__slack__slack_post_message", "Post a new message to a Slack channel"),
        make("mcp__time__get_current_time", "Get current time in a specific timezone"),
        make("mcp__time__convert_time", "Convert time between timezones"),
        make("mcp__playwright__browser_take_screenshot", "Take a screenshot of the current page"),
        make("NotebookEdit", "Replace a cell in a Jupyter notebook", hint="edit notebook cells"),
    ]


def search(source: DeferringSource, q: str, n: int = 5) -> list[str]:
    tool = source.search_tool()
    assert isinstance(tool, ToolSearchTool)
    return list(tool.search(q, n).names)


def test_parse_query_forms() -> None:
    assert parse_query("select:A, B") == ("select", ["A", "B"], [])
    assert parse_query("SELECT:A") == ("select", ["A"], [])
    assert parse_query("+slack send message") == ("required", ["slack"], ["send", "message"])
    assert parse_query("open a pull request") == ("search", [], ["open", "a", "pull", "request"])


def test_select_returns_exactly_those() -> None:
    source = DeferringSource(catalogue(), mode="true")
    names = search(source, "select:mcp__time__convert_time,NotebookEdit")
    assert names == ["mcp__time__convert_time", "NotebookEdit"]
    # already loaded: the answer says it can be called as it is; unknown names reported
    tool = source.search_tool()
    assert isinstance(tool, ToolSearchTool)
    out = tool.search("select:Read,Nope")
    assert out.names == () and out.already == ("Read",) and out.unknown == ("Nope",)
    text = tool.to_content(out)
    assert isinstance(text, str) and "Read" in text and "Nope" in text
    assert not text.startswith(NO_MATCH)
    # a deferred tool found before is returned again, and so is one loaded with it
    again = tool.search("select:NotebookEdit,Bash")
    assert again.names == ("NotebookEdit",) and again.already == ("Bash",)
    both = tool.to_content(again)
    assert isinstance(both, str) and "Found 1 tool: NotebookEdit" in both and "Bash" in both


def test_required_term_filters_by_name_and_ranks_by_the_rest() -> None:
    source = DeferringSource(catalogue(), mode="true")
    assert search(source, "+slack post message") == ["mcp__slack__slack_post_message"]
    ranked = search(source, "+pull open")
    assert ranked[0] == "mcp__github__create_pull_request"
    assert set(ranked) == {"mcp__github__create_pull_request", "mcp__github__list_pull_requests"}


def test_ranked_search_on_plain_requests() -> None:
    source = DeferringSource(catalogue(), mode="true")
    assert search(source, "open a pull request")[0] == "mcp__github__create_pull_request"
    assert search(source, "get the current time in Tokyo")[0] == "mcp__time__get_current_time"
    assert search(source, "take a screenshot of the page")[0] == (
        "mcp__playwright__browser_take_screenshot"
    )
    assert search(source, "edit a notebook cell")[0] == "NotebookEdit"


def test_a_request_with_several_needs_finds_a_tool_for_each() -> None:
    source = DeferringSource(catalogue(), mode="true")
    found = search(source, "convert 3pm to Tokyo time, then post a message to the team", 3)
    assert "mcp__time__convert_time" in found and "mcp__slack__slack_post_message" in found


def test_an_empty_query_says_what_to_send() -> None:
    from hands.discovery.tool_search import EMPTY_QUERY

    tool = DeferringSource(catalogue(), mode="true").search_tool()
    for text in ("", "  ", "?!"):
        out = tool.search(text)  # type: ignore[attr-defined]
        assert out.matches == () and tool.to_content(out) == EMPTY_QUERY


def test_no_match_names_servers_still_connecting() -> None:
    source = DeferringSource(catalogue(), mode="true")
    tool = source.search_tool()
    out = tool.search("zzzz qqqq")  # type: ignore[attr-defined]
    assert out.matches == ()
    content = tool.to_content(out)
    assert isinstance(content, str) and content.startswith(NO_MATCH)

    class Status:
        def __init__(self, name: str, state: str) -> None:
            self.name, self.state = name, state

    class Manager:
        connections: ClassVar[dict[str, Any]] = {}

        def status(self) -> list[Status]:
            return [Status("jira", "pending"), Status("git", "connected")]

    class Inner:
        manager = Manager()

        def current_pool(self) -> ToolPool:
            return ToolPool(catalogue())

    waiting = DeferringSource(Inner(), mode="true")
    out = waiting.search_tool().search("zzzz qqqq")  # type: ignore[attr-defined]
    text = waiting.search_tool().to_content(out)
    assert isinstance(text, str) and "still connecting: jira" in text and "git" not in text


def test_result_holds_full_definitions_as_text() -> None:
    source = DeferringSource(catalogue(), mode="true")
    tool = source.search_tool()
    out = tool.search("select:mcp__time__convert_time")  # type: ignore[attr-defined]
    text = tool.to_content(out)
    assert isinstance(text, str)
    body = text.split("<function>", 1)[1].split("</function>", 1)[0]
    definition = json.loads(body)
    assert definition["name"] == "mcp__time__convert_time"
    assert definition["parameters"]["properties"]["text"]["type"] == "string"
    assert out.references is False


def test_with_anthropic_the_result_holds_tool_references() -> None:
    from hands.core.messages import TextBlock, ToolReferenceBlock
    from hands.models.facts import facts_for

    facts = facts_for("anthropic:claude-sonnet-4-5")
    source = DeferringSource(catalogue(), mode="true", facts=facts)
    tool = source.search_tool()
    out = tool.search("select:mcp__time__convert_time")  # type: ignore[attr-defined]
    content = tool.to_content(out)
    assert out.references is True
    assert not isinstance(content, str)
    assert isinstance(content[0], TextBlock) and "mcp__time__convert_time" in content[0].text
    assert list(content[1:]) == [ToolReferenceBlock(tool_name="mcp__time__convert_time")]
    assert tool_reference_blocks(out.names) == [
        {"type": "tool_reference", "tool_name": "mcp__time__convert_time"}
    ]
    # every deferred tool is in the request, flagged, and stays there once found
    before = [(s.name, s.defer_loading) for s in source.current_pool().specs()]
    source.mark_found(["mcp__time__convert_time"])
    after = [(s.name, s.defer_loading) for s in source.current_pool().specs()]
    assert before == after
    assert ("mcp__time__convert_time", True) in after


def test_tool_search_is_read_only_and_concurrency_safe() -> None:
    tool = DeferringSource(catalogue(), mode="true").search_tool()
    parsed = tool.parse_input({"query": "x"})
    assert tool.is_read_only(parsed) and tool.is_concurrency_safe(parsed)
    assert parsed.max_results == 5


def test_spec_order_is_stable_and_found_tools_are_appended() -> None:
    source = DeferringSource(catalogue(), mode="true")
    pool = source.current_pool()
    assert isinstance(pool, DeferredPool)
    assert pool.names == ("Bash", "Read", "ToolSearch")
    assert source.current_pool() is pool  # nothing changed: the same object
    source.mark_found(["mcp__time__get_current_time"])
    source.mark_found(["mcp__github__create_issue"])
    after = source.current_pool()
    assert after is not pool
    # the sorted prefix is unchanged; found tools follow in the order they were found
    assert after.names == (
        "Bash",
        "Read",
        "ToolSearch",
        "mcp__time__get_current_time",
        "mcp__github__create_issue",
    )
    assert [s.name for s in (t.spec() for t in after)] == list(after.names)
    assert source.current_pool() is after


def test_deferred_tool_called_by_name_runs_and_joins() -> None:
    source = DeferringSource(catalogue(), mode="true")
    pool = source.current_pool()
    assert "mcp__time__convert_time" not in pool.names
    assert pool.find("mcp__time__convert_time") is not None
    assert source.current_pool().names[-1] == "mcp__time__convert_time"


def run_query(source: DeferringSource, model: ScriptedModel, tmp_path: Path) -> list[Any]:
    results: list[Any] = []

    async def go() -> None:
        options = QueryOptions(
            model=model,
            tools=source,
            cwd=tmp_path,
            permission_mode="bypassPermissions",
            session=Session(home=tmp_path),
        )
        async for event in query("go", options):
            if isinstance(event, ToolResultEvent):
                results.append(event.outcome.block)
            if isinstance(event, ResultEvent):
                assert event.subtype == "success", event.error

    anyio.run(go)
    return results


def test_found_tools_join_the_request_and_stay(tmp_path: Path) -> None:
    source = DeferringSource(catalogue(), mode="true")
    model = ScriptedModel.from_turns(
        [{"type": "tool_use", "name": "ToolSearch", "input": {"query": "what time is it"}}],
        [{"type": "tool_use", "name": "mcp__time__get_current_time", "input": {"text": "a"}}],
        [{"type": "tool_use", "name": "ToolSearch", "input": {"query": "select:NotebookEdit"}}],
        [{"type": "text", "text": "done"}],
    )
    results = run_query(source, model, tmp_path)
    assert "mcp__time__get_current_time" in results[0].text
    assert results[1].content == "ran a"
    first, second, third, fourth = ([t.name for t in r.tools] for r in model.requests)
    assert first == ["Bash", "Read", "ToolSearch"]
    assert second[:3] == first and "mcp__time__get_current_time" in second[3:]
    assert third == second  # found tools stay
    assert fourth[: len(third)] == third and fourth[-1] == "NotebookEdit"


def test_the_model_is_told_to_search_once_per_need() -> None:
    """The ranker is scored on one search per need: the tool and the reminder say so."""
    import re

    from hands.discovery.deferral import REMINDER_HEAD
    from hands.discovery.tool_search import DESCRIPTION

    per_need = re.compile(r"\b(?:once|one search) per need\b", re.I)
    assert per_need.search(DESCRIPTION) and per_need.search(REMINDER_HEAD)
