"""The interactive session, driven through a real terminal (tmux) with a scripted model."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from hands.config.trust import trust
from terminal import Terminal, call_then_reply, launch, script, shows, start

pytestmark = pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed")


def answer_trust(term: Terminal, answer: str) -> str:
    """Answer the trust question, wait for the session; the question's screen."""
    screen = term.wait_for("[y/N]")
    term.send(answer, "Enter")
    term.wait_for("(/help")
    term.wait_for_prompt()
    return screen


def test_prompt_permission_answer_and_rendered_result(
    terminal: Terminal, tmp_path: Path, hands_home: Path
) -> None:
    project = tmp_path / "project"
    project.mkdir()
    notes = project / "notes.txt"
    notes.write_text("hello world\n")
    s = script(
        tmp_path / "s.json",
        [
            {
                "blocks": [
                    {"type": "text", "text": "Reading first."},
                    {"type": "tool_use", "name": "Read", "input": {"file_path": str(notes)}},
                ]
            },
            {
                "blocks": [
                    {
                        "type": "tool_use",
                        "name": "Edit",
                        "input": {
                            "file_path": str(notes),
                            "old_string": "hello",
                            "new_string": "goodbye",
                        },
                    }
                ]
            },
            {"blocks": [{"type": "text", "text": "The notes now say goodbye."}]},
        ],
    )
    start(terminal, project, hands_home, s)
    terminal.send("update the notes", "Enter")
    screen = terminal.wait_for("1. Yes")
    assert "● Read(" in screen and "Reading first." in screen
    assert "changes a file" in screen or "needs permission" in screen
    assert notes.read_text() == "hello world\n"  # nothing written before the answer
    terminal.send("1", "Enter")
    screen = terminal.wait_for("success · 3 turns")
    assert "● Edit(" in screen
    assert "- hello world" in screen and "+ goodbye world" in screen
    assert "The notes now say goodbye." in screen
    assert notes.read_text() == "goodbye world\n"
    terminal.send("/exit", "Enter")
    terminal.wait_for("HANDS-EXITED-0")


def test_denying_with_a_comment_reaches_the_model(
    terminal: Terminal, tmp_path: Path, hands_home: Path
) -> None:
    target = tmp_path / "new.txt"
    s = call_then_reply(
        tmp_path / "s.json", "Write", {"file_path": str(target), "content": "x"}, "Understood."
    )
    start(terminal, tmp_path, hands_home, s)
    terminal.send("write it", "Enter")
    terminal.wait_for("3. No")
    terminal.send("use the docs folder instead", "Enter")
    screen = terminal.wait_for("success · 2 turns")
    assert shows(screen, "The user says: use the docs folder instead")
    assert not target.exists()


def test_ctrl_c_interrupts_the_turn_and_kills_the_command(
    terminal: Terminal, tmp_path: Path, hands_home: Path
) -> None:
    marker = tmp_path / "never.txt"
    s = call_then_reply(
        tmp_path / "s.json",
        "Bash",
        {"command": f"echo started; sleep 30; touch {marker}"},
        "not reached",
    )
    start(terminal, tmp_path, hands_home, s, "--permission-mode", "bypassPermissions")
    terminal.send("run it", "Enter")
    terminal.wait_for("started")
    terminal.send("C-c")
    screen = terminal.wait_for("interrupted · 1 turn ·")
    assert "Interrupted by the user" in screen
    assert "not reached" not in screen
    time.sleep(0.5)
    assert not marker.exists()
    # the session goes on: a slash command still works, then two Ctrl-C leave
    terminal.send("/tools", "Enter")
    screen = terminal.wait_for("│ Write ")  # the table's last row (taller than the screen)
    assert "│ Read " in screen and "┘" in screen
    terminal.wait_for_prompt()
    terminal.send("C-c")
    terminal.wait_for("Ctrl-C again to leave")
    terminal.send("C-c")
    terminal.wait_for("HANDS-EXITED-0")


def test_project_mcp_servers_are_asked_about_once(
    terminal: Terminal, tmp_path: Path, hands_home: Path
) -> None:
    demo = Path(__file__).parents[1] / "mcp" / "servers" / "demo.py"
    project = tmp_path / "project"
    project.mkdir()
    (project / ".mcp.json").write_text(
        json.dumps({"mcpServers": {"demo": {"command": sys.executable, "args": [str(demo)]}}})
    )
    s = script(tmp_path / "s.json", [{"blocks": [{"type": "text", "text": "hi"}]}])
    trust(project, {"HANDS_HOME": str(hands_home)})  # servers are asked about once trusted
    launch(terminal, project, hands_home, s, user_home=tmp_path)
    screen = terminal.wait_for("1. Use this server")
    assert "wants to start the MCP server 'demo'" in screen
    terminal.send("1", "Enter")
    saved = project / ".claude" / "settings.local.json"
    deadline = time.monotonic() + 10
    while not saved.exists() and time.monotonic() < deadline:
        time.sleep(0.1)
    local = json.loads(saved.read_text())
    assert local["enabledMcpjsonServers"] == ["demo"]
    deadline = time.monotonic() + 15
    while time.monotonic() < deadline:
        terminal.send("/mcp", "Enter")
        time.sleep(0.5)
        if "connected" in terminal.screen():
            break
    assert "connected" in terminal.screen()
    terminal.send("/exit", "Enter")
    terminal.wait_for("HANDS-EXITED-0")
    # the next session does not ask again
    terminal.target = "again"
    launch(terminal, project, hands_home, s, user_home=tmp_path, session="again")
    screen = terminal.wait_for("(/help")
    assert "Use this server" not in screen and "[y/N]" not in screen


def test_session_hooks_fire_once_around_the_session(
    terminal: Terminal, tmp_path: Path, hands_home: Path
) -> None:
    project = tmp_path / "project"
    (project / ".claude").mkdir(parents=True)
    log = tmp_path / "events.log"
    recorder = tmp_path / "record.py"
    recorder.write_text(
        "import json, sys\n"
        "d = json.load(sys.stdin)\n"
        f"with open({str(log)!r}, 'a') as f:\n"
        "    what = d.get('source') or d.get('reason')\n"
        "    f.write(d['hook_event_name'] + ':' + str(what) + '\\n')\n"
    )
    record = f"{sys.executable} {recorder}"
    hooks = {
        event: [{"hooks": [{"type": "command", "command": record}]}]
        for event in ("SessionStart", "SessionEnd")
    }
    (project / ".claude" / "settings.json").write_text(json.dumps({"hooks": hooks}))
    s = script(tmp_path / "s.json", [{"blocks": [{"type": "text", "text": "one"}]},
                                     {"blocks": [{"type": "text", "text": "two"}]}])  # fmt: skip
    launch(terminal, project, hands_home, s)
    answer_trust(terminal, "y")  # the project's hooks wait for trust
    terminal.send("first", "Enter")
    terminal.wait_for("success · 1 turn ·")
    terminal.send("/clear", "Enter")
    terminal.wait_for("Conversation cleared")
    terminal.send("second", "Enter")
    terminal.wait_for("two")
    terminal.send("/exit", "Enter")
    terminal.wait_for("HANDS-EXITED-0")
    assert log.read_text().splitlines() == [
        "SessionStart:startup",
        "SessionEnd:clear",
        "SessionStart:clear",
        "SessionEnd:prompt_input_exit",
    ]


def test_untrusted_project_asks_to_trust_before_its_allow_rules_count(
    terminal: Terminal, tmp_path: Path, hands_home: Path
) -> None:
    project = tmp_path / "project"
    (project / ".claude").mkdir(parents=True)
    (project / ".claude" / "settings.json").write_text(
        json.dumps({"permissions": {"allow": ["Write"]}})
    )
    target = project / "made.txt"
    s = call_then_reply(
        tmp_path / "s.json", "Write", {"file_path": str(target), "content": "x"}, "Written."
    )
    launch(terminal, project, hands_home, s, user_home=tmp_path)
    assert ".claude/settings.json" in answer_trust(terminal, "y")
    terminal.send("write it", "Enter")
    screen = terminal.wait_for("success · 2 turns")
    assert "1. Yes" not in screen  # the trusted allow rule approved the write
    assert target.read_text() == "x"
    assert str(project) in (hands_home / "trusted.json").read_text()


def test_untrusted_project_hooks_and_env_wait_for_trust_and_no_means_none_runs(
    terminal: Terminal, tmp_path: Path, hands_home: Path
) -> None:
    project = tmp_path / "project"
    (project / ".claude").mkdir(parents=True)
    (project / "notes.txt").write_text("hello\n")
    started, pre = tmp_path / "SESSION_HOOK_RAN", tmp_path / "PRE_HOOK_RAN"
    hooks = {
        "SessionStart": [{"hooks": [{"type": "command", "command": f"touch {started}"}]}],
        "PreToolUse": [{"hooks": [{"type": "command", "command": f"touch {pre}"}]}],
    }
    (project / ".claude" / "settings.json").write_text(
        json.dumps({"hooks": hooks, "env": {"PROJECT_TOKEN": "x"}})
    )
    s = call_then_reply(
        tmp_path / "s.json", "Read", {"file_path": str(project / "notes.txt")}, "Read it."
    )
    launch(terminal, project, hands_home, s, user_home=tmp_path)
    screen = answer_trust(terminal, "n")
    assert shows(screen, f"touch {started}") and shows(screen, f"touch {pre}")
    assert "PROJECT_TOKEN" in screen
    terminal.send("read it", "Enter")
    terminal.wait_for("success · 2 turns")
    terminal.send("/exit", "Enter")
    terminal.wait_for("HANDS-EXITED-0")
    assert not started.exists() and not pre.exists()
    # the answer is remembered: the folder is not asked about again
    recorded = json.loads((hands_home / "trusted.json").read_text())
    assert recorded == {"trusted": [], "declined": [str(project)]}


@pytest.mark.skipif(shutil.which("bwrap") is None, reason="bubblewrap (bwrap) is not installed")
def test_an_untrusted_project_sandbox_that_would_run_commands_unasked_asks_after_no(
    terminal: Terminal, tmp_path: Path, hands_home: Path
) -> None:
    project = tmp_path / "project"
    (project / ".claude").mkdir(parents=True)
    sandbox = {"enabled": True, "excludedCommands": ["docker"], "autoAllowBashIfSandboxed": True}
    (project / ".claude" / "settings.json").write_text(json.dumps({"sandbox": sandbox}))
    made = project / "made.txt"
    s = call_then_reply(tmp_path / "s.json", "Bash", {"command": f"touch {made}"}, "Made.")
    launch(terminal, project, hands_home, s, user_home=tmp_path)
    screen = answer_trust(terminal, "n")
    assert "sandbox.excludedCommands docker (run outside the sandbox)" in screen
    assert "sandbox.autoAllowBashIfSandboxed true" in screen
    terminal.send("make it", "Enter")
    terminal.wait_for("3. No")  # the project's auto-approval does not count
    assert not made.exists()
    terminal.send("1", "Enter")
    terminal.wait_for("success · 2 turns")
    assert made.exists()  # the sandbox itself (a restriction) stays on


def test_permission_prompt_pauses_the_live_region_and_keeps_what_was_said(
    terminal: Terminal, tmp_path: Path, hands_home: Path
) -> None:
    made = tmp_path / "made.txt"
    s = script(
        tmp_path / "s.json",
        [
            {
                "blocks": [
                    {"type": "text", "text": "I will create the file now."},
                    {"type": "tool_use", "name": "Bash", "input": {"command": f"touch {made}"}},
                ]
            },
            {"blocks": [{"type": "text", "text": "Created."}]},
        ],
    )
    start(terminal, tmp_path, hands_home, s)
    terminal.send("make it", "Enter")
    screen = terminal.wait_for("3. No")
    lines = screen.rstrip().splitlines()
    assert lines[-1].strip() == ">"  # the prompt is the last line: no spinner under it
    said = screen.index("● I will create the file now.")
    assert said < screen.index("● Bash(touch") < screen.index("needs approval")
    terminal.send("1")
    terminal.wait_for("\n> 1")  # the answer is visible while it is typed
    terminal.send("Enter")
    screen = terminal.wait_for("success · 2 turns")
    assert screen.count("needs approval") == 1  # the question is not drawn twice
    assert "I will create the file now." in screen and "Created." in screen
    assert made.exists()


def test_ctrl_c_at_a_permission_prompt_denies_and_interrupts(
    terminal: Terminal, tmp_path: Path, hands_home: Path
) -> None:
    made = tmp_path / "made.txt"
    s = call_then_reply(tmp_path / "s.json", "Bash", {"command": f"touch {made}"}, "not reached")
    start(terminal, tmp_path, hands_home, s)
    terminal.send("make it", "Enter")
    terminal.wait_for("3. No")
    terminal.send("C-c")
    screen = terminal.wait_for("interrupted · 1 turn")
    assert "The user says" not in screen and "not reached" not in screen
    assert not made.exists()
    terminal.wait_for_prompt()
    assert "HANDS-EXITED" not in terminal.screen()  # one Ctrl-C there does not leave


def test_esc_interrupts_a_turn_and_keys_typed_meanwhile_are_kept(
    terminal: Terminal, tmp_path: Path, hands_home: Path
) -> None:
    s = call_then_reply(
        tmp_path / "s.json", "Bash", {"command": "echo started; sleep 30"}, "not reached"
    )
    start(terminal, tmp_path, hands_home, s, "--permission-mode", "bypassPermissions")
    terminal.send("run it", "Enter")
    terminal.wait_for("started")
    terminal.send("-l", "next")
    terminal.send("Escape")
    screen = terminal.wait_for("interrupted · 1 turn")
    assert "not reached" not in screen
    terminal.wait_for("> next")


def test_ctrl_c_clears_typed_text_before_it_counts_towards_leaving(
    terminal: Terminal, tmp_path: Path, hands_home: Path
) -> None:
    s = script(tmp_path / "s.json", [{"blocks": [{"type": "text", "text": "hi"}]}])
    start(terminal, tmp_path, hands_home, s)
    for _ in range(2):  # twice: text typed and cleared never counts
        terminal.send("-l", "half a thought")
        terminal.wait_for("> half a thought")
        terminal.send("C-c")
        terminal.wait_for_prompt()
    screen = terminal.screen()
    assert "half a thought" not in screen and "again to leave" not in screen
    terminal.send("C-c")
    terminal.wait_for("Ctrl-C again to leave")
    terminal.send("C-c")
    terminal.wait_for("HANDS-EXITED-0")


def test_results_render_for_people(terminal: Terminal, tmp_path: Path, hands_home: Path) -> None:
    one_line = tmp_path / "one.txt"
    one_line.write_text("just one\n")
    missing = tmp_path / "missing.txt"
    long_line = " ".join(f"w{i:03d}" for i in range(60))
    s = script(
        tmp_path / "s.json",
        [
            {
                "blocks": [
                    {"type": "tool_use", "name": "Ghost", "input": {"a": 1}},
                    {"type": "tool_use", "name": "Read", "input": {"file_path": str(one_line)}},
                    {"type": "tool_use", "name": "Read", "input": {"file_path": str(missing)}},
                    {"type": "tool_use", "name": "Bash", "input": {"command": f"echo {long_line}"}},
                ]
            },
            {"blocks": [{"type": "text", "text": "Looked."}]},
        ],
    )
    start(terminal, tmp_path, hands_home, s, "--permission-mode", "bypassPermissions")
    terminal.send("look", "Enter")
    screen = terminal.wait_for("success · 2 turns")
    # an unknown tool: its call line (input as JSON) before its result
    assert screen.index('● Ghost({"a": 1})') < screen.index("There is no tool named Ghost")
    assert "{'a': 1}" not in screen
    assert "tool_use_error" not in screen, screen
    assert "No file at" in screen
    assert "Read 1 line\n" in screen.replace(" \n", "\n")
    # the echoed line wraps under its own text
    lines = screen.splitlines()
    first = next(i for i, line in enumerate(lines) if line.startswith("  ⎿ w000"))
    assert lines[first + 1].startswith("    w0")


def test_resume_picker_and_the_resumed_conversation_on_screen(
    terminal: Terminal, tmp_path: Path, hands_home: Path
) -> None:
    s = script(
        tmp_path / "s.json",
        [{"blocks": [{"type": "text", "text": "The answer is 42."}]}],
    )
    done = subprocess.run(
        [sys.executable, "-m", "hands", "-p", "what is the answer", "--model", f"scripted:{s}"],
        cwd=tmp_path, capture_output=True, text=True, timeout=60, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    launch(terminal, tmp_path, hands_home, s, "-r")
    screen = terminal.wait_for("Resume which session")
    assert "what is the answer" in screen and "1 turn" in screen
    terminal.send("1", "Enter")
    screen = terminal.wait_for("(resumed)")
    assert "> what is the answer" in screen and "● The answer is 42." in screen
    terminal.wait_for_prompt()
    terminal.send("and now", "Enter")  # a new process: its script starts again
    screen = terminal.wait_for("success · 1 turn")
    assert screen.count("● The answer is 42.") == 2


def test_the_permission_question_shows_the_whole_command_and_the_diff(
    terminal: Terminal, tmp_path: Path, hands_home: Path
) -> None:
    target = tmp_path / "long.txt"
    command = "echo " + " ".join(f"w{i}" for i in range(60)) + f" > {target}"
    notes = tmp_path / "notes.txt"
    notes.write_text("alpha\nbeta\n")
    s = script(
        tmp_path / "s.json",
        [
            {"blocks": [{"type": "tool_use", "name": "Bash", "input": {"command": command}}]},
            {"blocks": [{"type": "tool_use", "name": "Read", "input": {"file_path": str(notes)}}]},
            {
                "blocks": [
                    {
                        "type": "tool_use",
                        "name": "Edit",
                        "input": {
                            "file_path": str(notes),
                            "old_string": "beta",
                            "new_string": "gamma",
                        },
                    }
                ]
            },
            {"blocks": [{"type": "text", "text": "all done"}]},
        ],
    )
    start(terminal, tmp_path, hands_home, s)
    terminal.send("go", "Enter")
    screen = terminal.wait_for("3. No")
    flat = "".join(screen.split())  # wrapped at the terminal's width; nothing is cut
    assert "".join(f"w59 > {target}".split()) in flat
    terminal.send("1", "Enter")
    screen = terminal.wait_for("+gamma")
    assert "-beta" in screen and notes.read_text() == "alpha\nbeta\n"  # asked before writing
    terminal.send("1", "Enter")
    terminal.wait_for("all done")
    assert notes.read_text() == "alpha\ngamma\n"


def test_a_question_taller_than_the_terminal_is_read_whole_in_a_scrollable_view(
    terminal: Terminal, tmp_path: Path, hands_home: Path
) -> None:
    target = tmp_path / "tall.txt"
    command = "\n".join(f"echo line{i:02} >> {target}" for i in range(1, 41))
    s = call_then_reply(tmp_path / "s.json", "Bash", {"command": command}, "Written.")
    start(terminal, tmp_path, hands_home, s, size=(70, 16))
    terminal.send("go", "Enter")
    screen = terminal.wait_for("q: answer")
    assert "line01 >>" in screen and "line40" not in screen  # the view opens at the top
    assert "of 4" in screen  # the status line counts the question's lines
    terminal.send("G")
    screen = terminal.wait_for(f"echo line40 >> {target}"[:60])
    terminal.send("g")
    terminal.wait_for("needs approval")
    terminal.send("PageDown")
    screen = terminal.wait_for("line10 >>")
    assert "needs approval" not in screen
    terminal.send("q")
    screen = terminal.wait_for("3. No")
    assert "answer v to see it again" in " ".join(screen.split()) and "q: answer" not in screen
    assert not target.exists()
    terminal.send("v", "Enter")  # the view again, then the question
    terminal.wait_for("q: answer")
    terminal.send("Enter")
    terminal.wait_for("Its end:")
    terminal.send("1", "Enter")
    terminal.wait_for("Written.")
    assert target.read_text().splitlines()[-1] == "line40"
