"""An agent file's own hooks: run inside its sub-agent only, and only when trusted."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest

from hands.agent.loop import QueryOptions, query
from hands.agent.subagents.catalog import AgentCatalog
from hands.agent.subagents.tool import AgentTool
from hands.config.trust import trust
from hands.core.messages import ToolResultBlock
from hands.orchestration.events import ToolResultEvent
from hands.pipeline.pool import pool_for

from .support import agent_call, routed, run_all, text

pytestmark = pytest.mark.anyio

GUARD = """\
import json, sys
data = json.load(sys.stdin)
with open(sys.argv[1], "a") as f:
    f.write(json.dumps(data) + "\\n")
if data["hook_event_name"] == "PreToolUse":
    print("guard: no shell in this agent", file=sys.stderr)
    sys.exit(2)
"""


def bash(command: str) -> dict[str, Any]:
    return {"type": "tool_use", "name": "Bash", "input": {"command": command}}


def guarded_project(tmp_path: Path) -> tuple[Path, Path, Path]:
    """A project with a ``guard`` agent whose PreToolUse hook refuses Bash."""
    project, home, log = tmp_path / "project", tmp_path / "home", tmp_path / "events.jsonl"
    (project / ".claude" / "agents").mkdir(parents=True)
    home.mkdir()
    script = tmp_path / "guard.py"
    script.write_text(GUARD)
    command = {"type": "command", "command": f"{sys.executable} {script} {log}"}
    front = {
        "name": "guard",
        "description": "Works without a shell.",
        "hooks": {
            "PreToolUse": [{"matcher": "Bash", "hooks": [command]}],
            "Stop": [{"hooks": [command]}],
        },
    }
    # JSON is YAML: the frontmatter is written as one JSON object
    (project / ".claude" / "agents" / "guard.md").write_text(
        f"---\n{json.dumps(front)}\n---\nYou work without a shell.\n"
    )
    return project, home, log


async def run_guarded(project: Path, catalog: AgentCatalog) -> list[str]:
    """The parent runs Bash, the guard agent runs Bash, the parent runs Bash again."""
    model = routed(
        [
            [bash("echo parent-before")],
            [agent_call("use the shell", subagent_type="guard")],
            [bash("echo parent-after")],
            [text("done")],
        ],
        {"use the shell": [[bash("echo inside")], [text("the shell was refused")]]},
    )
    options = QueryOptions(
        model=model,
        tools=pool_for(extra=[AgentTool(catalog)]),
        cwd=project,
        permission_mode="bypassPermissions",
    )
    events = await run_all(query("go", options))
    results = [e.outcome.block.text for e in events if isinstance(e, ToolResultEvent)]
    inner = model.routes["use the shell"].requests[1].messages  # type: ignore[attr-defined]
    answer = "".join(b.text for b in inner[-1].content if isinstance(b, ToolResultBlock))
    return [*results, answer]


async def test_a_trusted_agent_files_hook_blocks_a_call_inside_its_sub_agent_only(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    project, home, log = guarded_project(tmp_path)
    monkeypatch.setenv("HANDS_HOME", str(tmp_path / "hands-home"))
    trust(project)  # the workspace trust decision lets the project's file run hooks
    catalog = AgentCatalog.load(cwd=project, home=home)
    before, agent, after, inner = await run_guarded(project, catalog)
    assert "parent-before" in before and "parent-after" in after  # the parent's ran
    assert "guard: no shell in this agent" in inner  # the sub-agent's Bash was blocked
    assert "inside" not in inner.replace("echo inside", "")
    assert "the shell was refused" in agent
    seen = [json.loads(line) for line in log.read_text().splitlines()]
    # its PreToolUse fired once (inside), its Stop fired as SubagentStop
    assert [e["hook_event_name"] for e in seen] == ["PreToolUse", "SubagentStop"]
    assert seen[0]["tool_input"] == {"command": "echo inside"}
    assert seen[0]["agent_type"] == "guard"
    assert seen[1]["agent_type"] == "guard"


async def test_an_untrusted_project_agent_files_hooks_do_not_run(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    project, home, log = guarded_project(tmp_path)
    monkeypatch.setenv("HANDS_HOME", str(tmp_path / "hands-home"))
    catalog = AgentCatalog.load(cwd=project, home=home)
    # an untrusted project's agent files are project input: not loaded at all
    assert catalog.find("guard") is None and "guard" not in catalog.names
    assert not log.exists()
    trusted = AgentCatalog.load(cwd=project, home=home, trusted=True)
    assert trusted.find("guard") is not None and trusted.find("guard").trusted  # type: ignore[union-attr]


async def test_a_user_agent_file_is_trusted_without_a_workspace_decision(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    project, home, log = guarded_project(tmp_path)
    monkeypatch.setenv("HANDS_HOME", str(tmp_path / "hands-home"))
    (home / ".claude").mkdir()
    (project / ".claude" / "agents").rename(home / ".claude" / "agents")
    catalog = AgentCatalog.load(cwd=project, home=home)
    _, _, _, inner = await run_guarded(project, catalog)
    assert "guard: no shell in this agent" in inner
    assert log.exists()
