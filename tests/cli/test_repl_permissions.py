"""``/permissions`` as an editor: rules and directories, written to the file chosen."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

from hands.cli.repl_permissions import USAGE, Edit, parse_edit
from hands.config.settings_edit import add_entry, remove_entry, settings_file
from terminal import Terminal, call_then_reply, script, start


def test_parse_edit_reads_the_action_the_rule_and_the_file() -> None:
    assert parse_edit("add allow Bash(npm run test:*) --to project") == Edit(
        action="add", behavior="allow", text="Bash(npm run test:*)", target="project"
    )
    assert parse_edit("remove deny Read(./.env)") == Edit(
        action="remove", behavior="deny", text="Read(./.env)", target=None
    )
    assert parse_edit("add-dir ../lib --to user") == Edit(
        action="add-dir", behavior=None, text="../lib", target="user"
    )
    assert parse_edit("add maybe Bash") == USAGE
    assert parse_edit("add allow") == USAGE
    assert parse_edit("drop allow Bash") == USAGE
    assert parse_edit("add allow Bash --to team") == (
        "--to takes user, project or local, not 'team'."
    )


def test_entries_are_added_once_removed_and_the_local_file_is_ignored_by_git(
    tmp_path: Path,
) -> None:
    subprocess.run(["git", "init", "-q", str(tmp_path)], check=True)
    local = settings_file("local", cwd=tmp_path, home=tmp_path / "home")
    assert local == tmp_path / ".claude" / "settings.local.json"
    assert add_entry(local, "deny", "Write") is True
    assert add_entry(local, "deny", "Write") is False
    assert json.loads(local.read_text()) == {"permissions": {"deny": ["Write"]}}
    assert "/.claude/settings.local.json" in (tmp_path / ".gitignore").read_text()
    shared = settings_file("project", cwd=tmp_path, home=tmp_path / "home")
    shared.write_text('{"model": "opus",\n  "permissions": {"allow": ["Read"]}}')
    before = shared.read_text()
    assert remove_entry(shared, "allow", "Glob") is False
    assert shared.read_text() == before  # nothing to remove: the file is not rewritten
    assert remove_entry(shared, "allow", "Read") is True
    assert json.loads(shared.read_text()) == {"model": "opus", "permissions": {"allow": []}}
    assert (tmp_path / ".gitignore").read_text() == "/.claude/settings.local.json\n"
    user = settings_file("user", cwd=tmp_path, home=tmp_path / "home")
    assert user == tmp_path / "home" / ".claude" / "settings.json"
    (tmp_path / "bad.json").write_text("[1]")
    with pytest.raises(OSError, match="does not hold a JSON object"):
        add_entry(tmp_path / "bad.json", "allow", "Read")


@pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed")
def test_a_deny_rule_added_holds_at_once_and_removing_it_asks_again(
    terminal: Terminal, tmp_path: Path, hands_home: Path
) -> None:
    project = tmp_path / "project"
    project.mkdir()
    subprocess.run(["git", "init", "-q", str(project)], check=True)
    target = project / "made.txt"
    write = {"file_path": str(target), "content": "x"}
    call = {"blocks": [{"type": "tool_use", "name": "Write", "input": write}]}
    s = script(
        tmp_path / "s.json",
        [call, {"blocks": [{"type": "text", "text": "Refused."}]},
         call, {"blocks": [{"type": "text", "text": "Written."}]}],
    )  # fmt: skip
    start(terminal, project, hands_home, s)
    terminal.submit("/permissions add allow Bash(oops", "Not added: unbalanced parentheses")
    terminal.submit("/permissions add deny Write", "in force now")
    local = project / ".claude" / "settings.local.json"
    assert json.loads(local.read_text()) == {"permissions": {"deny": ["Write"]}}
    screen = terminal.submit("/permissions", "settings.local.json")
    assert "deny" in screen
    terminal.submit("write it", "Refused.")
    assert not target.exists() and "1. Yes" not in terminal.screen()
    terminal.wait_for_prompt()
    terminal.submit("/permissions remove deny Write", "no longer in force")
    assert json.loads(local.read_text()) == {"permissions": {"deny": []}}
    terminal.submit("/permissions remove deny Write", "No deny rule Write in")
    terminal.send("write it again", "Enter")
    terminal.wait_for("1. Yes")
    terminal.send("1", "Enter")
    terminal.wait_for("Written.")
    assert target.read_text() == "x"


@pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed")
def test_add_dir_is_written_and_holds(terminal: Terminal, tmp_path: Path, hands_home: Path) -> None:
    project = tmp_path / "project"
    project.mkdir()
    (tmp_path / "lib").mkdir()
    s = call_then_reply(tmp_path / "s.json", "Glob", {"pattern": "*"}, "ok")
    start(terminal, project, hands_home, s)
    terminal.submit("/permissions add-dir ../nowhere", "does not exist; nothing was added")
    terminal.submit("/permissions add-dir ../lib --to project", "to the working directories")
    data = json.loads((project / ".claude" / "settings.json").read_text())
    assert data == {"permissions": {"additionalDirectories": [str(tmp_path / "lib")]}}
    terminal.submit("/add-dir ../lib", "is already a working directory")
