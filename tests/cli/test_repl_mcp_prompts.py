"""An MCP server's prompts as REPL slash commands: ``/mcp__server__prompt args``."""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path

from hands.config.trust import trust
from terminal import Terminal, launch, script


def test_an_mcp_prompt_is_a_slash_command_whose_text_is_the_turn(
    terminal: Terminal, tmp_path: Path, hands_home: Path
) -> None:
    demo = Path(__file__).parents[1] / "mcp" / "servers" / "demo.py"
    project = tmp_path / "project"
    (project / ".claude").mkdir(parents=True)
    (project / ".mcp.json").write_text(
        json.dumps({"mcpServers": {"demo": {"command": sys.executable, "args": [str(demo)]}}})
    )
    (project / ".claude" / "settings.local.json").write_text(
        json.dumps({"enabledMcpjsonServers": ["demo"]})
    )
    s = script(tmp_path / "s.json", [{"blocks": [{"type": "text", "text": "reviewed it"}]}])
    trust(project, {"HANDS_HOME": str(hands_home)})  # the server comes from the project
    launch(terminal, project, hands_home, s, user_home=tmp_path)
    terminal.wait_for("(/help")
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:  # the server connects in the background
        terminal.send("/mcp", "Enter")
        time.sleep(0.5)
        if "/mcp__demo__review <path> [focus]" in terminal.screen():
            break
    assert "/mcp__demo__review <path> [focus]" in terminal.screen()
    terminal.send("/mcp__demo__review", "Enter")
    terminal.wait_for("missing path")
    terminal.send("/mcp__demo__review src/a.py naming", "Enter")
    terminal.wait_for("reviewed it")
    terminal.send("/exit", "Enter")
    terminal.wait_for("HANDS-EXITED-0")
    transcripts = list(hands_home.rglob("*.jsonl"))
    said = "\n".join(p.read_text() for p in transcripts)
    assert "Review src/a.py, looking for naming." in said
