"""One scripted agent run that every framework adapter must carry through hands.

The run reads and greps a project, sends an Edit with a missing field (a validation
error the model sees), fixes the bug with a valid Edit (allowed by a rule of the
project's settings file), tries ``rm -rf`` (a PreToolUse hook of the same file blocks
it), calls an MCP server's tool, and then runs a command the permission engine asks
about: the run pauses for approval and resumes.
"""

from __future__ import annotations

import json
import sys
from collections.abc import AsyncIterator, Mapping
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from mcp_helpers import demo_config

from hands.adapters.toolbox import Toolbox
from hands.mcp.config import McpSettings
from hands.mcp.manager import McpManager
from hands.mcp.source import McpToolSource

BUG = "def add(a, b):\n    return a - b\n"
FIXED = "def add(a, b):\n    return a + b\n"
MAKE_FILE = "python3 -c \"open('made.txt', 'w').write('x')\""

_HOOK = """
import json, sys
call = json.load(sys.stdin)
if "rm -rf" in call["tool_input"].get("command", ""):
    print("rm -rf is not allowed in this project", file=sys.stderr)
    sys.exit(2)
"""


@dataclass(frozen=True, kw_only=True)
class Step:
    """One tool call of the scripted model."""

    id: str
    name: str
    input: Mapping[str, Any]


@dataclass(frozen=True, kw_only=True)
class Project:
    root: Path

    @property
    def calc(self) -> Path:
        return self.root / "calc.py"

    @property
    def made(self) -> Path:
        return self.root / "made.txt"


def make_project(tmp_path: Path) -> Project:
    """A project with a bug, an allow rule for Edit and the MCP tool, and a blocking hook."""
    root = tmp_path / "project"
    (root / ".claude").mkdir(parents=True)
    (root / "calc.py").write_text(BUG)
    hook = root / ".claude" / "block_rm.py"
    hook.write_text(_HOOK)
    settings = {
        "permissions": {"allow": ["Edit", "mcp__demo__echo"]},
        "hooks": {
            "PreToolUse": [
                {
                    "matcher": "Bash",
                    "hooks": [{"type": "command", "command": f"{sys.executable} {hook}"}],
                }
            ]
        },
    }
    (root / ".claude" / "settings.local.json").write_text(json.dumps(settings))
    return Project(root=root)


def turns(project: Project) -> list[list[Step]]:
    """The model's tool calls, message by message; the last message is plain text."""
    calc = str(project.calc)
    return [
        [
            Step(id="c1", name="Read", input={"file_path": calc}),
            Step(id="c2", name="Grep", input={"pattern": "return", "path": str(project.root)}),
        ],
        [Step(id="c3", name="Edit", input={"file_path": calc, "old_string": "a - b"})],
        [
            Step(
                id="c4",
                name="Edit",
                input={"file_path": calc, "old_string": "a - b", "new_string": "a + b"},
            )
        ],
        [Step(id="c5", name="Bash", input={"command": "rm -rf build"})],
        [Step(id="c6", name="mcp__demo__echo", input={"text": "hello from mcp"})],
        [Step(id="c7", name="Bash", input={"command": MAKE_FILE})],
    ]


def check_before_approval(project: Project, seen: Mapping[str, tuple[str, bool]]) -> None:
    """What the model saw for calls c1–c6 (text, is_error), and the files."""
    assert "return a - b" in seen["c1"][0] and not seen["c1"][1]
    assert "calc.py" in seen["c2"][0] and not seen["c2"][1]
    text, is_error = seen["c3"]
    assert is_error and "new_string" in text
    assert not seen["c4"][1]
    assert project.calc.read_text() == FIXED
    text, is_error = seen["c5"]
    assert is_error and "rm -rf is not allowed in this project" in text
    assert seen["c6"] == ("hello from mcp", False)
    assert not project.made.exists()  # the command that needs approval has not run


@asynccontextmanager
async def toolbox_with_mcp(project: Project) -> AsyncIterator[Toolbox]:
    """A toolbox over the built-ins plus a real MCP server's tools, trusted project."""
    async with McpManager([demo_config()], settings=McpSettings(startup_timeout_s=15)) as manager:
        await manager.wait_ready()
        from hands.config.settings import load_settings
        from hands.permissions.policy import engine_for
        from hands.pipeline.pool import BuiltinGrammar, pool_for

        settings = load_settings(project.root, trusted=True)
        engine = engine_for(settings, grammar=BuiltinGrammar())
        source = McpToolSource(manager, base=pool_for(engine), policy=engine)
        box = Toolbox(cwd=project.root, tools=source, settings=settings, policy=engine)
        try:
            yield box
        finally:
            await box.aclose()


@asynccontextmanager
async def toolbox_with_deferred_mcp(project: Project) -> AsyncIterator[Toolbox]:
    """As :func:`toolbox_with_mcp`, with the MCP tools deferred behind ToolSearch."""
    from hands.discovery.deferral import DeferringSource

    async with toolbox_with_mcp(project) as box:
        inner = box._source  # pyright: ignore[reportPrivateUsage]
        assert inner is not None
        source = DeferringSource(inner, mode="on", policy=box.policy)
        yield Toolbox(
            cwd=project.root,
            tools=source,
            settings=box.settings,
            policy=box.policy,
            session=box.session,
        )


FIND_ECHO = Step(id="d1", name="ToolSearch", input={"query": "select:mcp__demo__echo"})
CALL_ECHO = Step(id="d2", name="mcp__demo__echo", input={"text": "found"})


def project_with_counting_hook(tmp_path: Path) -> tuple[Path, Path]:
    """A project whose PreToolUse hook logs each Bash command it sees; (root, the log)."""
    root = tmp_path / "project"
    (root / ".claude").mkdir(parents=True)
    log = tmp_path / "hook.log"
    hook = root / ".claude" / "count.py"
    hook.write_text(
        "import json, sys\n"
        f"open({str(log)!r}, 'a').write(json.load(sys.stdin)['tool_input']['command'] + '\\n')\n"
    )
    settings = {
        "hooks": {
            "PreToolUse": [
                {
                    "matcher": "Bash",
                    "hooks": [{"type": "command", "command": f"{sys.executable} {hook}"}],
                }
            ]
        }
    }
    (root / ".claude" / "settings.local.json").write_text(json.dumps(settings))
    return root, log
