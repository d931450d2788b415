"""Keys typed while a turn runs, parsed from terminal bytes as the turn's key watcher does."""

from __future__ import annotations

import io

from prompt_toolkit.input.vt100_parser import Vt100Parser
from prompt_toolkit.key_binding import KeyPress
from rich.console import Console

from hands.agent.events import MessageEvent
from hands.cli.repl_paste import Pastes
from hands.cli.repl_typeahead import SENT_MEANWHILE, TypeAhead
from hands.core.inbox import Inbox
from hands.core.messages import Message, ToolResultBlock, user_text


def typed(ahead: TypeAhead, data: str) -> None:
    keys: list[KeyPress] = []
    parser = Vt100Parser(keys.append)
    parser.feed(data)
    parser.flush()
    for key in keys:
        ahead.feed(key)


def test_enter_queues_and_the_queue_is_sent_as_one_prompt_after_the_turn() -> None:
    ahead = TypeAhead(Pastes())
    typed(ahead, "fix the tset\x7f\x7f\x7fest\rthen run it\\\ragain\r")
    assert ahead.queued == ["fix the test", "then run it\nagain"]
    typed(ahead, "half a wor\x17word\x1b[A")  # Ctrl-W drops a word; an arrow is no text
    assert ahead.draft == "half a word"
    after = ahead.end_turn(interrupted=False)
    assert after.prompt == "fix the test\nthen run it\nagain"
    assert after.line == "half a word"
    assert ahead.end_turn(interrupted=False).prompt is None  # emptied


def test_an_interrupted_turn_gives_everything_back_to_the_input_line() -> None:
    ahead = TypeAhead(Pastes())
    typed(ahead, "one\r\r  \rtwo\x15three")  # blank lines are not queued; Ctrl-U clears
    after = ahead.end_turn(interrupted=True)
    assert after.prompt is None and after.line == "one\nthree"


def test_a_large_paste_is_queued_collapsed_and_sent_whole() -> None:
    ahead = TypeAhead(Pastes())
    big = "\n".join(f"row {n}" for n in range(10))
    typed(ahead, f"look at \x1b[200~{big}\x1b[201~\r")
    assert ahead.queued == ["look at [Pasted text #1 +10 lines]"]
    assert ahead.end_turn(interrupted=False).prompt == f"look at {big}"


def _results() -> MessageEvent:
    block = ToolResultBlock(tool_use_id="toolu_1", content="done")
    return MessageEvent(message=Message(role="user", content=(block,)))


def test_queued_prompts_go_with_tool_results_and_come_back_when_unread() -> None:
    ahead, inbox, screen = TypeAhead(Pastes()), Inbox(), io.StringIO()
    console = Console(file=screen, width=80)
    typed(ahead, "and B\r")
    ahead.pass_on(MessageEvent(message=user_text("not results")), inbox, console)
    assert inbox.peek(None) == ()  # only tool results carry them
    ahead.pass_on(_results(), inbox, console)
    assert inbox.peek(None) == (f"{SENT_MEANWHILE}\n\nand B",) and ahead.queued == []
    assert "> and B" in screen.getvalue()
    inbox.deliver(None, "a background task ended")
    # the turn ended before its next request read them: queued again, the rest stays
    after = ahead.end_turn(interrupted=False, inbox=inbox)
    assert after.prompt == "and B"
    assert inbox.peek(None) == ("a background task ended",)


def test_queued_prompts_the_turn_read_are_not_sent_again() -> None:
    ahead, inbox = TypeAhead(Pastes()), Inbox()
    typed(ahead, "and B\r")
    ahead.pass_on(_results(), inbox, Console(file=io.StringIO()))
    assert len(inbox.take(None)) == 1  # the loop read it before its next request
    assert ahead.end_turn(interrupted=False, inbox=inbox).prompt is None
