"""``/hooks``: hooks by event, with the file each comes from and whether it runs."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from hands.cli.repl_hooks import hook_lines
from hands.config.settings import load_settings
from terminal import Terminal, launch, script


def _hooks(event: str, matcher: str, command: str) -> dict[str, object]:
    group = {"matcher": matcher, "hooks": [{"type": "command", "command": command}]}
    return {"hooks": {event: [group]}}


def _files(tmp_path: Path) -> tuple[Path, Path, dict[str, str]]:
    home = tmp_path / "home"
    project = tmp_path / "project"
    (home / ".claude").mkdir(parents=True)
    (project / ".claude").mkdir(parents=True)
    user = home / ".claude" / "settings.json"
    user.write_text(json.dumps(_hooks("PreToolUse", "Bash", "echo user-check")))
    shared = project / ".claude" / "settings.json"
    shared.write_text(json.dumps(_hooks("Stop", "", "echo project-stop")))
    env = {"HOME": str(home), "HANDS_HOME": str(tmp_path / "hh"), "HANDS_MANAGED_SETTINGS": ""}
    return project, user, env


def test_the_worktree_events_are_listed_with_their_trust(tmp_path: Path) -> None:
    project, _, env = _files(tmp_path)
    both = {
        event: [{"hooks": [{"type": "command", "command": f"make-{event}"}]}]
        for event in ("WorktreeCreate", "WorktreeRemove")
    }
    (project / ".claude" / "settings.json").write_text(json.dumps({"hooks": both}))
    lines, warnings = hook_lines(load_settings(project, env=env, trusted=False))
    listed = {line.event: line for line in lines if line.event.startswith("Worktree")}
    assert warnings == [] and sorted(listed) == ["WorktreeCreate", "WorktreeRemove"]
    assert {line.state for line in listed.values()} == {"not run: the folder is not trusted"}
    trusted, _ = hook_lines(load_settings(project, env=env, trusted=True))
    assert {line.state for line in trusted if line.event.startswith("Worktree")} == {"runs"}


def test_hooks_by_event_with_source_and_trust(tmp_path: Path) -> None:
    project, user, env = _files(tmp_path)
    shared = project / ".claude" / "settings.json"
    lines, warnings = hook_lines(load_settings(project, env=env, trusted=False))
    assert warnings == []
    by_event = {line.event: line for line in lines}
    assert by_event["PreToolUse"].matcher == "Bash"
    assert by_event["PreToolUse"].source == str(user) and by_event["PreToolUse"].state == "runs"
    assert by_event["Stop"].source == str(shared) and by_event["Stop"].matcher == "*"
    assert by_event["Stop"].state == "not run: the folder is not trusted"
    trusted, _ = hook_lines(load_settings(project, env=env, trusted=True))
    assert {line.state for line in trusted} == {"runs"}
    (project / ".claude" / "settings.local.json").write_text(json.dumps({"disableAllHooks": True}))
    off, _ = hook_lines(load_settings(project, env=env, trusted=True))
    assert {line.state for line in off} == {"off: disableAllHooks"}


def test_an_unknown_event_is_a_warning(tmp_path: Path) -> None:
    project, _, env = _files(tmp_path)
    (project / ".claude" / "settings.json").write_text(json.dumps(_hooks("OnSave", "", "x")))
    lines, warnings = hook_lines(load_settings(project, env=env, trusted=True))
    assert [line.event for line in lines] == ["PreToolUse"]
    assert len(warnings) == 1 and "hooks.OnSave is not a hook event" in warnings[0]


@pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed")
def test_hooks_in_the_repl(terminal: Terminal, tmp_path: Path, hands_home: Path) -> None:
    project, _, _ = _files(tmp_path)
    s = script(tmp_path / "s.json", [{"blocks": [{"type": "text", "text": "hi"}]}])
    launch(terminal, project, hands_home, s, user_home=tmp_path / "home")
    terminal.wait_for("[y/N]")
    terminal.send("n", "Enter")  # the project's hooks stay off
    terminal.wait_for("(/help")
    terminal.wait_for_prompt()
    screen = terminal.submit("/hooks", "not run: the folder is not trusted")
    assert "PreToolUse\n  [Bash] command hook `echo user-check`\n      runs · from " in screen
    assert "Stop\n  [*] command hook `echo project-stop`" in screen
    assert "Traceback" not in screen
