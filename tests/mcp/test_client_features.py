"""What the client offers servers: roots, logging, prompts; content annotations kept."""

from __future__ import annotations

import json
import logging
from pathlib import Path

import anyio
import pytest
from mcp_helpers import call, demo_config

from hands.errors import ToolError
from hands.mcp.config import McpSettings
from hands.mcp.manager import McpManager
from hands.mcp.source import McpToolSource

FAST = McpSettings(startup_timeout_s=20)


def test_roots_are_the_working_directories_and_a_change_is_announced(tmp_path: Path) -> None:
    one, two = tmp_path / "one", tmp_path / "two"
    one.mkdir()
    two.mkdir()

    async def go() -> None:
        async with McpManager([demo_config()], settings=FAST, roots=[one]) as manager:
            await manager.wait_ready()
            source = McpToolSource(manager, base=[])
            first = json.loads((await call(source, "mcp__demo__roots", {})).block.text)
            assert first == {"roots": [one.as_uri()], "changed": 0}
            await manager.set_roots([one, two])
            for _ in range(100):
                seen = json.loads((await call(source, "mcp__demo__roots", {})).block.text)
                if seen["changed"]:
                    break
                await anyio.sleep(0.05)
            assert seen == {"roots": [one.as_uri(), two.as_uri()], "changed": 1}

    anyio.run(go)


def test_server_log_messages_reach_python_logging_at_the_level_asked(
    caplog: pytest.LogCaptureFixture,
) -> None:
    async def go() -> None:
        async with McpManager([demo_config()], settings=FAST, log_level="warning") as manager:
            await manager.wait_ready()
            assert manager.connections["demo"].has_logging
            source = McpToolSource(manager, base=[])
            assert (await call(source, "mcp__demo__chatty", {})).block.text == "logged"
            await manager.set_log_level("debug")
            assert (await call(source, "mcp__demo__chatty", {})).block.text == "logged"
            await anyio.sleep(0.2)

    with caplog.at_level(logging.DEBUG, logger="hands.mcp.server"):
        anyio.run(go)
    lines = [r.getMessage() for r in caplog.records if r.name == "hands.mcp.server.demo"]
    # first call at "warning": only warning and error; after setLevel debug: all four
    assert lines == [
        "[demo demo.log] warning: warning note",
        "[demo demo.log] error: error note",
        "[demo demo.log] debug: debug note",
        "[demo demo.log] info: info note",
        "[demo demo.log] warning: warning note",
        "[demo demo.log] error: error note",
    ]
    levels = [r.levelno for r in caplog.records if r.name == "hands.mcp.server.demo"]
    assert levels[:2] == [logging.WARNING, logging.ERROR]


def test_prompts_are_commands_with_arguments() -> None:
    async def go() -> None:
        async with McpManager([demo_config()], settings=FAST) as manager:
            await manager.wait_ready()
            prompts = {p.command: p for p in manager.prompts()}
            review = prompts["mcp__demo__review"]
            assert review.usage() == "/mcp__demo__review <path> [focus]"
            assert review.description == "Ask for a review of a file."
            typed = await manager.get_prompt("mcp__demo__review", "src/a.py style and naming")
            assert [(m.role, m.text) for m in typed] == [
                ("user", "Review src/a.py, looking for style and naming.")
            ]
            given = await manager.get_prompt("mcp__demo__review", {"path": "b.py"})
            assert given[0].text == "Review b.py, looking for bugs."
            named = await manager.get_prompt("mcp__demo__review", "focus=speed c.py")
            assert named[0].text == "Review c.py, looking for speed."
            with pytest.raises(ToolError, match="missing path"):
                await manager.get_prompt("mcp__demo__review", "")
            with pytest.raises(ToolError, match="No MCP prompt"):
                await manager.get_prompt("mcp__demo__nothing", "")

    anyio.run(go)


def test_content_annotations_are_kept() -> None:
    async def go() -> None:
        async with McpManager([demo_config()], settings=FAST) as manager:
            await manager.wait_ready()
            out = await call(McpToolSource(manager, base=[]), "mcp__demo__annotated", {})
            assert out.output.annotations == (
                {"audience": ["user"]},
                {"audience": ["assistant"], "priority": 0.9},
            )
            plain = await call(McpToolSource(manager, base=[]), "mcp__demo__echo", {"text": "x"})
            assert plain.output.annotations == ()

    anyio.run(go)


def test_the_client_advertises_roots_only() -> None:
    async def go() -> None:
        async with McpManager([demo_config()], settings=FAST) as manager:
            await manager.wait_ready()
            session = manager.connections["demo"].session
            assert session is not None
            caps = session._build_capabilities("2025-11-25")  # pyright: ignore[reportPrivateUsage]
            advertised = caps.model_dump(by_alias=True, exclude_none=True)
            assert advertised == {"roots": {"listChanged": True}}

    anyio.run(go)


def test_elicitation_goes_to_the_handler_and_the_hooks(tmp_path: Path) -> None:
    from hands.core.context import ToolContext
    from hands.core.session import Session
    from hands.hooks.config import parse_hooks
    from hands.hooks.engine import HookEngine
    from hands.mcp.elicitation import (
        ElicitationAnswer,
        ElicitationRequest,
        HookElicitation,
        decline_unless_hooked,
        with_hooks,
    )

    asked: list[ElicitationRequest] = []

    async def person(request: ElicitationRequest) -> ElicitationAnswer:
        asked.append(request)
        return ElicitationAnswer(action="accept", content={"name": "Ada"})

    log = tmp_path / "events.jsonl"
    record = f"cat >> {log}; echo >> {log}"
    answer = (
        'echo \'{"hookSpecificOutput": {"hookEventName": "Elicitation", '
        '"action": "accept", "content": {"name": "Hook"}}}\''
    )

    def hooks_for(*elicitation: str) -> HookElicitation:
        groups: dict[str, object] = {
            "ElicitationResult": [
                {"matcher": "demo", "hooks": [{"type": "command", "command": record}]}
            ]
        }
        if elicitation:
            groups["Elicitation"] = [
                {
                    "matcher": "demo",
                    "hooks": [{"type": "command", "command": c} for c in elicitation],
                }
            ]
        engine = HookEngine(parse_hooks([("test settings", groups)]), on_notice=lambda _t: None)
        assert not engine.warnings, engine.warnings
        return HookElicitation(engine, ToolContext(cwd=tmp_path, session=Session(home=tmp_path)))

    async def ask_with(handler: object) -> str:
        async with McpManager([demo_config()], settings=FAST, elicit=handler) as manager:  # type: ignore[arg-type]
            await manager.wait_ready()
            return (await call(McpToolSource(manager, base=[]), "mcp__demo__ask", {})).block.text

    async def go() -> None:
        assert await ask_with(person) == "accept:Ada"
        assert asked[0].server == "demo" and asked[0].message == "What is your name?"
        assert asked[0].requested_schema["properties"]["name"]["type"] == "string"
        # print mode: declined, unless an Elicitation hook answers
        assert await ask_with(decline_unless_hooked(hooks_for())) == "decline:"
        assert await ask_with(decline_unless_hooked(hooks_for(answer))) == "accept:Hook"
        assert await ask_with(with_hooks(hooks_for("exit 2"), person)) == "decline:"

    anyio.run(go)
    seen = [json.loads(line) for line in log.read_text().splitlines() if line.strip()]
    assert [(e["hook_event_name"], e["action"]) for e in seen] == [
        ("ElicitationResult", "decline"),
        ("ElicitationResult", "accept"),
        ("ElicitationResult", "decline"),
    ]
    assert seen[1]["content"] == {"name": "Hook"} and seen[1]["mcp_server_name"] == "demo"
