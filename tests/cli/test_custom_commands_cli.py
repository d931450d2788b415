"""Custom slash commands and skills typed as ``/name args``: ``-p`` and the REPL."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from models.loopback import LoopbackServer, Reply, sse_reply
from models.wire import a_end, a_start, a_text
from terminal import Terminal, launch, script

HELLO = (
    "---\ndescription: Greets someone\nargument-hint: NAME\nallowed-tools: Bash(echo:*)\n---\n"
    "Say hello to $ARGUMENTS (first word: $0).\nShell: !`echo SHELL-RAN`\nNotes: @notes.txt\n"
)


def _reply() -> Reply:
    return sse_reply(a_start(), *a_text(0, "Done."), *a_end())


def _project(tmp_path: Path) -> tuple[Path, Path]:
    home, project = tmp_path / "home", tmp_path / "project"
    (project / ".claude" / "commands" / "team").mkdir(parents=True)
    (project / ".claude" / "commands" / "hello.md").write_text(HELLO)
    (project / ".claude" / "commands" / "team" / "wipe.md").write_text("Wipe: !`touch WIPED`\n")
    (project / "notes.txt").write_text("NOTE-CONTENT\n")
    skill = home / ".claude" / "skills" / "tidy"
    skill.mkdir(parents=True)
    (skill / "SKILL.md").write_text("---\ndescription: Tidies\n---\nTidy up $ARGUMENTS.\n")
    return home, project


def _print(server: LoopbackServer, home: Path, cwd: Path, prompt: str, *args: str) -> str:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("ANTHROPIC_", "OPENAI_"))}
    env.update(
        HOME=str(home), ANTHROPIC_API_KEY="k", ANTHROPIC_BASE_URL=server.url, NO_PROXY="127.0.0.1"
    )
    server.queue(_reply())
    proc = subprocess.run(
        [sys.executable, "-m", "hands", "-p", prompt, "--model", "sonnet", *args],
        capture_output=True,
        text=True,
        cwd=cwd,
        env=env,
        timeout=60,
    )
    assert proc.returncode == 0, proc.stderr
    sent = server.requests[-1].body["messages"][-1]["content"]
    return "\n".join(part.get("text", "") for part in sent)


def test_print_mode_expands_a_command_before_the_model_sees_it(
    tmp_path: Path, hands_home: Path, server: LoopbackServer
) -> None:
    home, project = _project(tmp_path)
    seen = _print(server, home, project, "/hello big world", "--trust")
    assert "Say hello to big world (first word: big)." in seen
    assert "Shell: SHELL-RAN" in seen  # allowed by the command's allowed-tools
    assert "NOTE-CONTENT" in seen  # @notes.txt attached
    assert "/hello" not in seen

    # a shell line no rule allows does not run: nobody can be asked in -p
    seen = _print(server, home, project, "/team:wipe", "--trust")
    assert "Wipe: (`touch WIPED` did not run" in seen
    assert not (project / "WIPED").exists()

    # a skill typed as /name
    seen = _print(server, home, project, "/tidy the desk", "--trust")
    assert "Tidy up the desk." in seen


def test_a_commands_model_alias_runs_on_the_sessions_provider(
    tmp_path: Path, hands_home: Path, server: LoopbackServer
) -> None:
    home, project = _project(tmp_path)
    (project / ".claude" / "commands" / "quick.md").write_text(
        "---\nmodel: haiku\n---\nBe quick.\n"
    )
    _print(server, home, project, "/quick", "--trust", "--output-format", "json")
    assert server.requests[-1].body["model"] == "claude-haiku-4-5"  # Anthropic's haiku


def test_an_untrusted_projects_commands_stay_inert(
    tmp_path: Path, hands_home: Path, server: LoopbackServer
) -> None:
    home, project = _project(tmp_path)
    seen = _print(server, home, project, "/hello big world")
    assert seen.startswith("/hello big world") and "SHELL-RAN" not in seen


@pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed")
def test_the_repl_completes_lists_and_runs_a_command(
    terminal: Terminal, tmp_path: Path, hands_home: Path
) -> None:
    home = tmp_path / "home"
    (home / ".claude" / "commands").mkdir(parents=True)
    (home / ".claude" / "commands" / "hello.md").write_text(HELLO)
    (home / ".claude" / "commands" / "broken.md").write_text("---\n: [\n---\nx\n")
    project = tmp_path / "project"
    project.mkdir()
    (project / "notes.txt").write_text("NOTE-CONTENT\n")
    s = script(
        tmp_path / "s.json",
        [
            {
                "blocks": [
                    {"type": "text", "text": "Hello to you."},
                ]
            }
        ],
    )
    launch(terminal, project, hands_home, s, user_home=home)
    terminal.wait_for("(/help")
    terminal.wait_for("broken.md was skipped")
    terminal.wait_for_prompt()
    terminal.submit("/help", "Custom commands and skills:")
    screen = terminal.wait_for("(user)")
    assert "/hello NAME  Greets someone (user)" in screen and "/hello  (skill)" not in screen
    terminal.send("/hell", "Tab")
    terminal.wait_for("> /hello")
    terminal.send(" big world", "Enter")
    screen = terminal.wait_for("success · 1 turn")
    assert "SHELL-RAN" in screen and "Hello to you." in screen
    transcripts = list(hands_home.rglob("*.jsonl"))
    text = "".join(p.read_text() for p in transcripts)
    assert "Say hello to big world (first word: big)." in text and "NOTE-CONTENT" in text


def test_the_model_runs_a_command_through_slash_command_or_skill(
    tmp_path: Path, hands_home: Path
) -> None:
    home, project = _project(tmp_path)
    (project / ".claude" / "commands" / "quiet.md").write_text(
        "---\ndisable-model-invocation: true\n---\nOnly for people.\n"
    )
    calls = [
        ("SlashCommand", {"command": "/hello big world"}),
        ("Skill", {"skill": "team:wipe"}),
        ("Skill", {"skill": "quiet"}),
    ]
    s = script(
        tmp_path / "s.json",
        [{"blocks": [{"type": "tool_use", "name": n, "input": i}]} for n, i in calls]
        + [{"blocks": [{"type": "text", "text": "ok"}]}],
    )
    env = {**os.environ, "HOME": str(home)}
    proc = subprocess.run(
        [
            sys.executable, "-m", "hands", "-p", "go", "--model", f"scripted:{s}", "--trust",
            "--allowedTools", "Skill", "--output-format", "stream-json",
        ],
        capture_output=True, text=True, cwd=project, env=env, timeout=60,
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    results = [
        block
        for line in proc.stdout.splitlines()
        if (obj := json.loads(line))["type"] == "user"
        for block in obj["message"]["content"]
    ]
    texts = [str(r["content"]) for r in results]
    assert "Say hello to big world (first word: big)." in texts[0]
    assert "(run `echo SHELL-RAN` with the shell tool)" in texts[0]
    assert "(run `touch WIPED` with the shell tool)" in texts[1]
    assert results[2]["is_error"] and "There is no skill 'quiet'" in texts[2]
    assert not (project / "WIPED").exists()
