"""A scrollable view of text taller than the terminal (a long command, a large diff).

A permission question must be read whole before it is answered; when it does not fit
on the screen the REPL shows it here first, on the terminal's alternate screen, with
its line count and the visible range. The arrow keys, Page Up/Down, Space, ``g``/``G``
(and the mouse wheel) scroll; Enter, ``q`` or Esc closes the view. Ctrl-C raises
``KeyboardInterrupt`` as at any prompt.
"""

from __future__ import annotations

from typing import Any

from prompt_toolkit.application import Application
from prompt_toolkit.key_binding import KeyBindings
from prompt_toolkit.key_binding.bindings.scroll import scroll_page_down, scroll_page_up
from prompt_toolkit.layout import HSplit, Layout, Window
from prompt_toolkit.layout.controls import FormattedTextControl
from prompt_toolkit.widgets import TextArea
from rich.console import Console
from rich.text import Text

from hands.core.words import plural

CLOSE_KEYS = ("enter", "q", "escape")
VIEW_AGAIN = "v"
"""The answer that opens the view again."""


def screen_lines(console: Console, text: str) -> int:
    """How many terminal lines ``text`` takes once wrapped at the console's width."""
    return len(Text(text).wrap(console, max(console.width, 1), overflow="fold"))


def fits(console: Console, text: str, *, below: int) -> bool:
    """Whether ``text`` and ``below`` more lines fit on the screen at once."""
    return screen_lines(console, text) + below <= console.size.height


async def page(text: str, *, title: str) -> None:
    """Show ``text`` in a scrollable full-screen view until the user closes it."""
    total = text.count("\n") + 1
    area = TextArea(
        text=text,
        read_only=True,
        scrollbar=True,
        wrap_lines=True,
    )

    def status() -> str:
        info = area.window.render_info
        shown = (
            f"lines {info.first_visible_line() + 1}-{info.last_visible_line() + 1}"
            if info is not None
            else "line 1"
        )
        return f" {title} {shown} of {total} · ↑↓ PgDn Space g G · q: answer "

    bindings = KeyBindings()

    bindings.add(" ")(scroll_page_down)
    bindings.add("b")(scroll_page_up)

    @bindings.add("g")
    def _top(event: Any) -> None:
        area.buffer.cursor_position = 0

    @bindings.add("G")
    def _bottom(event: Any) -> None:
        area.buffer.cursor_position = len(area.text)

    def _close(event: Any) -> None:
        event.app.exit()

    for key in CLOSE_KEYS:
        bindings.add(key, eager=True)(_close)

    @bindings.add("c-c")
    def _interrupt(event: Any) -> None:
        event.app.exit(exception=KeyboardInterrupt())

    bar = Window(FormattedTextControl(lambda: [("reverse", status())]), height=1)
    app: Application[None] = Application(
        layout=Layout(HSplit([area, bar]), focused_element=area),
        key_bindings=bindings,
        full_screen=True,
        mouse_support=True,
    )
    await app.run_async()


async def show_question(console: Console, body: str) -> bool:
    """Print a question's body; one taller than the screen is first shown in the view.

    After the view, the body's last lines that fit (the choices among them) are printed
    under a note that says how to see the whole again. Returns whether it was folded.
    """
    if fits(console, body, below=1):
        console.print(Text(body), soft_wrap=False, overflow="fold")
        return False
    await page(body, title="Question,")
    lines = Text(body).wrap(console, max(console.width, 1), overflow="fold")
    room = max(console.size.height - 3, 1)
    total = body.count("\n") + 1
    console.print(
        Text(
            f"The whole question ({plural(total, 'line')}) was shown in a scrollable view; "
            f"answer {VIEW_AGAIN} to see it again. Its end:",
            style="dim",
        ),
        overflow="fold",
    )
    for line in lines[-room:]:
        console.print(line, soft_wrap=False, overflow="fold")
    return True
