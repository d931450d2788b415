"""The REPL's keyboard: the input prompt, permission answers, and keys pressed during a turn.

At the input prompt Ctrl-C clears typed text (on an empty line it raises
``KeyboardInterrupt``: the REPL counts two to leave), Tab completes and Shift-Tab calls
back (the REPL cycles the permission mode, shown under the input), Esc Esc on an
empty line enters ``/rewind``, Esc-Enter and backslash-Enter insert a newline
(``cli/repl_newline.py``), a large paste shows as a placeholder and is sent in full
(``cli/repl_paste.py``). At a question (a permission prompt, any answer) Ctrl-C
and Esc raise ``KeyboardInterrupt``. While a turn runs the terminal stays in raw mode:
Esc and Ctrl-C interrupt the turn, anything else typed is shown under the turn and queued
(``cli/repl_typeahead.py``).
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from pathlib import Path
from typing import Any

import anyio
from prompt_toolkit import PromptSession
from prompt_toolkit.completion import Completer
from prompt_toolkit.key_binding import KeyBindings, KeyPress
from prompt_toolkit.keys import Keys

from hands.cli.repl_newline import add_newline_keys
from hands.cli.repl_paste import PasteHistory, Pastes
from hands.cli.repl_typeahead import TypeAhead

REWIND_LINE = "/rewind"
"""What Esc Esc on an empty prompt enters."""

_ESC_WAIT_S = 0.05
"""How long a lone Esc byte waits for the rest of an escape sequence."""


class TerminalInput:
    """Reads the user's lines and answers, and watches the keys pressed during a turn."""

    def __init__(self, history: Path, completer: Completer | None = None) -> None:
        history.parent.mkdir(parents=True, exist_ok=True)
        self._answering = False
        self._reading = False
        self.on_shift_tab: Callable[[], None] | None = None
        """Called on Shift-Tab at the input prompt; the prompt is drawn again after it."""
        bindings = KeyBindings()

        add_newline_keys(bindings)  # Esc-Enter, backslash-Enter
        self.pastes = Pastes()
        self.pastes.bind(bindings)  # a large paste collapses to a placeholder
        self.typeahead = TypeAhead(self.pastes)
        """What is typed while a turn runs."""

        # Esc Esc on an empty input line opens the rewind menu (as the line "/rewind")
        @bindings.add("escape", "escape")
        def _rewind(event: Any) -> None:
            if not event.current_buffer.text and not self._answering:
                event.app.exit(result=REWIND_LINE)

        @bindings.add("c-c")
        def _ctrl_c(event: Any) -> None:
            buffer = event.current_buffer
            if buffer.text and not self._answering:
                buffer.reset()
            else:
                event.app.exit(exception=KeyboardInterrupt())

        @bindings.add("s-tab")
        def _shift_tab(event: Any) -> None:
            callback = self.on_shift_tab
            if callback is None or self._answering:
                return
            callback()
            event.app.invalidate()

        self.bindings = bindings
        self.session: PromptSession[str] = PromptSession(
            history=PasteHistory(str(history), self.pastes),
            key_bindings=bindings,
            multiline=False,
            completer=completer,
            complete_while_typing=False,
        )
        self._answers: PromptSession[str] = PromptSession(key_bindings=_answer_keys())

    async def line(self, text: str, default: str = "") -> str:
        """The next input line (``KeyboardInterrupt`` on Ctrl-C at an empty line).

        ``default``: text already in the line, to edit or send.
        """
        self._answering = False
        self._reading = True
        try:
            line = await self.session.prompt_async(text, handle_sigint=False, default=default)
            return self.pastes.expand(line)
        finally:
            self._reading = False

    def wake(self) -> bool:
        """End the input prompt with an empty line; whether it did.

        Only a prompt that is up with nothing typed in it is ended.
        """
        app = self.session.app
        if not self._reading or self._answering or not app.is_running:
            return False
        if self.session.default_buffer.text:
            return False
        app.exit(result="")
        return True

    async def answer(self, text: str) -> str:
        """An answer to a question (``KeyboardInterrupt`` on any Ctrl-C); not kept in history.

        The question may quote text from outside (a command, a server's field name): it is
        shown, never obeyed (prompt_toolkit shows C0/C1 controls as ``^X``, not bidi).
        """
        from hands.core.terminal_text import neutralise

        text = neutralise(text)
        self._answering = True
        try:
            return await self._answers.prompt_async(text, handle_sigint=False)
        finally:
            self._answering = False

    async def watch_turn(
        self, *, on_escape: Callable[[], None], on_ctrl_c: Callable[[], None]
    ) -> None:
        """Until cancelled: Esc, Ctrl-C and Shift-Tab call back; other keys: :attr:`typeahead`."""
        terminal = self.session.input
        loop = asyncio.get_running_loop()

        def handle(keys: list[KeyPress]) -> None:
            for key in keys:
                if key.key == Keys.Escape:
                    on_escape()
                elif key.key == Keys.ControlC:
                    on_ctrl_c()
                elif key.key == Keys.BackTab and self.on_shift_tab is not None:
                    self.on_shift_tab()
                else:
                    self.typeahead.feed(key)

        def ready() -> None:
            handle(terminal.read_keys())
            loop.call_later(_ESC_WAIT_S, lambda: handle(terminal.flush_keys()))

        with terminal.raw_mode(), terminal.attach(ready):
            await anyio.sleep_forever()


def _answer_keys() -> KeyBindings:
    """An answer's keys: Ctrl-C and Esc both cancel the question (``KeyboardInterrupt``)."""
    keys = KeyBindings()

    # eager: a lone Esc acts at once instead of waiting to see if it starts an Alt- key
    @keys.add("escape", eager=True)
    @keys.add("c-c")
    def _cancel(event: Any) -> None:
        event.app.exit(exception=KeyboardInterrupt())

    return keys
