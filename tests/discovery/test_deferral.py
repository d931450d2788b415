"""When tools are deferred, and the reminder that lists them."""

from __future__ import annotations

from discovery_helpers import make

from hands.core.messages import user_text
from hands.discovery.deferral import (
    DeferralMode,
    DeferredEntry,
    DeferringSource,
    is_deferrable,
    reminder_message,
    reminder_text,
    schema_tokens,
    should_defer,
)
from hands.discovery.tool_search import ToolSearchTool
from hands.models.catalog import context_window
from hands.permissions.simple import SimplePolicy


def test_mode_parsing() -> None:
    assert DeferralMode.parse(None) == DeferralMode(kind="auto", percent=10)
    assert DeferralMode.parse("auto:25") == DeferralMode(kind="auto", percent=25)
    assert DeferralMode.parse("true").kind == "on"
    assert DeferralMode.parse("FALSE").kind == "off"
    assert DeferralMode.parse("auto:nonsense") == DeferralMode()
    assert DeferralMode.from_env({"HANDS_TOOL_SEARCH": "auto:5"}).percent == 5


def test_core_tools_are_never_deferrable() -> None:
    from hands.tools.bash.bash import BashTool

    assert not is_deferrable(BashTool())
    assert not is_deferrable(ToolSearchTool(DeferringSource([make("mcp__s__t")], mode="true")))
    core = make("Core")
    core.always_load = True  # a tool says it is core; its name does not
    assert not is_deferrable(core)
    assert is_deferrable(make("Bash"))  # a look-alike that does not say so
    assert is_deferrable(make("mcp__x__y"))
    assert not is_deferrable(make("Thing", defer=False))


def test_builtins_flagged_deferrable() -> None:
    from hands.pipeline.pool import all_base_tools

    flagged = {t.name for t in all_base_tools() if is_deferrable(t)}
    assert {"NotebookEdit", "TaskOutput", "TaskStop"} <= flagged
    assert not flagged & {"Bash", "Read", "Edit", "Write", "Glob", "Grep"}


def test_auto_threshold_is_ten_percent_of_the_window() -> None:
    tools = [make(f"mcp__s__t{i}", "does things", padding=500) for i in range(4)]
    tokens = schema_tokens(tools)
    auto = DeferralMode()
    # just above 10% of the window: defer; just below: load everything
    assert should_defer(tools, mode=auto, window=int(tokens * 10) - 100)
    assert not should_defer(tools, mode=auto, window=int(tokens * 10) + 100)
    assert should_defer(tools, mode=DeferralMode.parse("auto:50"), window=tokens * 2 - 10)
    assert not should_defer(tools, mode=DeferralMode.parse("auto:50"), window=tokens * 2 + 10)
    assert should_defer(tools, mode=DeferralMode(kind="on"), window=10**9)
    assert not should_defer(tools, mode=DeferralMode(kind="off"), window=1)
    assert not should_defer(tools, mode=DeferralMode(kind="on"), tool_search_denied=True)
    from hands.tools.bash.bash import BashTool

    assert not should_defer([BashTool()], mode=DeferralMode(kind="on"))


def test_only_deferrable_schemas_count() -> None:
    core = [make("Core", padding=5000, defer=False)]
    small = [make("mcp__s__a", "tiny")]
    assert not should_defer(core + small, mode=DeferralMode(), window=1000)


def test_deny_rule_on_toolsearch_turns_it_off() -> None:
    tools = [make("Read", defer=False), make("mcp__s__a", "a")]
    on = DeferringSource(tools, mode="true")
    assert on.active and "ToolSearch" in on.current_pool()
    off = DeferringSource(
        tools, mode="true", policy=SimplePolicy(denied_tools=frozenset({"ToolSearch"}))
    )
    assert not off.active
    assert "ToolSearch" not in off.current_pool()
    assert "mcp__s__a" in off.current_pool().names


def test_context_windows() -> None:
    assert context_window("anthropic:claude-sonnet-4-5") == 200_000
    assert context_window("claude-sonnet-4-5[1m]") == 1_000_000
    assert context_window("openai:gpt-4o") == 128_000
    assert context_window(None) == 200_000


def test_reminder_lists_names_with_hints_within_budget() -> None:
    entries = [
        DeferredEntry(name=f"mcp__srv__tool_{i:03}", hint=f"Does thing {i}. More detail.")
        for i in range(200)
    ]
    full = reminder_text(entries, budget=10**6)
    assert "mcp__srv__tool_000: Does thing 0\n" in full
    assert "More detail" not in full
    small = reminder_text(entries, budget=2_000)
    assert len(small) <= 2_000
    assert "mcp__srv__tool_000\n" in small and "Does thing" not in small
    assert "more (find them with ToolSearch)" in small
    assert small.startswith("<system-reminder>") and small.endswith("</system-reminder>")


def test_reminder_message_only_when_something_changed() -> None:
    tools = [make("Read", defer=False), make("mcp__s__a", "Alpha."), make("mcp__s__b", "Beta.")]
    source = DeferringSource(tools, mode="true")
    first = reminder_message(source, [user_text("hi")])
    assert first is not None and "mcp__s__a: Alpha" in first.text
    assert reminder_message(source, [user_text("hi"), first]) is None
    source.mark_found(["mcp__s__a"])
    second = reminder_message(source, [user_text("hi"), first])
    assert second is not None and "mcp__s__a" not in second.text and "mcp__s__b" in second.text
    assert reminder_message(DeferringSource(tools, mode="false"), []) is None
    assert reminder_message(object(), []) is None
