"""The README's Harness example runs as written: the project's settings rules from the
README's JSON, the Python hook and the ask callback."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

from paths import REPO


def _blocks(language: str) -> list[str]:
    text = (REPO / "README.md").read_text()
    start = text.index("### The CLI's session, in a program: `Harness`")
    section = text[start : text.index("\n## ", start)]
    return re.findall(rf"```{language}\n(.*?)```", section, flags=re.DOTALL)


def test_the_harness_example_applies_the_rules_a_python_hook_and_the_ask(tmp_path: Path) -> None:
    project = tmp_path / "project"
    (project / ".claude").mkdir(parents=True)
    (project / ".claude" / "settings.json").write_text(_blocks("json")[0])
    script = tmp_path / "example.py"
    script.write_text(_blocks("python")[0])
    run = subprocess.run(
        [sys.executable, str(script)], cwd=project, capture_output=True, text=True,
        timeout=120,
    )  # fmt: skip
    assert run.returncode == 0, run.stderr
    # the ask rule reached the callback, the hook saw the echo only, the deny rule held
    assert run.stdout.splitlines() == ["asked: Bash", "ran: echo hi > hello.txt", "done"]
    assert (project / "hello.txt").read_text() == "hi\n"
    # the README says what it prints
    readme = (REPO / "README.md").read_text()
    assert "It prints `asked: Bash`, `ran: echo hi > hello.txt` and `done`." in readme
