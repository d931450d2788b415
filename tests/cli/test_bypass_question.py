"""The REPL asks once before it first runs every call unasked (bypassPermissions)."""

from __future__ import annotations

import json
from pathlib import Path

from hands.config.bypass_acceptance import ACCEPTANCE_KEY, accept, is_accepted
from hands.config.settings import load_settings
from terminal import Terminal, call_then_reply, launch

QUESTION = "Run every call without asking?"


def test_the_question_is_asked_once_and_no_leaves(
    terminal: Terminal, tmp_path: Path, hands_home: Path
) -> None:
    project, user = tmp_path / "project", tmp_path / "user"
    project.mkdir()
    user.mkdir()
    script = call_then_reply(tmp_path / "s.json", "Bash", {"command": "true"}, "Done.")

    def start(session: str) -> None:
        launch(terminal, project, hands_home, script, "--dangerously-skip-permissions",
               user_home=user, env={"IS_SANDBOX": "1"}, session=session)  # fmt: skip
        terminal.target = session

    start("no")
    screen = terminal.wait_for(QUESTION)
    assert "bypassPermissions" in screen
    terminal.send("n", "Enter")
    terminal.wait_for("HANDS-EXITED-1")
    assert not (hands_home / "settings.json").exists()
    start("yes")
    terminal.wait_for(QUESTION)
    terminal.send("y", "Enter")
    terminal.wait_for("(/help")
    terminal.wait_for_prompt()
    terminal.send("/exit", "Enter")
    terminal.wait_for("HANDS-EXITED-0")
    saved = json.loads((hands_home / "settings.json").read_text())
    assert saved == {ACCEPTANCE_KEY: True}
    start("again")
    terminal.wait_for("(/help")
    terminal.wait_for_prompt()
    assert QUESTION not in terminal.screen()


def test_print_mode_and_other_modes_are_not_asked(
    terminal: Terminal, tmp_path: Path, hands_home: Path
) -> None:
    user = tmp_path / "user"
    user.mkdir()
    script = call_then_reply(tmp_path / "s.json", "Read", {"file_path": "x"}, "Done.")
    launch(terminal, tmp_path, hands_home, script, "--permission-mode", "acceptEdits",
           user_home=user)  # fmt: skip
    terminal.wait_for("(/help")
    terminal.wait_for_prompt()
    assert QUESTION not in terminal.screen()


def test_a_project_file_cannot_give_the_acceptance_a_user_file_can(tmp_path: Path) -> None:
    project, user, home = tmp_path / "project", tmp_path / "user", tmp_path / "hands-home"
    (project / ".claude").mkdir(parents=True)
    (user / ".claude").mkdir(parents=True)
    shared = project / ".claude" / "settings.json"
    shared.write_text(json.dumps({ACCEPTANCE_KEY: True}))
    env = {"HOME": str(user), "HANDS_HOME": str(home)}
    # the repository's own file never counts, trusted or not
    assert not is_accepted(load_settings(project, env=env, trusted=True))
    assert not is_accepted(load_settings(project, env=env, trusted=False))
    # the user's local file counts once the folder is trusted
    local = project / ".claude" / "settings.local.json"
    local.write_text(json.dumps({ACCEPTANCE_KEY: True}))
    assert not is_accepted(load_settings(project, env=env, trusted=False))
    assert is_accepted(load_settings(project, env=env, trusted=True))
    local.unlink()
    # Claude Code's user settings count, and so does what answering yes writes
    (user / ".claude" / "settings.json").write_text(json.dumps({ACCEPTANCE_KEY: True}))
    assert is_accepted(load_settings(project, env=env, trusted=False))
    (user / ".claude" / "settings.json").unlink()
    assert not is_accepted(load_settings(project, env=env, trusted=False))
    accept(env)
    assert is_accepted(load_settings(project, env=env, trusted=False))
    # a value other than true is no acceptance
    (home / "settings.json").write_text(json.dumps({ACCEPTANCE_KEY: "yes"}))
    assert not is_accepted(load_settings(project, env=env, trusted=False))
