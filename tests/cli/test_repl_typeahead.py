"""Keys typed while a turn runs, parsed from terminal bytes as the turn's key watcher does."""

from __future__ import annotations

from prompt_toolkit.input.vt100_parser import Vt100Parser
from prompt_toolkit.key_binding import KeyPress

from hands.cli.repl_paste import Pastes
from hands.cli.repl_typeahead import TypeAhead


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
