"""``hands mcp serve`` over stdio, driven by the MCP Inspector's command-line mode."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from conformance.harness import INSPECTOR, node_env, package_bin

pytestmark = [pytest.mark.slow, pytest.mark.timeout(600)]  # the first run installs the npm package

LAUNCH = "import sys; from hands.cli.mcp import mcp_app; sys.argv[0] = 'hands mcp'; mcp_app()"


def test_inspector_cli_over_stdio(tmp_path: Path) -> None:
    project = tmp_path / "project"
    (project / ".claude").mkdir(parents=True)
    (project / ".claude" / "settings.json").write_text(
        json.dumps({"permissions": {"deny": ["Read(./secret.txt)"]}})
    )
    (project / "notes.txt").write_text("some notes\n")
    (project / "secret.txt").write_text("top secret\n")
    inspector = package_bin(INSPECTOR)
    env = node_env({"HANDS_HOME": str(tmp_path / "home"), "HOME": str(tmp_path)})

    serve = [sys.executable, "-c", LAUNCH, "serve", "--cwd", str(project)]

    def inspect(*method: str) -> tuple[int, Any, str]:
        done = subprocess.run(
            [*inspector, "--cli", *serve, "--method", *method],
            env=env,
            capture_output=True,
            text=True,
            timeout=90,
            check=False,
        )
        parsed: Any = json.loads(done.stdout) if done.returncode == 0 else None
        return done.returncode, parsed, done.stdout + done.stderr

    code, tools, out = inspect("tools/list")
    assert code == 0, out
    assert {"Read", "Glob", "Bash"} <= {t["name"] for t in tools["tools"]}

    code, listed, out = inspect("resources/list")
    assert code == 0, out
    names = {r["name"] for r in listed["resources"]}
    assert "notes.txt" in names and "secret.txt" not in names

    notes = (project / "notes.txt").resolve().as_uri()
    code, read, out = inspect("resources/read", "--uri", notes)
    assert code == 0, out
    assert read["contents"] == [{"uri": notes, "mimeType": "text/plain", "text": "some notes\n"}]

    secret = (project / "secret.txt").resolve().as_uri()
    code, _, out = inspect("resources/read", "--uri", secret)
    assert code != 0 and "permission rules" in out and "top secret" not in out

    code, prompts, out = inspect("prompts/list")
    assert code == 0 and prompts == {"prompts": []}, out
