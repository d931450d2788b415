"""``--plugin-dir`` (the SDK's ``plugins``) through the real Python SDK: a Claude Code plugin
folder's commands, agents, skills, hooks and MCP servers, in a trusted workspace only."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
from claude_agent_sdk import ResultMessage, SystemMessage, ToolResultBlock, UserMessage

from cli.sdk.kit import options, refused_line, run, scripted, text, tool_use

pytestmark = pytest.mark.anyio

DEMO_SERVER = Path(__file__).resolve().parents[2] / "mcp" / "servers" / "demo.py"
TRUST: dict[str, str | None] = {"trust": None}


def _plugin(root: Path) -> Path:
    """A plugin ``notes`` with one of each part; its hook blocks Bash and leaves a mark."""
    plugin = root / "notes-plugin"
    files = {
        ".claude-plugin/plugin.json": json.dumps({"name": "notes", "version": "1.2.0"}),
        "commands/hello.md": "---\ndescription: greet someone\n---\nSay hello to $ARGUMENTS.\n",
        "agents/scribe.md": "---\nname: scribe\ndescription: writes notes\n---\nYou write.\n",
        "skills/tidy/SKILL.md": "---\nname: tidy\ndescription: tidy files\n---\nTIDY-STEPS\n",
        "hooks/block.sh": 'touch "$1/hook-ran"\necho "the notes plugin blocks Bash" >&2\nexit 2\n',
        "hooks/hooks.json": json.dumps(
            {
                "hooks": {
                    "PreToolUse": [
                        {
                            "matcher": "Bash",
                            "hooks": [
                                {
                                    "type": "command",
                                    "command": "sh ${CLAUDE_PLUGIN_ROOT}/hooks/block.sh "
                                    "${CLAUDE_PLUGIN_ROOT}",
                                }
                            ],
                        }
                    ]
                }
            }
        ),
        ".mcp.json": json.dumps(
            {"mcpServers": {"demo": {"command": sys.executable, "args": [str(DEMO_SERVER)]}}}
        ),
    }
    for name, content in files.items():
        path = plugin / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(content)
    return plugin


async def test_a_plugins_parts_load_in_a_trusted_workspace(tmp_path: Path) -> None:
    plugin = _plugin(tmp_path)
    model = scripted(
        tmp_path,
        [tool_use("Bash", command="echo hi")],
        [tool_use("Skill", skill="notes:tidy")],
        [text("done")],
    )
    opts = options(
        tmp_path,
        model,
        plugins=[{"type": "local", "path": str(plugin)}],
        extra_args=TRUST,
        allowed_tools=["Bash", "Skill"],
    )
    messages = await run("go", opts)
    init = messages[0]
    assert isinstance(init, SystemMessage) and init.subtype == "init"
    assert init.data["plugins"] == [
        {"name": "notes", "path": str(plugin), "source": "notes@inline", "version": "1.2.0"}
    ]
    assert "notes:tidy" in init.data["skills"] and "notes:hello" in init.data["skills"]
    assert "notes:scribe" in init.data["agents"]
    sources = {s["name"]: s.get("source") for s in init.data["mcp_servers"]}
    assert sources.get("plugin:notes:demo") == "plugin"
    results = [
        block.content
        for m in messages
        if isinstance(m, UserMessage) and isinstance(m.content, list)
        for block in m.content
        if isinstance(block, ToolResultBlock)
    ]
    assert "the notes plugin blocks Bash" in str(results[0])
    assert (plugin / "hook-ran").exists()  # ${CLAUDE_PLUGIN_ROOT} was the plugin's folder
    assert "TIDY-STEPS" in str(results[1])
    assert isinstance(messages[-1], ResultMessage) and not messages[-1].is_error


async def test_an_untrusted_workspace_loads_nothing_of_a_plugin(tmp_path: Path) -> None:
    plugin = _plugin(tmp_path)
    model = scripted(tmp_path, [tool_use("Bash", command="echo ran")], [text("done")])
    errors: list[str] = []
    opts = options(
        tmp_path,
        model,
        plugins=[{"type": "local", "path": str(plugin)}],
        allowed_tools=["Bash"],
        stderr=errors.append,
    )
    messages = await run("go", opts)
    init = messages[0]
    assert isinstance(init, SystemMessage)
    assert init.data["plugins"] == [] and "notes:tidy" not in init.data["skills"]
    assert "plugin:notes:demo" not in [s["name"] for s in init.data["mcp_servers"]]
    assert not (plugin / "hook-ran").exists()
    assert [e for e in errors if "plugin notes" in e and "not trusted" in e]
    assert isinstance(messages[-1], ResultMessage) and not messages[-1].is_error


async def test_a_folder_of_plugins_loads_each(tmp_path: Path) -> None:
    folder = tmp_path / "many"
    for name in ("alpha", "beta"):
        skill = folder / name / "skills" / "s" / "SKILL.md"
        skill.parent.mkdir(parents=True)
        skill.write_text(f"---\nname: s\ndescription: {name}'s skill\n---\nbody\n")
    model = scripted(tmp_path, [text("done")])
    opts = options(tmp_path, model, extra_args={"plugin-dir": str(folder), **TRUST})
    init = (await run("go", opts))[0]
    assert isinstance(init, SystemMessage)
    assert [p["name"] for p in init.data["plugins"]] == ["alpha", "beta"]
    assert {"alpha:s", "beta:s"} <= set(init.data["skills"])


@pytest.mark.parametrize(
    ("flags", "said_"),
    [
        (["--plugin-dir", "missing"], "--plugin-dir missing: no such directory"),
        (["--plugin-dir", "."], "--plugin-dir .: no plugin there"),
    ],
)
def test_a_plugin_dir_that_is_no_plugin_is_one_line_and_exit_2(
    tmp_path: Path, flags: list[str], said_: str
) -> None:
    assert said_ in refused_line(tmp_path, flags)
