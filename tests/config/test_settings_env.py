"""The settings files' ``env`` block: merged, gated by workspace trust, applied."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from hands.config.settings import CliPermissionArgs, load_settings
from paths import SETTINGS_FIXTURES, needs_claude_configs
from support import warnings_of

FIXTURES = SETTINGS_FIXTURES


def write(path: Path, data: object) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(data))


def project_with_env(tmp_path: Path) -> tuple[Path, dict[str, str]]:
    project = tmp_path / "proj"
    home = tmp_path / "home"
    home.mkdir()
    write(project / ".claude" / "settings.json", {"env": {"A": "project", "B": 1, "C": True}})
    write(project / ".claude" / "settings.local.json", {"env": {"A": "local"}})
    write(home / ".claude" / "settings.json", {"env": {"D": "user", "A": "user"}})
    env = {"HOME": str(home), "HANDS_MANAGED_SETTINGS": str(tmp_path / "none.json")}
    return project, env


def test_env_merges_strongest_first_and_writes_values_out(tmp_path: Path) -> None:
    project, env = project_with_env(tmp_path)
    settings = load_settings(project, env=env, trusted=True)
    assert settings.env == {"A": "local", "B": "1", "C": "true", "D": "user"}


def test_an_untrusted_projects_committed_env_is_ignored_with_a_warning(tmp_path: Path) -> None:
    project, env = project_with_env(tmp_path)
    env["HANDS_HOME"] = str(tmp_path / "hands-home")  # trusts nothing
    settings = load_settings(project, env=env)
    # a repository can commit settings.local.json too: only the user's file counts
    assert settings.env == {"A": "user", "D": "user"}
    assert any("3 env variables" in w and "not trusted" in w for w in warnings_of(settings))


def test_apply_env_sets_the_process_environment(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    project, env = project_with_env(tmp_path)
    monkeypatch.delenv("D", raising=False)
    monkeypatch.setenv("A", "before")
    applied = load_settings(project, env=env, trusted=True).apply_env()
    assert applied["A"] == os.environ["A"] == "local" and os.environ["D"] == "user"


def test_hands_tool_runs_with_the_env_block_and_its_limits(tmp_path: Path) -> None:
    project = tmp_path / "proj"
    write(
        project / ".claude" / "settings.local.json",
        {"env": {"FROM_SETTINGS": "it works", "BASH_DEFAULT_TIMEOUT_MS": "1000"}},
    )

    def bash(command: str, *extra: str) -> subprocess.CompletedProcess[str]:
        data = json.dumps({"command": command})
        return subprocess.run(
            [sys.executable, "-m", "hands", "tool", "Bash", data, "--cwd", str(project), *extra],
            capture_output=True,
            text=True,
            timeout=60,
        )

    untrusted = bash('echo "[$FROM_SETTINGS]"')
    assert untrusted.returncode == 0 and untrusted.stdout.strip() == "[]"
    assert "env FROM_SETTINGS" in untrusted.stderr and "pass --trust" in untrusted.stderr
    shown = bash('echo "[$FROM_SETTINGS]"', "--trust")
    assert shown.returncode == 0 and shown.stdout.strip() == "[it works]"
    slow = bash("sleep 10", "--trust")
    assert slow.returncode == 1 and "Killed when its 1s timeout ran out" in slow.stderr


@needs_claude_configs
def test_every_fixtures_env_block_is_read(tmp_path: Path) -> None:
    with_env = 0
    for path in sorted(FIXTURES.glob("*.json")):
        raw = json.loads(path.read_text()).get("env")
        if not isinstance(raw, dict):
            continue
        with_env += 1
        project = tmp_path / path.stem
        project.mkdir()
        settings = load_settings(
            project,
            cli=CliPermissionArgs(settings=str(path)),
            env={"HOME": str(tmp_path / "home"), "HANDS_MANAGED_SETTINGS": ""},
        )
        expected = {k: str(v) for k, v in raw.items() if isinstance(v, str | int | float)}
        assert settings.env == expected, path.name
    assert with_env >= 12


def test_a_settings_model_alias_is_resolved(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from hands.cli.session_setup import prepare

    project = tmp_path / "proj"
    write(project / ".claude" / "settings.local.json", {"model": "opus"})
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.setenv("ANTHROPIC_API_KEY", "test-key")
    monkeypatch.delenv("ANTHROPIC_MODEL", raising=False)
    monkeypatch.delenv("HANDS_MODEL", raising=False)
    setup = prepare(model_spec=None, cwd=project, settings=load_settings(project, trusted=True))
    assert setup.model.name == "anthropic:claude-opus-4-6"
    assert "settings' model" not in capsys.readouterr().err
    write(project / ".claude" / "settings.local.json", {"model": "claude-opus-4-7"})
    setup = prepare(model_spec=None, cwd=project, settings=load_settings(project, trusted=True))
    assert setup.model.name == "anthropic:claude-opus-4-7"
    assert "alias" not in capsys.readouterr().err
