"""A project's sessions for people: a line each, a picker, a resumed conversation's tail."""

from __future__ import annotations

import datetime
from collections.abc import Callable, Sequence
from pathlib import Path

from rich.console import Console
from rich.text import Text

from hands.agent.transcript import SessionSummary, prompts, sessions, summarize
from hands.core.messages import Message
from hands.core.terminal_text import neutralise
from hands.core.words import plural

SHOWN_TURNS = 3
"""How many of a resumed conversation's last turns are shown again."""


def summaries(home: Path, cwd: Path) -> list[SessionSummary]:
    """The sessions started in ``cwd``, newest first."""
    return [summarize(path) for path in sessions(home, cwd)]


def describe(summary: SessionSummary, *, width: int = 60) -> str:
    """``ID  when  N turns  size  first prompt``."""
    when = datetime.datetime.fromtimestamp(summary.modified).strftime("%Y-%m-%d %H:%M")
    first = summary.first_prompt or "(no prompt)"
    if len(first) > width:
        first = first[: width - 1] + "…"
    return (
        f"{summary.session_id}  {when}  {plural(summary.turns, 'turn'):>9}  "
        f"{_size(summary.size):>8}  {first}"
    )


def _size(n: int) -> str:
    for unit, scale in (("MB", 1 << 20), ("KB", 1 << 10)):
        if n >= scale:
            return f"{n / scale:.1f} {unit}"
    return plural(n, "byte")


def pick(found: Sequence[SessionSummary], ask: Callable[[str], str] = input) -> str | None:
    """Ask which session to resume; its id, or None when the user picks none."""
    for number, summary in enumerate(found, start=1):
        print(f"{number:>3}. {neutralise(describe(summary))}")
    while True:
        try:
            answer = ask(f"Resume which session (1-{len(found)}, Enter for none)? ").strip()
        except (EOFError, KeyboardInterrupt):
            print()
            return None
        if not answer:
            return None
        if answer.isdigit() and 1 <= int(answer) <= len(found):
            return found[int(answer) - 1].session_id
        print(f"Type a number from 1 to {len(found)}.")


def replay(console: Console, messages: Sequence[Message], *, turns: int = SHOWN_TURNS) -> None:
    """The last ``turns`` prompts of a resumed conversation, each with its final answer."""
    said = prompts(messages)
    if not said:
        return
    shown = said[-turns:]
    if len(said) > len(shown):
        console.print(Text(f"… {plural(len(said) - len(shown), 'earlier turn')}", style="dim"))
    opening = {id(m) for m in shown}
    start = next(i for i, m in enumerate(messages) if id(m) in opening)
    answer = ""
    calls = 0
    for message in messages[start:]:
        if id(message) in opening:
            _answer(console, answer, calls)
            answer, calls = "", 0
            console.print(Text("> " + _line(message.text), style="bold"))
        elif message.role == "assistant":
            calls += len(message.tool_uses)
            answer = message.text or answer
    _answer(console, answer, calls)
    console.print(Text("(resumed)", style="dim"))


def _answer(console: Console, text: str, calls: int) -> None:
    if calls:
        console.print(Text(f"  {plural(calls, 'tool call')}", style="dim"))
    if text.strip():
        console.print(Text("● " + _line(text)))


def _line(text: str, width: int = 200) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= width else flat[: width - 1] + "…"
