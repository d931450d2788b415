"""Workspace trust: a committed settings file loosens permissions only once trusted.

Real settings files in temp dirs, the trusted-workspaces file under the test's hands
home, the ``hands trust`` command, and ``hands -p`` end to end with a scripted model.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import typer
from typer.testing import CliRunner

from hands.cli.trust import trust_command
from hands.config.project_trust import decide_trust
from hands.config.settings import load_settings
from hands.config.trust import is_trusted, trust, trust_file, trusted_dirs, untrust
from support import rules_of, warnings_of


def write(path: Path, data: Any) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(data))
    return path


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    root = (tmp_path / "repo").resolve()
    (root / ".git").mkdir(parents=True)
    (root / "src").mkdir()
    (tmp_path / "shared").mkdir()
    return root


@pytest.fixture
def env(tmp_path: Path, hands_home: Path) -> dict[str, str]:
    return {
        "HOME": str(tmp_path / "home"),
        "HANDS_HOME": str(hands_home),
        "HANDS_MANAGED_SETTINGS": "",
    }


def committed(repo: Path) -> Path:
    return write(
        repo / ".claude" / "settings.json",
        {
            "permissions": {
                "allow": ["Bash(npm test)", "Bash(curl *)"],
                "ask": ["Bash(git push *)"],
                "deny": ["Read(.env)"],
                "additionalDirectories": ["../shared"],
                "defaultMode": "bypassPermissions",
            }
        },
    )


def texts(settings: Any, behavior: str) -> set[str]:
    return {r.text for r in rules_of(settings) if r.behavior == behavior}


def test_untrusted_project_allow_rules_and_directories_are_ignored_with_one_warning(
    repo: Path, env: dict[str, str]
) -> None:
    path = committed(repo)
    write(repo / ".hands" / "settings.json", {"permissions": {"allow": ["Bash(cargo test)"]}})
    write(repo / ".claude" / "settings.local.json", {"permissions": {"allow": ["Bash(make *)"]}})
    local = repo / ".claude" / "settings.local.json"
    s = load_settings(repo, env=env)
    # a repository can commit settings.local.json too: it waits for trust like the rest
    assert texts(s, "allow") == set()
    assert texts(s, "ask") == {"Bash(git push *)"} and texts(s, "deny") == {"Read(.env)"}
    assert s.additional_directories == () and s.default_mode == "default"
    trust_warnings = [w for w in warnings_of(s) if "not trusted" in w]
    assert len(trust_warnings) == 1, warnings_of(s)
    (warning,) = trust_warnings
    assert str(path) in warning and str(repo / ".hands" / "settings.json") in warning
    assert str(local) in warning
    assert "4 permissions.allow rules" in warning and "1 additionalDirectories entry" in warning
    assert "defaultMode bypassPermissions" in warning
    assert f"hands trust {repo}" in warning
    assert set(s.untrusted_files) == {str(path), str(repo / ".hands" / "settings.json"), str(local)}
    assert texts(load_settings(repo, env=env, trusted=True), "allow") >= {"Bash(make *)"}


def test_trusting_the_workspace_makes_them_count(repo: Path, env: dict[str, str]) -> None:
    committed(repo)
    assert trust(repo / "src", env) == repo  # the git root is the workspace
    assert trust_file(env) == Path(env["HANDS_HOME"]) / "trusted.json"
    assert json.loads(trust_file(env).read_text()) == {"trusted": [str(repo)]}
    s = load_settings(repo / "src", env=env)
    assert warnings_of(s) == ()
    s = load_settings(repo, env=env)
    assert texts(s, "allow") == {"Bash(npm test)", "Bash(curl *)"}
    assert s.additional_directories == ((repo.parent / "shared").resolve(),)
    assert s.default_mode == "bypassPermissions" and s.untrusted_files == ()
    assert untrust(repo, env) and not is_trusted(repo, env)
    assert texts(load_settings(repo, env=env), "allow") == set()


def test_a_trusted_parent_covers_its_children_and_only_them(
    tmp_path: Path, env: dict[str, str]
) -> None:
    projects = tmp_path / "projects"
    inside = projects / "a"
    outside = tmp_path / "elsewhere"
    for d in (inside, outside):
        write(d / ".claude" / "settings.json", {"permissions": {"allow": ["Bash(ls *)"]}})
    trust(projects, env)
    assert is_trusted(inside, env) and not is_trusted(outside, env)
    assert texts(load_settings(inside, env=env), "allow") == {"Bash(ls *)"}
    assert texts(load_settings(outside, env=env), "allow") == set()
    # an explicit answer wins over the file (library callers, tests)
    assert texts(load_settings(outside, env=env, trusted=True), "allow") == {"Bash(ls *)"}
    assert texts(load_settings(inside, env=env, trusted=False), "allow") == set()


def test_no_warning_when_the_project_file_loosens_nothing(repo: Path, env: dict[str, str]) -> None:
    write(repo / ".claude" / "settings.json", {"permissions": {"deny": ["Bash(rm *)"]}})
    s = load_settings(repo, env=env)
    assert warnings_of(s) == () and texts(s, "deny") == {"Bash(rm *)"}


def test_a_broken_trust_file_trusts_nothing(repo: Path, env: dict[str, str]) -> None:
    committed(repo)
    trust_file(env).parent.mkdir(parents=True, exist_ok=True)
    trust_file(env).write_text("{not json")
    assert trusted_dirs(env) == () and not is_trusted(repo, env)
    assert texts(load_settings(repo, env=env), "allow") == set()
    assert trust(repo, env) == repo and is_trusted(repo, env)


def test_the_trust_command(repo: Path, hands_home: Path) -> None:
    app = typer.Typer()
    app.command("trust")(trust_command)
    app.command("other")(lambda: None)  # a group, as when mounted on the hands CLI
    runner = CliRunner()
    done = runner.invoke(app, ["trust", str(repo / "src")])
    assert done.exit_code == 0, done.output
    assert f"Trusted {repo}" in done.output
    assert json.loads((hands_home / "trusted.json").read_text()) == {"trusted": [str(repo)]}
    listed = runner.invoke(app, ["trust", "--list"])
    assert listed.output.split() == [str(repo)]
    removed = runner.invoke(app, ["trust", str(repo), "--remove"])
    assert removed.exit_code == 0 and "No longer trusted" in removed.output
    assert runner.invoke(app, ["trust", "--list"]).output.strip() == ""
    missing = runner.invoke(app, ["trust", str(repo / "nope")])
    assert missing.exit_code != 0


def hands_p(repo: Path, script: Path, *extra: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "hands", "-p", "go", "--model", f"scripted:{script}", *extra],
        capture_output=True,
        text=True,
        cwd=repo,
        timeout=60,
    )


def touch_script(repo: Path) -> Path:
    """A scripted model that runs ``touch made.txt`` and then says done."""
    script = repo.parent / "s.json"
    call = {"type": "tool_use", "name": "Bash", "input": {"command": "touch made.txt"}}
    turns = [{"blocks": [call]}, {"blocks": [{"type": "text", "text": "done"}]}]
    script.write_text(json.dumps({"turns": turns}))
    return script


def test_print_mode_ignores_untrusted_allow_rules_with_a_warning(
    repo: Path, hands_home: Path
) -> None:
    """As Claude Code's ``-p``: no trust dialog, so a committed allow does not count."""
    write(repo / ".claude" / "settings.json", {"permissions": {"allow": ["Bash(touch *)"]}})
    script = touch_script(repo)
    proc = hands_p(repo, script)
    assert proc.returncode == 0, proc.stderr
    assert not (repo / "made.txt").exists()
    assert proc.stderr.count("ignored (untrusted") == 1
    assert "allow rule Bash(touch *)" in proc.stderr
    assert "hands trust" in proc.stderr and str(repo / ".claude" / "settings.json") in proc.stderr
    trust(repo)
    proc = hands_p(repo, script)
    assert proc.returncode == 0, proc.stderr
    assert (repo / "made.txt").exists() and "ignored" not in proc.stderr


def hooked(repo: Path, made: Path, **extra: Any) -> Path:
    """A committed settings file whose SessionStart hook creates ``made``."""
    hook = {"hooks": [{"type": "command", "command": f"touch {made}"}]}
    return write(repo / ".claude" / "settings.json", {"hooks": {"SessionStart": [hook]}, **extra})


def test_untrusted_project_hooks_env_and_server_approvals_wait_for_trust(
    repo: Path, env: dict[str, str]
) -> None:
    from hands.hooks.config import config_from_settings

    made = repo.parent / "HOOK_RAN"
    path = hooked(repo, made, env={"API_URL": "x"}, enableAllProjectMcpServers=True)
    s = load_settings(repo, env=env)
    assert config_from_settings(s).handlers_for("SessionStart", "startup") == []
    assert s.env == {} and s.value("enableAllProjectMcpServers") is None
    (waiting,) = s.untrusted
    assert waiting.label == str(path) and waiting.hooks == (f"SessionStart: touch {made}",)
    assert waiting.env == ("API_URL",) and waiting.mcp_servers == ("*",)
    (warning,) = [w for w in warnings_of(s) if "not trusted" in w]
    assert "1 hook command" in warning and "1 env variable" in warning
    trusted = load_settings(repo, env=env, trusted=True)
    assert len(config_from_settings(trusted).handlers_for("SessionStart", "startup")) == 1
    assert trusted.value("enableAllProjectMcpServers") is True and trusted.untrusted == ()
    # settings.local.json is project input too until the folder is trusted
    path.unlink()
    hook = {"hooks": [{"type": "command", "command": "true"}]}
    write(repo / ".claude" / "settings.local.json", {"hooks": {"SessionStart": [hook]}})
    s = load_settings(repo, env=env)
    assert len(s.untrusted) == 1 and not config_from_settings(s).handlers_for("SessionStart", "x")
    s = load_settings(repo, env=env, trusted=True)
    assert len(config_from_settings(s).handlers_for("SessionStart", "x")) == 1


def test_the_trust_question_lists_what_would_run(repo: Path, env: dict[str, str]) -> None:
    from hands.cli.trust_question import trust_text

    made = repo.parent / "HOOK_RAN"
    write(repo / ".mcp.json", {"mcpServers": {"tools": {"command": "serve-tools", "args": ["-v"]}}})
    hooked(
        repo,
        made,
        env={"API_URL": "x", "TOKEN": "y"},
        enabledMcpjsonServers=["tools"],
        permissions={"allow": ["Bash(curl *)"], "additionalDirectories": ["../shared"]},
    )
    text = trust_text(decide_trust(repo, env=env))
    assert f"touch {made}" in text and "API_URL" in text and "TOKEN" in text
    assert "tools: serve-tools -v" in text
    assert "Bash(curl *)" in text and "../shared" in text


def test_print_mode_never_runs_an_untrusted_projects_hooks_and_names_each(
    repo: Path, hands_home: Path
) -> None:
    made = repo.parent / "HOOK_RAN"
    hooked(repo, made)
    script = repo.parent / "s.json"
    script.write_text(json.dumps({"turns": [{"blocks": [{"type": "text", "text": "hi"}]}]}))
    proc = hands_p(repo, script)
    assert proc.returncode == 0, proc.stderr
    assert not made.exists()
    assert f"ignored (untrusted {repo}): hook SessionStart: touch {made}" in proc.stderr
    proc = hands_p(repo, script, "--trust")
    assert proc.returncode == 0, proc.stderr
    assert made.exists() and "ignored" not in proc.stderr


LOOSE_SANDBOX = {
    "enabled": True,
    "autoAllowBashIfSandboxed": True,
    "allowUnsandboxedCommands": True,
    "excludedCommands": ["docker", "npm run"],
    "network": {"allowedDomains": ["127.0.0.1"], "deniedDomains": ["evil.example"]},
    "filesystem": {"allowWrite": ["/"]},
    "weakerNestedSandbox": True,
}


def bash_settings(s: Any) -> Any:
    from hands.core.session import Session
    from hands.pipeline.settings import install_settings

    return install_settings(Session(), s).sandbox


def test_untrusted_sandbox_settings_only_tighten_until_trusted(
    repo: Path, env: dict[str, str]
) -> None:
    write(repo / ".claude" / "settings.json", {"sandbox": LOOSE_SANDBOX})
    s = load_settings(repo, env=env)
    (waiting,) = s.untrusted
    listed = "\n".join(waiting.loosens)
    for entry in ("docker, npm run", "127.0.0.1", "allowWrite /", "autoAllowBashIfSandboxed"):
        assert entry in listed
    assert "allowUnsandboxedCommands" in listed and "weakerNestedSandbox" in listed
    assert "evil.example" not in listed  # a denied domain only tightens
    (warning,) = [w for w in warnings_of(s) if "not trusted" in w]
    assert f"{len(waiting.loosens)} loosening settings" in warning
    box = bash_settings(s)
    assert box.enabled and not box.auto_allow  # on, but each command asks
    assert box.excluded_commands == () and box.allowed_domains == () and box.allow_write == ()
    assert box.denied_domains == ("evil.example",)
    trusted = bash_settings(load_settings(repo, env=env, trusted=True))
    assert trusted.auto_allow and trusted.excluded_commands == ("docker", "npm run")
    assert trusted.allowed_domains == ("127.0.0.1",) and trusted.allow_write == ("/",)


def test_a_sandbox_the_user_turned_on_keeps_its_auto_approval_beside_an_untrusted_project(
    repo: Path, env: dict[str, str]
) -> None:
    write(Path(env["HANDS_HOME"]) / "settings.json", {"sandbox": {"enabled": True}})
    write(repo / ".claude" / "settings.json", {"sandbox": {"enabled": False}})
    s = load_settings(repo, env=env)
    (waiting,) = s.untrusted
    assert waiting.loosens == ("sandbox.enabled false (commands run outside the sandbox)",)
    box = bash_settings(s)
    assert box.enabled and box.auto_allow  # the project cannot turn the user's sandbox off
    assert not bash_settings(load_settings(repo, env=env, trusted=True)).enabled


def test_the_trust_question_lists_sandbox_loosening(repo: Path, env: dict[str, str]) -> None:
    from hands.cli.trust_question import trust_text

    write(repo / ".claude" / "settings.json", {"sandbox": LOOSE_SANDBOX})
    text = trust_text(decide_trust(repo, env=env))
    assert "sandbox.excludedCommands docker, npm run (run outside the sandbox)" in text
    assert "sandboxed commands run without asking" in text


def test_print_mode_ignores_an_untrusted_sandbox_auto_approval_with_a_warning(
    repo: Path, hands_home: Path
) -> None:
    write(repo / ".claude" / "settings.json", {"sandbox": {"enabled": True}})
    script = touch_script(repo)
    proc = hands_p(repo, script)
    assert proc.returncode == 0, proc.stderr
    assert not (repo / "made.txt").exists()  # asked, and print mode cannot ask
    assert "ignored (untrusted" in proc.stderr and "setting sandbox.enabled" in proc.stderr
    trust(repo)
    proc = hands_p(repo, script)
    assert proc.returncode == 0, proc.stderr
    assert (repo / "made.txt").exists()  # sandboxed and auto-approved once trusted


def test_an_untrusted_project_cannot_widen_the_mcp_server_allow_list(
    repo: Path, env: dict[str, str]
) -> None:
    mine, theirs = {"serverName": "github"}, {"serverName": "exfil"}
    user = {"allowedMcpServers": [mine], "deniedMcpServers": [{"serverName": "bad"}]}
    write(Path(env["HANDS_HOME"]) / "settings.json", user)
    project = {"allowedMcpServers": [theirs], "deniedMcpServers": [{"serverName": "worse"}]}
    write(repo / ".claude" / "settings.json", project)
    s = load_settings(repo, env=env)
    assert s.value("allowedMcpServers") == [mine]
    assert s.value("deniedMcpServers") == [{"serverName": "worse"}, {"serverName": "bad"}]
    (waiting,) = s.untrusted
    assert waiting.loosens == (
        'allowedMcpServers {"serverName":"exfil"} (MCP servers that may run)',
    )
    trusted = load_settings(repo, env=env, trusted=True)
    assert trusted.value("allowedMcpServers") == [theirs, mine]
