"""Parsing hooks blocks: matchers, handlers, precedence, warnings, real settings files."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from hands.config.settings import load_settings
from hands.hooks.config import compile_matcher, parse_hooks
from hands.hooks.output import HookRun, interpret
from paths import SETTINGS_FIXTURES, needs_claude_configs


@pytest.mark.parametrize(
    ("matcher", "yes", "no"),
    [
        (None, ["Bash", "mcp__x__y"], []),
        ("", ["Bash"], []),
        ("*", ["Write"], []),
        ("Bash", ["Bash"], ["BashOutput", "bash"]),
        ("Edit|Write", ["Edit", "Write"], ["NotebookEdit", "MultiEdit"]),
        ("Edit, Write", ["Write"], ["Read"]),
        ("Task|Agent", ["Agent"], ["Read"]),
        ("Task", ["Agent"], []),
        ("mcp__memory", [], ["mcp__memory__create"]),
        ("mcp__memory__.*", ["mcp__memory__create"], ["mcp__other__x"]),
        ("Edit.*", ["Edit", "NotebookEdit"], ["Write"]),
        (".*", ["Anything"], []),
        ("startup|resume", ["startup", "resume"], ["clear"]),
        ("sequential-thinking", ["sequential-thinking"], ["sequential"]),
    ],
)
def test_matchers(matcher: str | None, yes: list[str], no: list[str]) -> None:
    m = compile_matcher(matcher)
    assert callable(m)
    assert all(m(v) for v in yes) and not any(m(v) for v in no)


def test_bad_regex_and_odd_shapes_become_warnings() -> None:
    config = parse_hooks(
        [
            (
                "f.json",
                {
                    "PreToolUse": [
                        {"matcher": "Edit(", "hooks": [{"type": "command", "command": "x"}]},
                        {"matcher": "Bash", "hook": "echo legacy"},
                        {"matcher": "Bash", "hookPath": ".claude/hooks/x.sh"},
                        {"hooks": [{"type": "prompt", "prompt": "ok?"}]},
                        {"hooks": [{"type": "command"}, {"type": "command", "command": "y"}]},
                        {"hooks": [{"type": "command", "command": "z", "timeout": "soon"}]},
                    ],
                    "NotAnEvent": [],
                    "Stop": {"hooks": []},
                },
            )
        ]
    )
    text = "\n".join(config.warnings)
    assert "not a valid regular expression" in text
    assert isinstance(compile_matcher("Write(*.go)|Edit(*.go)"), str)  # a warning
    assert "found hook" in text and "found hookPath" in text
    assert "prompt hooks are not supported" in text
    assert "needs a non-empty 'command'" in text and "timeout must be a positive" in text
    assert "NotAnEvent is not a hook event" in text and "hooks.Stop must be a list" in text
    assert all(w.startswith("f.json: ") for w in config.warnings)
    handlers = config.handlers_for("PreToolUse", "Bash")
    assert [h.command for h in handlers] == ["y", "z"]
    assert handlers[1].timeout_for("PreToolUse") == 600


def test_defaults_dedup_and_if_on_non_tool_events() -> None:
    h = {"type": "command", "command": "c"}
    config = parse_hooks(
        [
            ("a", {"UserPromptSubmit": [{"hooks": [h]}], "Stop": [{"matcher": "x", "hooks": [h]}]}),
            ("b", {"UserPromptSubmit": [{"hooks": [h, {**h, "timeout": 5}]}]}),
        ]
    )
    handlers = config.handlers_for("UserPromptSubmit", None)
    assert [h.timeout_for("UserPromptSubmit") for h in handlers] == [30, 5]
    # Stop has no matcher support: the matcher is ignored
    assert len(config.handlers_for("Stop", None)) == 1


def test_precedence_follows_the_settings_sources(tmp_path: Path) -> None:
    project = tmp_path / "p"
    (project / ".claude").mkdir(parents=True)
    home = tmp_path / "home"
    (home / ".claude").mkdir(parents=True)

    def block(cmd: str) -> dict[str, Any]:
        return {
            "hooks": {
                "PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": cmd}]}]
            }
        }

    (project / ".claude/settings.json").write_text(json.dumps(block("project")))
    (project / ".claude/settings.local.json").write_text(json.dumps(block("local")))
    (home / ".claude/settings.json").write_text(json.dumps(block("user")))
    env = {"HOME": str(home), "HANDS_MANAGED_SETTINGS": "", "HANDS_HOME": str(tmp_path / "hh")}
    from hands.hooks.config import config_from_settings

    settings = load_settings(project, env=env, trusted=True)
    cmds = [h.command for h in config_from_settings(settings).handlers_for("PreToolUse", "Bash")]
    assert cmds == ["local", "project", "user"]

    (project / ".claude/settings.local.json").write_text(json.dumps({"disableAllHooks": True}))
    assert not config_from_settings(load_settings(project, env=env))


def test_exit_codes_and_json_output() -> None:
    handler = parse_hooks([("f", {"Stop": [{"hooks": [{"type": "command", "command": "x"}]}]})])
    h = handler.handlers_for("Stop", None)[0]
    two = interpret("PreToolUse", HookRun(handler=h, exit_code=2, stderr="no\n"))
    assert two.permission == "deny" and two.reason == "no"
    # exit 2 with JSON on stdout and empty stderr (a real guard script does this)
    both = interpret(
        "PreToolUse",
        HookRun(
            handler=h,
            exit_code=2,
            stdout='{"hookSpecificOutput":{"permissionDecision":"deny","permissionDecisionReason":"rm"}}',
        ),
    )
    assert both.permission == "deny" and both.reason == "rm"
    ignored = interpret("PermissionRequest", HookRun(handler=h, exit_code=2, stderr="x"))
    assert not ignored.blocking and ignored.request_behavior is None
    to_user = interpret("SessionStart", HookRun(handler=h, exit_code=2, stderr="warn\n"))
    assert not to_user.blocking and to_user.notice == "SessionStart hook: warn"
    honoured = interpret(
        "Stop", HookRun(handler=h, exit_code=1, stdout='{"decision":"block","reason":"r"}')
    )
    assert honoured.blocking and honoured.reason == "r"
    plain = interpret("UserPromptSubmit", HookRun(handler=h, exit_code=0, stdout="  hello\n"))
    assert plain.plain_text == "hello"
    legacy = interpret("PreToolUse", HookRun(handler=h, stdout='{"decision":"approve"}'))
    assert legacy.permission == "allow"
    bad = interpret("PreToolUse", HookRun(handler=h, stdout="{not json"))
    assert "not valid JSON" in bad.notice and bad.permission is None


@needs_claude_configs
def test_every_hooks_block_of_the_settings_fixtures_loads() -> None:
    files = sorted(SETTINGS_FIXTURES.glob("*.json"))
    with_hooks = 0
    commands = 0
    for path in files:
        data = json.loads(path.read_text(encoding="utf-8-sig"))
        block = data.get("hooks")
        if not block:
            continue
        with_hooks += 1
        config = parse_hooks([(str(path), block)])
        for warning in config.warnings:
            # only the forms hands does not run are reported
            assert any(
                k in warning
                for k in ("prompt hooks", "agent hooks", "found hook", "not a valid regular")
            ), warning
        for event, groups in config.groups.items():
            for g in groups:
                for h in g.handlers:
                    assert h.type == "command" and h.command.strip()
                    commands += 1
                    assert h.timeout_for(event) > 0
    assert with_hooks >= 30 and commands >= 200


@needs_claude_configs
def test_a_real_settings_file_with_if_conditions(tmp_path: Path) -> None:
    # 016: PreToolUse Bash hooks gated by `if` rules such as Bash(*git push*)
    block = json.loads((SETTINGS_FIXTURES / "016.json").read_text())["hooks"]
    config = parse_hooks([("016.json", block)])
    assert not config.warnings
    rules = [h.if_rule for h in config.handlers_for("PreToolUse", "Bash")]
    assert rules == ["Bash(*git *commit*)", "Bash(*git push*)", "Bash(*gh pr create*)"]
    assert config.handlers_for("PreToolUse", "Write") == []


def test_a_legacy_name_matches_the_tool_that_declares_it_as_a_permission_rule_does() -> None:
    from hands.permissions.policy import engine_for
    from hands.pipeline.pool import BuiltinGrammar, pool_for

    h = {"type": "command", "command": "c"}
    regex = {"matcher": "Kill.*", "hooks": [{**h, "command": "d"}]}
    config = parse_hooks(
        [
            ("a", {"PreToolUse": [{"matcher": "KillShell", "hooks": [h]}]}),
            ("b", {"PreToolUse": [regex]}),
        ]
    )
    stop = pool_for().find("TaskStop")
    assert stop is not None and "KillShell" in stop.aliases
    fired = config.handlers_for("PreToolUse", stop.name, aliases=stop.aliases)
    assert [x.command for x in fired] == ["c"]  # a plain name, not a regex, follows aliases
    assert config.handlers_for("PreToolUse", stop.name) == []  # the name alone does not
    # the permission engine reads the same declaration: a KillShell rule is about TaskStop
    settings = load_settings(Path("/"), env={"HOME": "/nonexistent", "HANDS_MANAGED_SETTINGS": ""})
    engine = engine_for(settings, grammar=BuiltinGrammar())
    from hands.permissions.rules import PermissionRule, RuleOrigin, parse_rule

    origin = RuleOrigin(scope="session", label="session", root=Path("/"))
    rule = parse_rule("KillShell", "deny", origin)
    assert isinstance(rule, PermissionRule)
    engine.add_rules([rule])
    assert engine.denies_tool(stop) and not engine.denies_tool("TaskStop")
