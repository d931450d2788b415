"""Bash settings from the settings files: merged sandbox objects and WebFetch domains."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from hands.config.settings import load_settings
from hands.core.session import Session
from hands.tools.bash._settings import BashSettings, install, merged_sandbox


def test_sandbox_objects_merge_scalars_by_strength_and_join_lists() -> None:
    user = {"sandbox": {"enabled": False, "network": {"allowedDomains": ["pypi.org"]}}}
    project = {
        "sandbox": {
            "enabled": True,
            "excludedCommands": ["docker"],
            "network": {"allowedDomains": ["github.com", "pypi.org"]},
        }
    }
    merged = merged_sandbox([user, project])
    assert merged["enabled"] is True
    assert merged["network"]["allowedDomains"] == ["pypi.org", "github.com"]
    assert merged["excludedCommands"] == ["docker"]
    assert merged_sandbox([{"sandbox": "nonsense"}, {}]) == {}


def test_a_session_gets_the_settings_files_sandbox_and_webfetch_domains(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    project = tmp_path / "project"
    (project / ".claude").mkdir(parents=True)
    (project / ".claude" / "settings.local.json").write_text(
        json.dumps(
            {
                "sandbox": {"enabled": True, "network": {"allowedDomains": ["github.com"]}},
                "permissions": {
                    "allow": ["WebFetch(domain:docs.python.org)"],
                    "deny": ["WebFetch(domain:evil.example)"],
                },
                "bashBackgroundOnTimeout": True,
            }
        )
    )
    session = Session()
    bash = install(session, load_settings(project, trusted=True))
    assert session.service(BashSettings) is bash
    assert bash.sandbox.enabled and bash.background_on_timeout
    assert bash.sandbox.allowed_domains == ("github.com", "docs.python.org")
    assert bash.sandbox.denied_domains == ("evil.example",)


@pytest.mark.skipif(shutil.which("bwrap") is None, reason="bubblewrap (bwrap) is not installed")
def test_hands_tool_runs_bash_in_the_sandbox_the_settings_ask_for(tmp_path: Path) -> None:
    project = tmp_path / "project"
    (project / ".claude").mkdir(parents=True)
    outside = Path(tempfile.mkdtemp(prefix="hands-settings-"))
    try:
        command = json.dumps({"command": f"touch {outside / 'made'}"})

        def run() -> subprocess.CompletedProcess[str]:
            return subprocess.run(
                [sys.executable, "-m", "hands", "tool", "Bash", command, "--cwd", str(project)],
                capture_output=True,
                text=True,
                timeout=60,
            )

        local = project / ".claude" / "settings.local.json"
        local.write_text(json.dumps({"sandbox": {"enabled": True}}))
        sandboxed = run()
        assert sandboxed.returncode == 1 and not (outside / "made").exists()
        assert "own empty /tmp" in sandboxed.stderr or "No such file" in sandboxed.stderr
        local.write_text(json.dumps({"sandbox": {"enabled": False}}))
        plain = run()
        assert plain.returncode == 0, plain.stderr
        assert (outside / "made").exists()
    finally:
        shutil.rmtree(outside)
