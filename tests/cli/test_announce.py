"""The user is told at start about bad settings files and bad permission rules."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from hands.cli.args import announce_warnings
from hands.config.settings import load_settings


def test_bad_rules_and_unknown_tools_are_announced(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    project = tmp_path / "p"
    (project / ".claude").mkdir(parents=True)
    path = project / ".claude" / "settings.local.json"
    path.write_text(
        json.dumps(
            {
                "permissions": {
                    "allow": ["Bash(ls", "WebFetch(https://x.com)", "Read(src/**)"],
                    "deny": ["Frobnicate", "KillShell", "Grep(a\u0000b)"],
                },
            }
        )
    )
    env = {"HOME": str(tmp_path / "home"), "HANDS_MANAGED_SETTINGS": ""}
    announce_warnings(load_settings(project, env=env, trusted=True))
    lines = capsys.readouterr().err.splitlines()
    assert all(line.startswith("hands: warning: ") for line in lines)
    text = "\n".join(lines)
    assert f"{path}: permission rule 'Bash(ls': unbalanced parentheses" in text
    assert "WebFetch rules take domain:HOST" in text
    assert "unknown tool 'Frobnicate'" in text
    assert "KillShell" not in text  # TaskStop's legacy name is known
    assert "'Grep(a\\x00b)'" in text  # Grep's own path rules are checked by its declaration
    assert len(lines) == 4, lines
