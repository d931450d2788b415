"""The command's start-up shortcut never leaks into the commands it runs."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path


def run_bash(tmp_path: Path, env: dict[str, str]) -> str:
    proc = subprocess.run(
        [sys.executable, "-m", "hands", "tool", "Bash",
         json.dumps({"command": "echo \"[${PYDANTIC_DISABLE_PLUGINS-unset}]\""}),
         "--cwd", str(tmp_path), "--permission-mode", "bypassPermissions"],
        capture_output=True, text=True, timeout=60, env=env,
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    return proc.stdout.strip()


def test_the_plugin_switch_is_gone_before_tools_run(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if k != "PYDANTIC_DISABLE_PLUGINS"}
    assert run_bash(tmp_path, env) == "[unset]"


def test_a_value_the_user_set_is_kept(tmp_path: Path) -> None:
    env = {**os.environ, "PYDANTIC_DISABLE_PLUGINS": "logfire"}
    assert run_bash(tmp_path, env) == "[logfire]"
