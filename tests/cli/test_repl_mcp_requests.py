"""An MCP server's requests in the REPL: elicitation (a form, a link) and sampling (a yes/no)."""

from __future__ import annotations

import json
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import anyio
import pytest
from rich.console import Console

from hands.cli.repl_elicitation import answer_elicitation
from hands.config.trust import trust
from hands.mcp.elicitation import ElicitationAnswer, ElicitationRequest
from terminal import Terminal, launch, script

ASKER = Path(__file__).parents[1] / "mcp" / "servers" / "asker.py"

SCHEMA = {
    "type": "object",
    "properties": {
        "dish": {"type": "string", "title": "Dish", "minLength": 2},
        "count": {"type": "integer", "minimum": 1, "maximum": 9, "default": 1},
        "note": {"type": "string"},
        "spicy": {"type": "boolean", "default": False},
        "size": {"type": "string", "enum": ["small", "medium", "large"], "default": "medium"},
        "side": {
            "type": "string",
            "oneOf": [{"const": "f", "title": "Fries"}, {"const": "s", "title": "Salad"}],
        },
        "extras": {
            "type": "array",
            "items": {"enum": ["cheese", "onion", "egg"]},
            "maxItems": 2,
        },
    },
    "required": ["dish", "side"],
}


class Scripted:
    """Stands in for the keyboard: picks and typed lines, in order; records the prompts."""

    def __init__(self, picks: Sequence[int], lines: Sequence[str]) -> None:
        self.picks = list(picks)
        self.lines = list(lines)
        self.offered: list[list[str]] = []
        self.prompts: list[str] = []

    async def pick(self, options: Sequence[tuple[int, str]], default: int) -> int:
        self.offered.append([label for _, label in options])
        got = self.picks.pop(0)
        return default if got == -99 else got

    async def answer(self, prompt: str) -> str:
        self.prompts.append(prompt)
        return self.lines.pop(0)


def _run(request: ElicitationRequest, keys: Scripted) -> tuple[ElicitationAnswer, str]:
    console = Console(record=True, width=100)
    got = anyio.run(answer_elicitation, request, console, keys.pick, keys.answer)
    return got, console.export_text()


def test_the_form_asks_each_field_checks_it_and_keeps_defaults() -> None:
    request = ElicitationRequest(server="shop", message="Your order?", requested_schema=SCHEMA)
    keys = Scripted(
        # fill in; spicy: yes; size: the default; side: Salad
        picks=[0, 1, -99, 1],
        # dish: too short, then ok; count: not a number, too big, then default;
        # note: left out; extras: a bad choice, then two by number and value
        lines=["x", "soup", "two", "12", "", "", "bacon", "1, egg"],
    )
    got, screen = _run(request, keys)
    assert got == ElicitationAnswer(
        action="accept",
        content={
            "dish": "soup",
            "count": 1,
            "spicy": True,
            "size": "medium",
            "side": "s",
            "extras": ["cheese", "egg"],
        },
    )
    assert keys.offered[0] == ["Fill in the form", "Decline", "Cancel"]
    assert keys.offered[2] == ["small", "medium", "large"]
    assert keys.offered[3] == ["Fries", "Salad"]  # required: no "(leave empty)"
    assert "  count [1]: " in keys.prompts
    for problem in ["at least 2 characters", "enter a whole number", "at most 9", "bacon"]:
        assert problem in screen
    assert "[MCP shop] Your order?" in screen


def test_decline_and_cancel_ask_no_field() -> None:
    request = ElicitationRequest(server="shop", message="Your order?", requested_schema=SCHEMA)
    for choice, action in [(1, "decline"), (2, "cancel")]:
        keys = Scripted(picks=[choice], lines=[])
        got, _ = _run(request, keys)
        assert got == ElicitationAnswer(action=action)  # type: ignore[arg-type]
        assert keys.prompts == []


def test_url_mode_shows_the_link_and_opens_only_with_a_display(monkeypatch: Any) -> None:
    monkeypatch.delenv("DISPLAY", raising=False)
    monkeypatch.delenv("WAYLAND_DISPLAY", raising=False)
    request = ElicitationRequest(
        server="auth", message="Sign in", mode="url", url="https://example.com/in?x=1"
    )
    got, screen = _run(request, Scripted(picks=[0], lines=[]))
    assert got == ElicitationAnswer(action="accept")
    assert "https://example.com/in?x=1" in screen and "open the link above yourself" in screen
    declined, _ = _run(request, Scripted(picks=[1], lines=[]))
    assert declined.action == "decline"


def _project(tmp_path: Path) -> Path:
    project = tmp_path / "project"
    (project / ".claude").mkdir(parents=True)
    server = {"command": sys.executable, "args": [str(ASKER)]}
    (project / ".mcp.json").write_text(json.dumps({"mcpServers": {"asker": server}}))
    (project / ".claude" / "settings.local.json").write_text(
        json.dumps({"enabledMcpjsonServers": ["asker"]})
    )
    return project


def _wait_connected(terminal: Terminal) -> None:
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:  # the server connects in the background
        terminal.send("/mcp", "Enter")
        time.sleep(0.5)
        if "connected" in terminal.screen():
            return
    raise AssertionError(terminal.screen())


def _said(hands_home: Path) -> str:
    return "\n".join(p.read_text() for p in hands_home.rglob("*.jsonl"))


def _start(
    terminal: Terminal, tmp_path: Path, hands_home: Path, call: dict[str, Any], *replies: str
) -> None:
    """hands in tmux with the asker server connected; the model calls ``call``, then says
    ``replies`` (one a turn)."""
    turns = [
        {"blocks": [{"type": "tool_use", **call}]},
        *({"blocks": [{"type": "text", "text": text}]} for text in replies),
    ]
    s = script(tmp_path / "s.json", turns)
    project = _project(tmp_path)
    trust(project, {"HANDS_HOME": str(hands_home)})  # the servers come from the project
    # bypassPermissions accepted before (the one-time question has its own tests)
    (hands_home / "settings.json").write_text('{"skipDangerousModePermissionPrompt": true}')
    launch(
        terminal, project, hands_home, s, "--permission-mode", "bypassPermissions",
        user_home=tmp_path,
    )  # fmt: skip
    terminal.wait_for("(/help")
    _wait_connected(terminal)


def test_the_repl_form_answers_a_real_server(
    terminal: Terminal, tmp_path: Path, hands_home: Path
) -> None:
    _start(terminal, tmp_path, hands_home, {"name": "mcp__asker__order"}, "ordered it")
    terminal.send("order", "Enter")
    terminal.wait_for("What would you like to order?")
    terminal.wait_for("Fill in the form")
    terminal.send("Enter")
    terminal.wait_for("Dish:")
    terminal.send("soup", "Enter")
    terminal.wait_for("Count [1]:")
    terminal.send("3", "Enter")
    terminal.wait_for("yes")
    terminal.send("Up", "Enter")  # spicy: from "no" to "yes"
    terminal.wait_for("large")
    terminal.send("Down", "Enter")  # size: from "medium" to "large"
    terminal.wait_for("ordered it")
    said = _said(hands_home)
    assert (
        '\\"dish\\": \\"soup\\", \\"count\\": 3, \\"spicy\\": true, \\"size\\": \\"large\\"' in said
    )
    assert '\\"action\\": \\"accept\\"' in said
    terminal.send("/exit", "Enter")
    terminal.wait_for("HANDS-EXITED-0")


def test_the_repl_declines_a_link(terminal: Terminal, tmp_path: Path, hands_home: Path) -> None:
    _start(terminal, tmp_path, hands_home, {"name": "mcp__asker__sign_in"}, "not signed in")
    terminal.send("sign in", "Enter")
    terminal.wait_for("https://example.com/sign-in?x=1")
    terminal.wait_for("Open the link")
    terminal.send("Down", "Enter")  # Decline
    terminal.wait_for("not signed in")
    assert '\\"action\\": \\"decline\\"' in _said(hands_home)
    terminal.send("/exit", "Enter")
    terminal.wait_for("HANDS-EXITED-0")


@pytest.mark.parametrize(("reply", "served"), [("y", True), ("n", False)])
def test_the_repl_asks_before_the_model_serves_a_sample(
    terminal: Terminal, tmp_path: Path, hands_home: Path, reply: str, served: bool
) -> None:
    call = {
        "name": "mcp__asker__summarize",
        "input": {"text": "the quarterly report", "max_tokens": 42},
    }
    _start(terminal, tmp_path, hands_home, call, "SAMPLED-REPLY", "all done")
    terminal.send("summarize", "Enter")
    screen = terminal.wait_for("Let the model answer?")
    assert "asker" in screen and "42 tokens" in screen and "the quarterly report" in screen
    terminal.send(reply, "Enter")
    said_next = "all done" if served else "SAMPLED-REPLY"
    terminal.wait_for(said_next)
    transcript = _said(hands_home)
    if served:
        assert '\\"text\\": \\"SAMPLED-REPLY\\"' in transcript
    else:
        assert "refused: Sampling request declined" in transcript
    terminal.send("/exit", "Enter")
    terminal.wait_for("HANDS-EXITED-0")
