"""The planning tools in a real terminal: questions to pick from, the todo checklist."""

from __future__ import annotations

import time
from pathlib import Path

from hands.tools.planning.ask_user_question import AskUserQuestionTool
from hands.tools.planning.todo_write import TodoWriteTool
from terminal import Terminal, launch, script
from tools.planning.kit import COLOR, SIZES

QUESTIONS = [COLOR, SIZES]


def call(name: str, data: dict[str, object]) -> dict[str, object]:
    return {"blocks": [{"type": "tool_use", "name": name, "input": data}]}


def reply(text: str) -> dict[str, object]:
    return {"blocks": [{"type": "text", "text": text}]}


def test_questions_are_lists_to_pick_from_with_other_in_your_own_words(
    terminal: Terminal, tmp_path: Path, hands_home: Path
) -> None:
    ask = AskUserQuestionTool.name
    s = script(
        tmp_path / "s.json",
        [
            call(ask, {"questions": QUESTIONS}),
            call(ask, {"questions": QUESTIONS[:1]}),
            reply("thanks"),
        ],
    )
    launch(terminal, tmp_path, hands_home, s)
    terminal.wait_for("(/help")
    terminal.wait_for_prompt()
    terminal.send("go", "Enter")
    screen = terminal.wait_for("Other (type your own answer)")
    assert "[Colour] Which colour?" in screen and "Red — warm" in screen
    terminal.send("Down")
    terminal.send("Enter")  # Blue
    terminal.wait_for("[ ] S — small")
    terminal.send("Enter")  # tick S; the cursor stays on it
    terminal.wait_for("[x] S — small")
    terminal.send("Down")
    terminal.send("Down")
    terminal.send("Enter")  # tick L
    terminal.wait_for("[x] L — large")
    terminal.send("Down")
    terminal.send("Down")
    terminal.send("Enter")  # Done
    screen = terminal.wait_for('"Which sizes?" → S, L')
    assert '"Which colour?" → Blue' in screen
    # the second call: Other, then the user's own words
    deadline = time.monotonic() + 15
    while terminal.screen().count("[Colour] Which colour?") < 2:
        assert time.monotonic() < deadline, terminal.screen()
        time.sleep(0.1)
    for _ in range(2):
        terminal.send("Down")
    terminal.send("Enter")
    terminal.wait_for("Your answer:")
    terminal.send("Green, please", "Enter")
    screen = terminal.wait_for("thanks")
    assert '"Which colour?" → Green, please' in screen


def test_ctrl_c_at_a_question_declines_it(
    terminal: Terminal, tmp_path: Path, hands_home: Path
) -> None:
    s = script(
        tmp_path / "s.json",
        [call(AskUserQuestionTool.name, {"questions": QUESTIONS[:1]}), reply("understood")],
    )
    launch(terminal, tmp_path, hands_home, s)
    terminal.wait_for("(/help")
    terminal.wait_for_prompt()
    terminal.send("go", "Enter")
    terminal.wait_for("Other (type your own answer)")
    terminal.send("C-c")
    screen = terminal.wait_for("understood")
    assert "declined" in screen


def test_the_todo_checklist_is_shown_as_it_changes(
    terminal: Terminal, tmp_path: Path, hands_home: Path
) -> None:
    def todos(*statuses: str) -> dict[str, object]:
        names = ["Read the code", "Fix the bug", "Add a test"]
        return call(
            TodoWriteTool.name,
            {
                "todos": [
                    {"content": n, "status": st, "activeForm": n.replace("the", "ing the")}
                    for n, st in zip(names, statuses, strict=True)
                ]
            },
        )

    s = script(
        tmp_path / "s.json",
        [
            todos("in_progress", "pending", "pending"),
            todos("completed", "in_progress", "pending"),
            reply("fixed"),
        ],
    )
    launch(terminal, tmp_path, hands_home, s, env={"HANDS_ENABLE_TASKS": "0"})
    terminal.wait_for("(/help")
    terminal.wait_for_prompt()
    terminal.send("go", "Enter")
    screen = terminal.wait_for("fixed")
    assert "Todo list updated: 0 of 3 done" in screen and "Todo list updated: 1 of 3 done" in screen
    assert "⎿ ☒ Read the code" in screen and "◼ Fix the bug" in screen and "☐ Add a test" in screen
