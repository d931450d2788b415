"""Custom slash commands: files, names, frontmatter, arguments, shell lines, trust."""

from __future__ import annotations

from pathlib import Path

import anyio

from hands.config.commands import expand, fill_arguments, load_commands
from hands.config.project_input import project_items


def _write(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)


def test_files_become_commands_with_namespaces_and_frontmatter(tmp_path: Path) -> None:
    home, project = tmp_path / "home", tmp_path / "project"
    _write(
        project / ".claude" / "commands" / "hello.md",
        "---\ndescription: Greets\nargument-hint: NAME\nallowed-tools: Bash(echo:*), Read\n"
        "model: haiku\n---\nSay hello to $ARGUMENTS.\n",
    )
    _write(project / ".claude" / "commands" / "frontend" / "component.md", "# Make one\nBuild $1\n")
    _write(
        project / ".claude" / "commands" / "quiet.md",
        "---\ndisable-model-invocation: true\n---\nx\n",
    )
    _write(project / ".claude" / "commands" / "broken.md", "---\n: [\n---\nx\n")
    found = load_commands(cwd=project, home=home, trusted=True)
    names = [c.name for c in found.commands]
    assert names == ["frontend:component", "hello", "quiet"]
    hello = found.find("/hello")
    assert hello is not None and hello.description == "Greets" and hello.usage() == "/hello NAME"
    assert hello.allowed_tools == ("Bash(echo:*)", "Read") and hello.model == "haiku"
    component = found.find("frontend:component")
    assert component is not None and component.description == "Make one"
    quiet = found.find("quiet")
    assert quiet is not None and not quiet.model_invocable
    assert len(found.warnings) == 1 and "broken.md" in found.warnings[0]


def test_an_untrusted_project_supplies_none_and_the_user_wins_a_name(tmp_path: Path) -> None:
    home, project = tmp_path / "home", tmp_path / "project"
    _write(home / ".claude" / "commands" / "deploy.md", "the user's own\n")
    _write(project / ".claude" / "commands" / "deploy.md", "the repository's\n")
    _write(project / ".claude" / "commands" / "extra.md", "more\n")
    untrusted = load_commands(cwd=project, home=home, trusted=False)
    assert [c.name for c in untrusted.commands] == ["deploy"]
    trusted = load_commands(cwd=project, home=home, trusted=True)
    deploy = trusted.find("deploy")
    assert deploy is not None and deploy.scope == "user" and deploy.body == "the user's own"
    assert [c.name for c in trusted.commands] == ["deploy", "extra"]


def test_the_trust_question_names_the_projects_commands_from_either_folder(
    tmp_path: Path,
) -> None:
    home, project = tmp_path / "home", tmp_path / "project"
    project.mkdir()
    _write(home / ".claude" / "commands" / "mine.md", "the user's own\n")
    assert [i for i in project_items(project, home=home) if i.kind == "command"] == []
    _write(project / ".hands" / "commands" / "ship.md", "---\nallowed-tools: Bash\n---\nx\n")
    _write(project / ".claude" / "commands" / "lint.md", "x\n")
    commands = [i for i in project_items(project, home=home) if i.kind == "command"]
    assert [c.detail for c in commands] == ["/lint", "/ship (allowed: Bash)"]


def test_arguments_fill_in_as_claude_code_does() -> None:
    # $N counts from 0, as Claude Code 2.1.332 fills it (the oracle: "$1" of "big world" is
    # "world"); a missing one stays as written; a body without any gets them appended
    body = "All: $ARGUMENTS. First: $0. Second: $1. Third: $2."
    assert fill_arguments(body, 'big "wide world"') == (
        'All: big "wide world". First: big. Second: wide world. Third: $2.'
    )
    assert fill_arguments("No placeholders.", "a b") == "No placeholders.\n\nArguments: a b"
    assert fill_arguments("No placeholders.", "") == "No placeholders."


def test_shell_lines_run_in_order_and_their_output_takes_their_place(tmp_path: Path) -> None:
    _write(
        tmp_path / ".claude" / "commands" / "st.md", "Status: !`git status`\nLog: !`git log -1`\n"
    )
    command = load_commands(cwd=tmp_path, home=tmp_path / "h", trusted=True).find("st")
    assert command is not None
    ran: list[str] = []

    async def run(line: str) -> str:
        ran.append(line)
        return f"<{line}>"

    async def go() -> str:
        return await expand(command, "", run)

    assert anyio.run(go) == "Status: <git status>\nLog: <git log -1>"
    assert ran == ["git status", "git log -1"]
