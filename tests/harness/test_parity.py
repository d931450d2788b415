"""The same scratch project through every front end: the same decisions, hooks, env and
tools, except where the front end's ``FrontEnd`` value says otherwise.

Each front end runs the same five calls in the project: a Read the settings deny, a Bash
``printenv`` of the settings' env variable (read-only: allowed), a Bash ``echo`` the
settings ask about, a Write the settings' ``defaultMode`` (acceptEdits) allows once the
workspace is trusted, and the echo tool of the project's ``.mcp.json`` server (a real
stdio server), which the settings approve and allow. What each call did is read from its
effect (its output, the file it wrote), so the front ends are compared on what happened,
not on their wording. The framework adapters run through their real frameworks with each
framework's own test model; ``hands batch`` runs one session through the local pool.
"""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import anyio
import pytest
from framework_runs import run_batch, run_langgraph, run_openai_agents, run_pydantic_ai
from scratch import (
    CALLS,
    ENV_NAME,
    MCP_SAID,
    MCP_TOOL,
    Seen,
    calls_in,
    hook_calls,
    scratch_project,
    write,
)

from hands.core.decision import AskRequest, PermissionDecision, deny
from hands.core.messages import ToolUseBlock
from hands.harness import Harness
from hands.harness.front_ends import ADAPTER, LIBRARY, MCP_SERVE, PRINT, REPL, TOOL, FrontEnd


class Recorder:
    """An ask handler that notes the question and says no (the user declined)."""

    def __init__(self) -> None:
        self.asked: list[str] = []

    async def __call__(self, request: AskRequest) -> PermissionDecision:
        self.asked.append(request.tool.name)
        return deny("the user said no", "user")


def block(i: int, name: str, data: dict[str, Any]) -> ToolUseBlock:
    return ToolUseBlock(id=f"toolu_parity_{i}", name=name, input=data)


async def servers_ready(harness: Harness) -> None:
    """Connect the project's MCP servers (as a query would) and wait for them."""
    harness.start()
    if harness.mcp is not None:
        await harness.mcp.wait_ready()


def run_library(project: Path) -> Seen:
    recorder = Recorder()

    async def go() -> Seen:
        async with Harness.open(project, ask=recorder) as harness:
            await servers_ready(harness)
            texts = [
                (await harness.run_tool_use(block(i, n, d))).block.text
                for i, (n, d) in enumerate(calls_in(project))
            ]
            return Seen(texts=texts, asked=recorder.asked, tools=list(harness.pool.names))

    return anyio.run(go)


def run_repl_session(project: Path, tmp_path: Path) -> Seen:
    from hands.cli.session_setup import prepare
    from hands.config.settings import CliPermissionArgs

    script = tmp_path / "script.json"
    script.write_text(json.dumps({"turns": [{"blocks": [{"type": "text", "text": "ok"}]}]}))
    setup = prepare(
        model_spec=f"scripted:{script}",
        cwd=project,
        settings=CliPermissionArgs(),
        interactive=True,
    )
    recorder = Recorder()

    async def go() -> Seen:
        harness = setup.harness
        try:
            await servers_ready(harness)
            texts = [
                (
                    await harness.run_tool_use(
                        block(i, n, d), runtime=harness.runtime(ask=recorder)
                    )
                ).block.text
                for i, (n, d) in enumerate(calls_in(project))
            ]
        finally:
            await harness.aclose()
        return Seen(texts=texts, asked=recorder.asked, tools=list(setup.pool.names))

    return anyio.run(go)


def run_print(project: Path, tmp_path: Path) -> Seen:
    turns: list[dict[str, Any]] = [
        {"blocks": [{"type": "tool_use", "name": n, "input": d}]} for n, d in calls_in(project)
    ]
    turns.append({"blocks": [{"type": "text", "text": "done"}]})
    script = tmp_path / "script.json"
    script.write_text(json.dumps({"turns": turns}))
    proc = subprocess.run(
        [
            *(sys.executable, "-m", "hands", "-p", "go"),
            *("--model", f"scripted:{script}", "--output-format", "stream-json"),
        ],
        cwd=project,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode == 0, proc.stderr
    lines = [json.loads(line) for line in proc.stdout.splitlines()]
    texts: list[str] = []
    for line in lines:
        if line["type"] == "user":
            for part in line["message"]["content"]:
                content = part["content"]
                texts.append(
                    content
                    if isinstance(content, str)
                    else "\n".join(c.get("text", "") for c in content)
                )
    init = lines[0]
    servers = {s["name"]: s["status"] for s in init["mcp_servers"]}
    # the scratch project's server comes from its .mcp.json, trusted or not
    assert {s["source"] for s in init["mcp_servers"]} == {"project"}, init["mcp_servers"]
    return Seen(texts=texts, asked=[], tools=list(init["tools"]), servers=servers)


def run_tool_command(project: Path) -> Seen:
    texts: list[str] = []
    for name, data in calls_in(project):
        proc = subprocess.run(
            [sys.executable, "-m", "hands", "tool", name, json.dumps(data), "--json"],
            cwd=project,
            capture_output=True,
            text=True,
            timeout=60,
        )
        # input that does not validate: one line on stderr, exit 2
        texts.append(json.dumps(json.loads(proc.stdout)["content"]) if proc.stdout else proc.stderr)
    return Seen(texts=texts, asked=[], tools=None)


def run_mcp_serve(project: Path) -> Seen:
    from hands.cli.args import settings_for
    from hands.cli.mcp_serve import build_bridge

    bridge = build_bridge(cwd=project, settings=settings_for(project, None, None, None, None, None))

    async def go() -> Seen:
        texts: list[str] = []
        try:
            for name, data in calls_in(project):
                blocks, _failed = await bridge.call(name, data)
                texts.append("\n".join(getattr(b, "text", "") for b in blocks))
        finally:
            await bridge.session.aclose()
        return Seen(texts=texts, asked=[], tools=[t.name for t in bridge.tool_list()])

    return anyio.run(go)


def run_toolbox(project: Path) -> Seen:
    from hands.adapters.toolbox import Toolbox

    async def go() -> Seen:
        asked: list[str] = []
        texts: list[str] = []
        async with Toolbox(cwd=project) as box:
            for name, data in calls_in(project):
                result = await box.call(name, data)
                if result.pending is not None:
                    asked.append(result.pending.tool_name)
                texts.append(result.text)
            tools = box.pool().names
        return Seen(texts=texts, asked=asked, tools=list(tools))

    return anyio.run(go)


@dataclass(frozen=True)
class Case:
    """A front end, how to run the calls through it, and what its FrontEnd value implies."""

    front_end: FrontEnd
    run: Callable[[Path, Path, bool], Seen]
    reaches_mcp: bool
    """A trusted project's approved servers start: the front end reads project servers,
    or (``hands tool``) starts the one server the call names, as print mode approves it."""
    mode_named: bool = False
    """The front end names the mode itself (a batch task's ``acceptEdits``)."""


def case(front_end: FrontEnd, run: Callable[[Path, Path, bool], Seen], **kw: Any) -> Case:
    reaches = front_end.project_servers != "off"
    return Case(front_end=front_end, run=run, reaches_mcp=kw.pop("reaches_mcp", reaches), **kw)


CASES: dict[str, Case] = {
    "library": case(LIBRARY, lambda p, t, _: run_library(p)),
    "repl-session": case(REPL, lambda p, t, _: run_repl_session(p, t)),
    "print": case(PRINT, lambda p, t, _: run_print(p, t)),
    "batch": case(PRINT, lambda p, t, trusted: run_batch(p, t, trusted=trusted), mode_named=True),
    "tool": case(TOOL, lambda p, t, _: run_tool_command(p), reaches_mcp=True),
    "mcp-serve": case(MCP_SERVE, lambda p, t, _: run_mcp_serve(p)),
    "adapter-toolbox": case(ADAPTER, lambda p, t, _: run_toolbox(p)),
    "pydantic-ai": case(ADAPTER, lambda p, t, _: run_pydantic_ai(p)),
    "openai-agents": case(ADAPTER, lambda p, t, _: run_openai_agents(p)),
    "langgraph": case(ADAPTER, lambda p, t, _: run_langgraph(p)),
}


@pytest.mark.parametrize("trusted", [True, False], ids=["trusted", "untrusted"])
@pytest.mark.parametrize("front", list(CASES))
def test_every_front_end_gives_the_same_session(
    front: str, trusted: bool, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from hands.config.trust import trust

    monkeypatch.setenv(ENV_NAME, "before")
    monkeypatch.delenv(ENV_NAME)  # the settings' env block sets it; the test puts it back
    home = tmp_path / "home"
    # the user's own settings (trusted wherever they are) let printenv run
    write(home / ".claude" / "settings.json", {"permissions": {"allow": ["Bash(printenv:*)"]}})
    monkeypatch.setenv("HOME", str(home))
    project = scratch_project(tmp_path)
    if trusted:
        trust(project)
    chosen = CASES[front]
    front_end = chosen.front_end
    seen = chosen.run(project, tmp_path, trusted)
    where = seen.where or project

    read, env, echo, _write, mcp, invalid = seen.texts
    ran_when_asked = front_end.asks == "command_line"
    mcp_ran = trusted and chosen.reaches_mcp
    assert "password" not in read  # deny rule: everywhere, trusted or not
    assert ("from-settings" in env) == trusted  # the env block applies once trusted
    assert ("asked-42" in echo) == ran_when_asked  # the ask rule (the output, not the call)
    made = trusted or ran_when_asked or chosen.mode_named  # defaultMode
    assert (where / "made.txt").exists() == made
    assert (MCP_SAID in mcp) == mcp_ran  # the project's server: started, approved, allowed
    expected_asks = ["Bash"] if trusted else ["Bash", "Write"]
    if front_end.asks in ("callback", "user", "framework") and front not in ("print", "batch"):
        assert seen.asked == expected_asks
    assert "command" in invalid and "Traceback" not in invalid  # reported, for the model
    hooked = [name for name, _ in CALLS[:-1] if name != MCP_TOOL or mcp_ran]
    assert hook_calls(where) == (hooked if trusted else [])
    if seen.servers is not None:  # announced before the first request: started, with tools
        assert (seen.servers.get("demo") == "connected") == mcp_ran, seen.servers
        assert seen.tools is not None and (MCP_TOOL in seen.tools) == mcp_ran
    if seen.tools is not None:
        assert {"Bash", "Read", "Write"} <= set(seen.tools)
        assert ("Agent" in seen.tools) == front_end.delegates
