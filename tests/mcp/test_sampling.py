"""A server's ``sampling/createMessage``, served by the session's model after approval.

The server is a real SDK server (``servers/asker.py``) whose tool calls
``ctx.session.create_message``; the session's model is a scripted one, which serves
the sample as its next turn.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import anyio
from mcp_helpers import SERVERS

from hands.agent.events import ResultEvent, ToolResultEvent
from hands.agent.loop import QueryOptions, query
from hands.core.messages import Message, TextBlock
from hands.core.session import Session
from hands.mcp.config import parse_server
from hands.mcp.manager import McpManager
from hands.mcp.sampling import SamplingReply, SamplingRequest, model_sampler
from hands.mcp.setup import start_mcp
from hands.models.scripted import ScriptedModel

ASKER = SERVERS / "asker.py"
FLAGS = ("--output-format", "stream-json", "--verbose", "--permission-mode", "bypassPermissions")


def _project(tmp_path: Path, **entry: Any) -> Path:
    project = tmp_path / "project"
    project.mkdir(parents=True)
    server = {"command": sys.executable, "args": [str(ASKER)], **entry}
    (project / ".mcp.json").write_text(json.dumps({"mcpServers": {"asker": server}}))
    return project


def _asker(**entry: Any) -> Any:
    return parse_server(
        "asker", {"command": sys.executable, "args": [str(ASKER)], **entry}, env=os.environ
    )


async def _run(model: ScriptedModel, project: Path, approve: Any) -> list[str]:
    session = Session(home=project / "home")
    source = start_mcp(project, session=session, base=[], sampling=approve)
    await source.manager.wait_ready(limit=30)
    options = QueryOptions(
        model=model, tools=source, cwd=project, permission_mode="bypassPermissions", session=session
    )
    results: list[str] = []
    final: ResultEvent | None = None
    try:
        async for event in query("go", options):
            if isinstance(event, ToolResultEvent):
                content = event.outcome.block.content
                results.append(content if isinstance(content, str) else str(content))
            if isinstance(event, ResultEvent):
                final = event
    finally:
        await session.aclose()
    assert final is not None and final.subtype == "success"
    return results


def test_sampling_through_the_agent_loop_after_approval(tmp_path: Path) -> None:
    project = _project(tmp_path)
    asked: list[SamplingRequest] = []

    async def approve(request: SamplingRequest) -> bool:
        asked.append(request)
        return True

    model = ScriptedModel.from_turns(
        [
            {
                "type": "tool_use",
                "name": "mcp__asker__summarize",
                "input": {"text": "a very long text", "max_tokens": 55},
            }
        ],
        [{"type": "text", "text": "a short summary"}],  # the sample
        [{"type": "text", "text": "done"}],
    )
    results = anyio.run(_run, model, project, approve)
    assert json.loads(results[0]) == {
        "text": "a short summary",
        "model": "scripted",
        "stop": "endTurn",
    }
    (request,) = asked
    assert request.server == "asker" and request.max_tokens == 55
    assert "a very long text" in request.prompt_text()
    sample = model.requests[1]
    assert sample.max_tokens == 55  # the server's cap
    assert sample.system == "Summarize in one line."
    assert [m.to_wire() for m in sample.messages] == [
        {"role": "user", "content": [{"type": "text", "text": "a very long text"}]}
    ]
    assert sample.tools == ()
    assert len(model.requests) == 3


def test_a_declined_sample_never_reaches_the_model(tmp_path: Path) -> None:
    project = _project(tmp_path)

    async def refuse(request: SamplingRequest) -> bool:
        return False

    model = ScriptedModel.from_turns(
        [{"type": "tool_use", "name": "mcp__asker__summarize", "input": {"text": "t"}}],
        [{"type": "text", "text": "done"}],
    )
    results = anyio.run(_run, model, project, refuse)
    assert results[0].startswith("refused: Sampling request declined")
    assert len(model.requests) == 2


def test_sampling_is_advertised_only_when_served(tmp_path: Path) -> None:
    async def reply(request: SamplingRequest) -> SamplingReply:
        return SamplingReply(text="x", model="m")

    async def caps(manager: McpManager) -> dict[str, Any]:
        await manager.wait_ready(limit=30)
        result = await manager.call_tool("asker", "caps", {}, lambda _: None)
        (block,) = result.content
        assert isinstance(block, TextBlock)
        return json.loads(block.text)

    async def go() -> None:
        async with McpManager([_asker()]) as bare:
            assert (await caps(bare))["sampling"] is False
        async with McpManager([_asker()], sample=reply) as served:
            assert (await caps(served))["sampling"] is True
        async with McpManager([_asker(sampling="off")], sample=reply) as off:
            assert (await caps(off))["sampling"] is False
        nobody = McpManager([_asker()], sample=reply)
        nobody.sample_can_ask = False  # print mode: only "auto" servers
        async with nobody:
            assert (await caps(nobody))["sampling"] is False
        auto = McpManager([_asker(sampling="auto")], sample=reply)
        auto.sample_can_ask = False
        async with auto:
            assert (await caps(auto))["sampling"] is True

    anyio.run(go)


def test_model_sampler_caps_tokens_and_maps_stop_reasons() -> None:

    model = ScriptedModel(
        {"turns": [{"blocks": [{"type": "text", "text": "cut"}], "stop_reason": "max_tokens"}]}
    )

    async def yes(request: SamplingRequest) -> bool:
        return True

    request = SamplingRequest(
        server="s",
        messages=(Message(role="user", content=(TextBlock(text="hi"),)),),
        max_tokens=10**9,
        temperature=0.2,
        stop_sequences=("END",),
    )
    reply = anyio.run(model_sampler(lambda: model, yes), request)
    assert reply == SamplingReply(text="cut", model="scripted", stop_reason="maxTokens")
    (sent,) = model.requests
    assert sent.max_tokens == 32_000
    assert sent.extra == {"temperature": 0.2, "stop_sequences": ["END"]}


def _print_mode(project: Path, tmp_path: Path) -> str:
    script = tmp_path / "script.json"
    turns = [
        {"blocks": [{"type": "tool_use", "name": "mcp__asker__summarize", "input": {"text": "t"}}]},
        {"blocks": [{"type": "text", "text": "sampled in print mode"}]},
        {"blocks": [{"type": "text", "text": "done"}]},
    ]
    script.write_text(json.dumps({"turns": turns}))
    env = {**os.environ, "HOME": str(tmp_path), "HANDS_HOME": str(tmp_path / "hh")}
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "hands",
            "-p",
            "go",
            "--trust",
            "--cwd",
            str(project),
            *FLAGS,
            "--model",
            f"scripted:{script}",
        ],
        capture_output=True,
        text=True,
        timeout=90,
        env=env,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    for line in done.stdout.splitlines():
        event = json.loads(line)
        if event.get("type") == "user":
            return str(event["message"]["content"][0]["content"])
    raise AssertionError(done.stdout)


def test_print_mode_serves_only_auto_approved_servers(tmp_path: Path) -> None:
    auto = _print_mode(_project(tmp_path / "a", sampling="auto"), tmp_path / "a")
    assert json.loads(auto)["text"] == "sampled in print mode"
    asks = _print_mode(_project(tmp_path / "b"), tmp_path / "b")
    assert asks.startswith("refused:")
