"""The README's scripted-model sample runs as shown: the same file, the same commands,
the same output."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

from paths import REPO


def _section() -> str:
    text = (REPO / "README.md").read_text()
    start = text.index("A scripted model (`--model scripted:FILE`")
    return text[start : text.index("\n### ", start)]


def test_the_readme_script_sample_runs_through_print_mode(tmp_path: Path) -> None:
    section = _section()
    (tmp_path / "session.json").write_text(re.findall(r"```json\n(.*?)```", section, re.S)[0])
    console = re.findall(r"```console\n(.*?)```", section, re.S)[0].splitlines()
    env = {**os.environ, "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}"}
    shown: list[str] = []
    printed: list[str] = []
    for line in console:
        if not line.startswith("$ "):
            shown.append(line)
            continue
        run = subprocess.run(
            ["bash", "-c", line[2:]], cwd=tmp_path, env=env, capture_output=True, text=True,
            timeout=120,
        )  # fmt: skip
        assert run.returncode == 0, run.stderr
        printed += run.stdout.splitlines()
    assert printed == shown == ["notes.txt has 3 lines."]
    # the Bash call of the script ran for real: its result is the file's line count
    stream = subprocess.run(
        [sys.executable, "-m", "hands", "-p", "how long?", "--model", "scripted:session.json",
         "--output-format", "stream-json", "--verbose"],
        cwd=tmp_path, capture_output=True, text=True, timeout=120, check=True,
    )  # fmt: skip
    results = [
        block
        for line in stream.stdout.splitlines()
        if (event := json.loads(line))["type"] == "user"
        for block in event["message"]["content"]
        if block.get("type") == "tool_result"
    ]
    assert [(r["content"], r["is_error"]) for r in results] == [("3", False)]
