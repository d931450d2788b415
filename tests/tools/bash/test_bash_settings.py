"""Bash settings from the settings files: merged sandbox objects and WebFetch domains."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from hands.config.sandbox import merged_sandbox
from hands.config.settings import Settings, load_settings
from hands.core.session import Session
from hands.permissions.domains import NetworkDomains
from hands.pipeline.settings import install_settings
from hands.tools.bash._settings import BashSettings


def local_settings(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, data: object) -> Settings:
    """The settings of a project whose settings.local.json holds ``data``."""
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    project = tmp_path / "project"
    (project / ".claude").mkdir(parents=True)
    (project / ".claude" / "settings.local.json").write_text(json.dumps(data))
    return load_settings(project, trusted=True)


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
    settings = local_settings(
        tmp_path,
        monkeypatch,
        {
            "sandbox": {"enabled": True, "network": {"allowedDomains": ["github.com"]}},
            "permissions": {
                "allow": ["WebFetch(domain:docs.python.org)"],
                "deny": ["WebFetch(domain:evil.example)"],
            },
            "bashBackgroundOnTimeout": True,
        },
    )
    session = Session()
    bash = install_settings(session, settings)
    assert session.service(BashSettings) is bash
    assert bash.sandbox.enabled and bash.background_on_timeout
    assert bash.sandbox.allowed_domains == ("github.com", "docs.python.org")
    assert bash.sandbox.denied_domains == ("evil.example",)
    assert session.service(NetworkDomains) == NetworkDomains(
        allowed=("github.com", "docs.python.org"), denied=("evil.example",)
    )


def test_only_webfetch_domain_rules_open_the_network(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # another tool's rule of the same shape (an MCP server's fetch, a user tool, a glob)
    # is that tool's permission, never a door through the sandbox's proxy
    settings = local_settings(
        tmp_path,
        monkeypatch,
        {
            "permissions": {
                "allow": [
                    "mcp__web__fetch(domain:internal.example)",
                    "MyFetcher(domain:10.0.0.5)",
                    "mcp__*(domain:glob.example)",
                    "Bash(domain:bash.example)",
                    "WebFetch(domain:docs.python.org)",
                ],
                "deny": ["mcp__web__fetch(domain:kept-open.example)"],
            }
        },
    )
    session = Session()
    bash = install_settings(session, settings)
    assert bash.sandbox.allowed_domains == ("docs.python.org",)
    assert bash.sandbox.denied_domains == ()
    assert session.service(NetworkDomains).opened_hosts == {"docs.python.org"}


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
