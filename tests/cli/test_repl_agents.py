"""``/agents``: list, create from a template, edit."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from hands.agent.subagents.files import parse_agent
from hands.cli.repl_agents import agent_lines, new_agent_file
from terminal import Terminal, launch, script


def _agent(folder: Path, name: str, description: str) -> Path:
    path = folder / ".claude" / "agents" / f"{name}.md"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(f"---\nname: {name}\ndescription: {description}\n---\nDo it.\n")
    return path


def test_agents_listed_with_where_they_come_from_and_trust(tmp_path: Path) -> None:
    home, project = tmp_path / "home", tmp_path / "project"
    _agent(home, "mine", "my own")
    _agent(project, "theirs", "the project's")
    (project / ".claude" / "agents" / "broken.md").write_text("no frontmatter")
    lines, warnings = agent_lines(cwd=project, home=home, trusted=False)
    where = {a.name: (a.where, a.loaded) for a in lines}
    assert where["Explore"] == ("built-in", True)
    assert where["mine"] == ("user", True) and where["theirs"] == ("project", False)
    assert len(warnings) == 1 and "broken.md" in warnings[0]
    trusted, _ = agent_lines(cwd=project, home=home, trusted=True)
    assert next(a for a in trusted if a.name == "theirs").loaded


def test_new_agent_file_parses_and_refuses_bad_names_and_existing_files(tmp_path: Path) -> None:
    made = new_agent_file("code-reviewer", folder=tmp_path)
    assert made == tmp_path / ".claude" / "agents" / "code-reviewer.md"
    assert isinstance(made, Path)
    agent = parse_agent(made, made.read_text())
    assert agent.name == "code-reviewer" and agent.tools is None and agent.system_prompt
    assert "exists already" in str(new_agent_file("code-reviewer", folder=tmp_path))
    assert "cannot name an agent" in str(new_agent_file("Bad Name", folder=tmp_path))


@pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed")
def test_agents_new_opens_the_editor_and_the_list_shows_it(
    terminal: Terminal, tmp_path: Path, hands_home: Path
) -> None:
    home, project = tmp_path / "home", tmp_path / "project"
    home.mkdir()
    project.mkdir()
    editor = tmp_path / "editor.sh"
    editor.write_text('#!/bin/sh\nsed -i "s/^description: .*/description: Reviews diffs./" "$1"\n')
    os.chmod(editor, 0o755)
    s = script(tmp_path / "s.json", [{"blocks": [{"type": "text", "text": "hi"}]}])
    launch(terminal, project, hands_home, s, user_home=home, env={"EDITOR": str(editor)})
    terminal.wait_for("(/help")
    terminal.wait_for_prompt()
    screen = terminal.submit("/agents", "/agents lists them")
    assert "Explore  (built-in)" in screen
    terminal.submit("/agents new reviewer --user", "Saved")
    made = home / ".claude" / "agents" / "reviewer.md"
    assert "description: Reviews diffs." in made.read_text()
    screen = terminal.submit("/agents", "Reviews diffs.")
    assert "reviewer  (user)" in screen
    terminal.submit("/agents new reviewer --user", "exists already")
    terminal.submit("/agents edit nobody", "No agent file is called nobody")
    screen = terminal.submit("/agents edit reviewer", "is unchanged")
    assert "Traceback" not in screen
