"""``/context``: the context window split by category, with compaction's estimates."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from hands.agent.compaction.tokens import estimate_request
from hands.agent.system_prompt import build_system_prompt
from hands.cli.repl_context import measure, render
from hands.core.messages import Message, TextBlock
from hands.core.tool import ToolSpec
from terminal import Terminal, script, start


def _spec(name: str, size: int) -> ToolSpec:
    return ToolSpec(name=name, description="d" * size, input_schema={"type": "object"})


def test_memory_files_mcp_tools_and_messages_are_counted_apart(tmp_path: Path) -> None:
    (tmp_path / "CLAUDE.md").write_text("Always use tabs. " * 200)
    system = build_system_prompt(cwd=tmp_path, home=tmp_path / "nohome")
    tools = [_spec("Read", 400), _spec("mcp__docs__search", 4000)]
    history = [Message(role="user", content=(TextBlock(text="x" * 8000),))]
    use = measure(system=system, tools=tools, history=history, window=200_000, limit=184_000)
    parts = dict(use.parts)
    assert 800 <= parts["memory files"] <= 900  # 3,400 characters and the tags around them
    assert parts["MCP tools"] > 1000 > parts["tool definitions"] > 100
    assert 2000 <= parts["messages"] <= 2010
    # the categories add up to what compaction estimates for the same request
    assert abs(use.used - estimate_request(history, system, tools)) <= 3
    assert use.free == 200_000 - use.used
    text = render(use, model="scripted:x", counted=None)
    assert "memory files" in text and "free space" in text and "compacts at ~184,000" in text
    assert "as the provider counted" not in text
    assert "as the provider counted it: 1,234" in render(use, model="m", counted=1234)


def test_a_full_window_shows_no_negative_free_space() -> None:
    history = [Message(role="user", content=(TextBlock(text="x" * 40_000),))]
    use = measure(system="", tools=[], history=history, window=1000, limit=900)
    assert use.free == 0
    assert "[" + "#" * 40 + "]" in render(use, model="m", counted=None)


@pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed")
def test_context_in_the_repl_after_a_turn(
    terminal: Terminal, tmp_path: Path, hands_home: Path
) -> None:
    s = script(tmp_path / "s.json", [{"blocks": [{"type": "text", "text": "hello there"}]}])
    start(terminal, tmp_path, hands_home, s)
    terminal.submit("hi", "success · 1 turn")
    screen = terminal.submit("/context", "compacts at ~")
    assert "of 200,000 tokens" in screen
    for category in ("system prompt", "tool definitions", "MCP tools", "messages", "free space"):
        assert category in screen, category
    assert "Traceback" not in screen
