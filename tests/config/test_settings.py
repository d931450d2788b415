"""Settings sources and precedence, with real files in temporary directories."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import anyio
import pytest

from hands.config.settings import CliPermissionArgs, Settings, add_local_allow_rules, load_settings
from hands.config.trust import trust
from hands.core.decision import PermissionDecision
from hands.pipeline.pool import assemble_pool
from support import engine_of, rules_of, warnings_of


@pytest.fixture
def dirs(tmp_path: Path) -> tuple[Path, Path, dict[str, str]]:
    project = tmp_path / "proj"
    home = tmp_path / "home"
    project.mkdir()
    home.mkdir()
    env = {"HOME": str(home), "HANDS_MANAGED_SETTINGS": str(tmp_path / "managed.json")}
    trust(project, env)  # these tests are about precedence; trust has its own tests
    return project.resolve(), home.resolve(), env


def write(path: Path, data: Any) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(data if isinstance(data, str) else json.dumps(data))
    return path


def perms(**block: Any) -> dict[str, Any]:
    return {"permissions": block}


def decide(s: Settings, tool: str, data: dict[str, Any], mode: Any = None) -> PermissionDecision:
    found = assemble_pool().find(tool)
    assert found is not None
    ctx = s.context()
    if mode is not None:
        ctx = ctx.with_changes(permission_mode=mode)
    engine = engine_of(s)

    async def go() -> PermissionDecision:
        return await engine.decide(found, found.parse_input(data), ctx)

    return anyio.run(go)


def test_every_source_is_read_and_lists_merge(dirs: tuple[Path, Path, dict[str, str]]) -> None:
    project, home, env = dirs
    write(Path(env["HANDS_MANAGED_SETTINGS"]), perms(deny=["Bash(shutdown:*)"]))
    write(project / ".claude" / "settings.local.json", perms(allow=["Bash(make:*)"]))
    write(project / ".claude" / "settings.json", perms(allow=["Bash(npm test)"]))
    write(project / ".hands" / "settings.json", perms(allow=["Bash(cargo test)"]))
    write(home / ".claude" / "settings.json", perms(allow=["Bash(go test)"]))
    write(home / ".hands" / "settings.json", perms(ask=["Bash(git push:*)"]))
    cli = CliPermissionArgs(
        allowed_tools=["Bash(uv run:*),Read"],
        disallowed_tools=["WebFetch"],
        settings='{"permissions": {"allow": ["Bash(tox)"]}}',
    )
    s = load_settings(project, cli=cli, env=env)
    scopes = [src.scope for src in s.sources]
    assert scopes == [
        "managed",
        "cliArg",
        "cliArg",
        "cliArg",
        "localSettings",
        "projectSettings",
        "projectSettings",
        "userSettings",
        "userSettings",
    ]
    texts = {r.text: r.origin.label for r in rules_of(s)}
    for rule in ("Bash(make:*)", "Bash(npm test)", "Bash(cargo test)", "Bash(go test)",
                 "Bash(uv run:*)", "Read", "Bash(tox)", "WebFetch", "Bash(shutdown:*)",
                 "Bash(git push:*)"):  # fmt: skip
        assert rule in texts, rule
    assert texts["WebFetch"] == "--disallowedTools"
    assert texts["Bash(tox)"] == "--settings"
    json_cli = CliPermissionArgs(settings='{"permissions": {"allow": ["npm run *"]}}')
    warned = warnings_of(load_settings(project, cli=json_cli, env=env))
    assert any("--settings: permission rule 'npm run *'" in w for w in warned)
    assert warnings_of(s) == ()
    assert decide(s, "Bash", {"command": "go test"}).behavior == "allow"
    assert decide(s, "Bash", {"command": "git push"}).behavior == "ask"
    assert engine_of(s).denies_tool("WebFetch")


def test_deny_anywhere_beats_allow_anywhere(dirs: tuple[Path, Path, dict[str, str]]) -> None:
    project, home, env = dirs
    write(home / ".claude" / "settings.json", perms(deny=["Bash(git push:*)"]))
    write(project / ".claude" / "settings.local.json", perms(allow=["Bash(git push:*)"]))
    cli = CliPermissionArgs(allowed_tools=["Bash"])
    s = load_settings(project, cli=cli, env=env)
    d = decide(s, "Bash", {"command": "git push origin main"})
    assert d.behavior == "deny" and d.source == str(home / ".claude" / "settings.json")


def test_managed_ask_is_not_overridden_by_user_allow(
    dirs: tuple[Path, Path, dict[str, str]],
) -> None:
    project, home, env = dirs
    write(Path(env["HANDS_MANAGED_SETTINGS"]), perms(ask=["Bash(kubectl:*)"]))
    write(home / ".claude" / "settings.json", perms(allow=["Bash(kubectl:*)"]))
    s = load_settings(project, env=env)
    assert decide(s, "Bash", {"command": "kubectl apply -f x"}).behavior == "ask"


def test_scalar_keys_take_the_strongest_source(dirs: tuple[Path, Path, dict[str, str]]) -> None:
    project, home, env = dirs
    write(
        home / ".claude" / "settings.json", {"permissions": {"defaultMode": "plan"}, "model": "u"}
    )
    write(
        project / ".claude" / "settings.json",
        {"permissions": {"defaultMode": "acceptEdits"}, "model": "p"},
    )
    s = load_settings(project, env=env)
    assert s.default_mode == "acceptEdits" and s.value("model") == "p"
    s = load_settings(project, cli=CliPermissionArgs(permission_mode="dontAsk"), env=env)
    assert s.default_mode == "dontAsk" and s.mode_source == "--permission-mode"
    write(Path(env["HANDS_MANAGED_SETTINGS"]), perms(defaultMode="default"))
    s = load_settings(project, cli=CliPermissionArgs(permission_mode="dontAsk"), env=env)
    assert s.default_mode == "default"


def test_mode_alias_and_unknown_mode(dirs: tuple[Path, Path, dict[str, str]]) -> None:
    project, _, env = dirs
    write(project / ".claude" / "settings.json", perms(defaultMode="manual"))
    assert load_settings(project, env=env).default_mode == "default"
    write(project / ".claude" / "settings.json", perms(defaultMode="auto"))
    s = load_settings(project, env=env)
    assert s.default_mode == "default" and any(
        "'auto' is not supported" in w for w in warnings_of(s)
    )


def test_disable_bypass_holds_from_a_weaker_source(dirs: tuple[Path, Path, dict[str, str]]) -> None:
    project, home, env = dirs
    write(home / ".claude" / "settings.json", perms(disableBypassPermissionsMode="disable"))
    write(project / ".claude" / "settings.local.json", perms(defaultMode="bypassPermissions"))
    s = load_settings(project, env=env)
    assert s.disable_bypass and s.default_mode == "default"
    assert decide(s, "Bash", {"command": "./x.sh"}, mode="bypassPermissions").behavior == "ask"


def test_managed_only_rules(dirs: tuple[Path, Path, dict[str, str]]) -> None:
    project, _, env = dirs
    write(
        Path(env["HANDS_MANAGED_SETTINGS"]),
        perms(allowManagedPermissionRulesOnly=True, allow=["Bash(ls:*)"]),
    )
    write(project / ".claude" / "settings.json", perms(allow=["Bash(make:*)"]))
    s = load_settings(project, env=env)
    assert [r.text for r in rules_of(s)] == ["Bash(ls:*)"]
    assert any("allowManagedPermissionRulesOnly" in w for w in warnings_of(s))


def test_additional_directories_and_add_dir(dirs: tuple[Path, Path, dict[str, str]]) -> None:
    project, home, env = dirs
    (project.parent / "shared").mkdir()
    (home / "notes").mkdir()
    write(project / ".claude" / "settings.json", perms(additionalDirectories=["../shared"]))
    write(home / ".claude" / "settings.json", perms(additionalDirectories=["~/notes"]))
    s = load_settings(project, cli=CliPermissionArgs(add_dirs=["/opt/nowhere"]), env=env)
    assert s.additional_directories == (
        project.parent / "shared",
        home / "notes",
        Path("/opt/nowhere"),
    )
    assert any("/opt/nowhere does not exist" in w for w in warnings_of(s))
    assert decide(s, "Read", {"file_path": str(home / "notes" / "a.md")}).behavior == "allow"
    assert s.context().additional_dirs == s.additional_directories


def test_slash_rules_are_relative_to_their_source(dirs: tuple[Path, Path, dict[str, str]]) -> None:
    project, home, env = dirs
    write(project / ".claude" / "settings.json", perms(deny=["Read(/secret.txt)"]))
    write(home / ".claude" / "settings.json", perms(deny=["Read(/user-secret.txt)"]))
    s = load_settings(project, env=env)
    assert decide(s, "Read", {"file_path": str(project / "secret.txt")}).behavior == "deny"
    assert decide(s, "Read", {"file_path": str(project / "sub" / "secret.txt")}).behavior == "allow"
    d = decide(s, "Read", {"file_path": str(home / ".claude" / "user-secret.txt")})
    assert d.behavior == "deny"


def test_local_settings_at_the_git_root(dirs: tuple[Path, Path, dict[str, str]]) -> None:
    project, _, env = dirs
    (project / ".git").mkdir()
    sub = project / "backend"
    sub.mkdir()
    write(project / ".claude" / "settings.local.json", perms(allow=["Bash(make:*)"]))
    write(sub / ".claude" / "settings.json", perms(allow=["Bash(go build)"]))
    s = load_settings(sub, env=env)
    assert {r.text for r in rules_of(s)} == {"Bash(make:*)", "Bash(go build)"}


@pytest.mark.parametrize(
    ("content", "fragment"),
    [
        ("{\n  not json", "(line 2, column 3): not valid JSON"),
        ("[1, 2]", "must hold a JSON object"),
        ('{"permissions": []}', "'permissions' must be an object"),
        ('{"permissions": {"deny": "Bash"}}', "permissions.deny must be a list"),
        ('{"permissions": {"ask": {"Bash": 1}}}', "permissions.ask must be a list"),
    ],
)
def test_a_file_that_could_lose_deny_rules_stops_loading(
    dirs: tuple[Path, Path, dict[str, str]], content: str, fragment: str
) -> None:
    from hands.config.settings_error import SettingsFileError

    project, _, env = dirs
    path = write(project / ".claude" / "settings.local.json", content)
    with pytest.raises(SettingsFileError) as caught:
        load_settings(project, env=env)
    assert str(caught.value).startswith(str(path)) and fragment in str(caught.value)


@pytest.mark.parametrize(
    ("rule", "behavior", "place"),
    [("Bash(rm", "deny", (3, 26)), ("Read(", "ask", (3, 25))],
)
def test_an_unusable_deny_or_ask_rule_stops_the_engine(
    dirs: tuple[Path, Path, dict[str, str]], rule: str, behavior: str, place: tuple[int, int]
) -> None:
    from hands.config.settings_error import SettingsFileError
    from hands.permissions.policy import engine_for

    project, _, env = dirs
    text = f'{{\n  "permissions": {{\n    "{behavior}": ["Bash(ls)", "{rule}"]\n  }}\n}}'
    path = write(project / ".claude" / "settings.json", text)
    with pytest.raises(SettingsFileError) as caught:
        engine_for(load_settings(project, env=env, trusted=False))
    assert (caught.value.line, caught.value.column) == place
    assert str(caught.value).startswith(f"{path} (line {place[0]}, column {place[1]})")
    assert f"the {behavior} rule {rule} cannot be used" in str(caught.value)


@pytest.mark.parametrize(
    ("content", "fragment"),
    [
        ('{"permissions": {"allow": "Bash"}}', "permissions.allow must be a list"),
        ('{"permissions": {"defaultMode": 3}}', "defaultMode has the wrong type"),
        ('{"permissions": {"allow": ["Bash(ls", 7]}}', "unbalanced parentheses"),
        ('{"permissions": {"deny": ["Frobnicate"]}}', "unknown tool 'Frobnicate'"),
        ('{"hooks": []}', "'hooks' must be an object"),
    ],
)
def test_bad_files_warn_never_crash(
    dirs: tuple[Path, Path, dict[str, str]], content: str, fragment: str
) -> None:
    project, _, env = dirs
    path = write(project / ".claude" / "settings.json", content)
    s = load_settings(project, env=env)
    assert any(fragment in w and str(path) in w for w in warnings_of(s)), warnings_of(s)


def test_settings_file_flag_and_hooks_kept(dirs: tuple[Path, Path, dict[str, str]]) -> None:
    project, _, env = dirs
    hooks = {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "x"}]}]}
    path = write(project / "team.json", {"hooks": hooks, "permissions": {"deny": ["Bash(rm:*)"]}})
    s = load_settings(project, cli=CliPermissionArgs(settings="team.json"), env=env)
    assert rules_of(s)[0].origin.label == str(path)
    assert [(src.label, h) for src, h in s.hooks] == [(str(path), hooks)]
    s = load_settings(project, cli=CliPermissionArgs(settings="missing.json"), env=env)
    assert any("no such file" in w for w in warnings_of(s))


def test_home_comes_from_the_environment(
    dirs: tuple[Path, Path, dict[str, str]], tmp_path: Path
) -> None:
    project, _, env = dirs
    other = tmp_path / "other-home"
    write(other / ".claude" / "settings.json", perms(allow=["Bash(other)"]))
    s = load_settings(project, env={**env, "HOME": str(other)})
    assert [r.text for r in rules_of(s)] == ["Bash(other)"]


def test_add_local_allow_rules_keeps_other_keys(dirs: tuple[Path, Path, dict[str, str]]) -> None:
    project, _, _ = dirs
    write(
        project / ".claude" / "settings.local.json",
        {"env": {"A": "1"}, "permissions": {"allow": ["Read"]}},
    )
    add_local_allow_rules(project, ["Bash(make:*)", "Read"])
    data = json.loads((project / ".claude" / "settings.local.json").read_text())
    assert data == {"env": {"A": "1"}, "permissions": {"allow": ["Read", "Bash(make:*)"]}}
