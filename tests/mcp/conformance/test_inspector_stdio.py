"""``hands mcp serve`` over stdio, driven by the MCP Inspector's command-line mode.

Each request is its own Inspector run (a node process and a server); they are separate
tests so that parallel workers can share them out.
"""

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


class Inspector:
    """The Inspector against ``hands mcp serve`` in a project that denies one file."""

    def __init__(self, tmp_path: Path) -> None:
        self.project = tmp_path / "project"
        (self.project / ".claude").mkdir(parents=True)
        (self.project / ".claude" / "settings.json").write_text(
            json.dumps({"permissions": {"deny": ["Read(./secret.txt)"]}})
        )
        (self.project / "notes.txt").write_text("some notes\n")
        (self.project / "secret.txt").write_text("top secret\n")
        self.env = node_env({"HANDS_HOME": str(tmp_path / "home"), "HOME": str(tmp_path)})

    def uri(self, name: str) -> str:
        return (self.project / name).resolve().as_uri()

    def __call__(self, *method: str) -> tuple[int, Any, str]:
        serve = [sys.executable, "-c", LAUNCH, "serve", "--cwd", str(self.project)]
        done = subprocess.run(
            [*package_bin(INSPECTOR), "--cli", *serve, "--method", *method],
            env=self.env,
            capture_output=True,
            text=True,
            timeout=90,
            check=False,
        )
        parsed: Any = json.loads(done.stdout) if done.returncode == 0 else None
        return done.returncode, parsed, done.stdout + done.stderr


@pytest.fixture
def inspect(tmp_path: Path) -> Inspector:
    return Inspector(tmp_path)


def test_the_inspector_lists_the_tools(inspect: Inspector) -> None:
    code, tools, out = inspect("tools/list")
    assert code == 0, out
    assert {"Read", "Glob", "Bash"} <= {t["name"] for t in tools["tools"]}


def test_the_inspector_lists_the_files_the_rules_let_it_read(inspect: Inspector) -> None:
    code, listed, out = inspect("resources/list")
    assert code == 0, out
    names = {r["name"] for r in listed["resources"]}
    assert "notes.txt" in names and "secret.txt" not in names


def test_the_inspector_reads_an_allowed_file(inspect: Inspector) -> None:
    notes = inspect.uri("notes.txt")
    code, read, out = inspect("resources/read", "--uri", notes)
    assert code == 0, out
    assert read["contents"] == [{"uri": notes, "mimeType": "text/plain", "text": "some notes\n"}]


def test_the_inspector_cannot_read_a_denied_file(inspect: Inspector) -> None:
    code, _, out = inspect("resources/read", "--uri", inspect.uri("secret.txt"))
    assert code != 0 and "permission rules" in out and "top secret" not in out


def test_the_inspector_lists_no_prompts(inspect: Inspector) -> None:
    code, prompts, out = inspect("prompts/list")
    assert code == 0 and prompts == {"prompts": []}, out
