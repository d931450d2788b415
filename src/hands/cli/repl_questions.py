"""AskUserQuestion in the REPL: each question a list to pick from, with a free-text "Other".

Arrow keys (or the option's number) and Enter pick; in a multi-select question Enter
ticks or unticks the option under the cursor and "Done" ends the question. "Other" asks
for the answer in the user's own words. Ctrl-C (or Esc) declines every question.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence

from prompt_toolkit.shortcuts.choice_input import ChoiceInput
from rich.console import Console
from rich.text import Text

from hands.tools.planning.ask_user_question import OTHER, Question

_OTHER = -1
_DONE = -2

Choose = Callable[[Sequence[tuple[int, str]], int], Awaitable[int]]
"""Show ``(value, label)`` options with the cursor on a value; the value picked."""
Answer = Callable[[str], Awaitable[str]]
"""A free-text line after a prompt."""


async def choose(options: Sequence[tuple[int, str]], default: int) -> int:
    """The terminal's selectable list (``KeyboardInterrupt`` on Ctrl-C)."""
    from hands.core.terminal_text import neutralise

    shown = [(value, neutralise(label)) for value, label in options]  # labels from outside
    picker = ChoiceInput(message="", options=shown, default=default, symbol="❯")
    # ChoiceInput leaves its last drawing on screen; erased, a multi-select list redraws in
    # place after each tick and a finished question leaves only the answer line
    app = picker._create_application()  # pyright: ignore[reportPrivateUsage]
    app.erase_when_done = True
    return await app.run_async()


async def answer_questions(
    questions: Sequence[Question], console: Console, pick: Choose, answer: Answer
) -> dict[str, str] | None:
    """Question text → the chosen label(s) or the typed answer; None when declined."""
    answers: dict[str, str] = {}
    for number, q in enumerate(questions, start=1):
        console.print(
            Text.assemble(
                (f"[{q.header}] ", "bold cyan"),
                (q.question, "bold"),
                (f"  ({number}/{len(questions)})" if len(questions) > 1 else "", "dim"),
            )
        )
        got = await (_many(q, pick, answer) if q.multi_select else _one(q, pick, answer))
        if not got:
            return None
        answers[q.question] = got
        console.print(Text(f"  ⎿ {got}", style="dim"), markup=False, highlight=False)
    return answers


def _label(index: int, q: Question) -> str:
    option = q.options[index]
    return f"{option.label} — {option.description}" if option.description else option.label


async def _one(q: Question, pick: Choose, answer: Answer) -> str:
    options = [(i, _label(i, q)) for i in range(len(q.options))]
    options.append((_OTHER, f"{OTHER} (type your own answer)"))
    chosen = await pick(options, 0)
    if chosen == _OTHER:
        return (await answer("  Your answer: ")).strip()
    return q.options[chosen].label


async def _many(q: Question, pick: Choose, answer: Answer) -> str:
    ticked: set[int] = set()
    cursor = 0
    while True:
        options = [
            (i, ("[x] " if i in ticked else "[ ] ") + _label(i, q)) for i in range(len(q.options))
        ]
        options.append((_OTHER, f"{OTHER} (type your own answer)"))
        options.append((_DONE, "Done"))
        cursor = await pick(options, cursor)
        if cursor == _OTHER:
            return (await answer("  Your answer: ")).strip()
        if cursor == _DONE:
            return ", ".join(q.options[i].label for i in sorted(ticked))
        ticked ^= {cursor}
