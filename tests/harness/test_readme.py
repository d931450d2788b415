"""The README's Harness example runs as written, with the project's settings, hook,
MCP server and the ask callback."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

from scratch import LOG_HOOK, hook_calls, with_demo_server, write

from paths import REPO


def example() -> str:
    text = (REPO / "README.md").read_text()
    start = text.index("### The CLI's session, in a program: `Harness`")
    found = re.findall(r"```python\n(.*?)```", text[start:], flags=re.DOTALL)
    return found[0]


def test_the_harness_example_applies_settings_hooks_mcp_and_asks(tmp_path: Path) -> None:
    from hands.config.trust import trust

    project = tmp_path / "project"
    write(
        project / ".claude" / "settings.json",
        {"permissions": {"ask": ["Bash(echo:*)"]}, "hooks": LOG_HOOK},
    )
    with_demo_server(project)
    trust(project)
    script = tmp_path / "example.py"
    script.write_text(example())
    run = subprocess.run(
        [sys.executable, str(script)], cwd=project, capture_output=True, text=True, timeout=120
    )
    assert run.returncode == 0, run.stderr
    assert run.stdout.split() == ["asked:", "Bash", "asked:", "mcp__demo__echo", "done"]
    assert (project / "hello.txt").read_text() == "hi\n"
    assert hook_calls(project) == ["Bash", "mcp__demo__echo"]
