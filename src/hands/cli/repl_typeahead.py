"""What the user types while a turn runs: shown under the turn, and nothing of it lost.

The keys are read in raw mode by the turn's key watcher (Esc and Ctrl-C interrupt, and
never reach here). Characters and pastes build a draft shown as ``> draft`` under the
running turn; Backspace, Ctrl-U (the whole draft) and Ctrl-W (the last word) edit it;
a backslash before Enter continues it on a new line. Enter queues the draft: queued
prompts are listed under the turn and sent together, as the next prompt, once the turn
ends. A turn the user interrupted sends nothing: its queued prompts and the draft come
back in the input line, to edit or send. A draft never queued is put in the next input
line. Other keys (arrows, function keys) do not edit the draft and are dropped.
"""

from __future__ import annotations

from dataclasses import dataclass

from prompt_toolkit.key_binding import KeyPress
from prompt_toolkit.keys import Keys
from rich.console import Group, RenderableType
from rich.text import Text

from hands.cli.repl_paste import Pastes

_ENTER = (Keys.ControlM, Keys.ControlJ)


@dataclass(frozen=True, kw_only=True, slots=True)
class AfterTurn:
    """What the keys typed during a turn come to, once it has ended."""

    prompt: str | None
    """Queued prompts to send now, as one (None: nothing to send)."""
    line: str
    """Text for the next input line."""


class TypeAhead:
    """The draft being typed and the prompts queued while a turn runs."""

    def __init__(self, pastes: Pastes) -> None:
        self.pastes = pastes
        self.draft = ""
        self.queued: list[str] = []
        """As shown (a collapsed paste as its placeholder)."""

    def feed(self, key: KeyPress) -> None:
        """One key pressed during the turn."""
        name = key.key
        if name == Keys.BracketedPaste:
            data = key.data.replace("\r\n", "\n").replace("\r", "\n")
            self.draft += self.pastes.add(data)
        elif name in _ENTER:
            if self.draft.endswith("\\"):
                self.draft = self.draft[:-1] + "\n"
            elif self.draft.strip():
                self.queued.append(self.draft.strip())
                self.draft = ""
        elif name == Keys.ControlH:
            self.draft = self.draft[:-1]
        elif name == Keys.ControlU:
            self.draft = ""
        elif name == Keys.ControlW:
            kept = self.draft.rstrip()
            self.draft = kept[: len(kept) - len(kept.split()[-1])] if kept else ""
        elif not isinstance(name, Keys) and name.isprintable():
            self.draft += name

    def end_turn(self, *, interrupted: bool) -> AfterTurn:
        """Empty the draft and the queue into what happens next."""
        queued, draft = self.queued, self.draft
        self.queued, self.draft = [], ""
        if interrupted or not queued:
            return AfterTurn(prompt=None, line="\n".join([*queued, draft]).strip("\n"))
        return AfterTurn(prompt=self.pastes.expand("\n".join(queued)), line=draft)

    def render(self) -> RenderableType | None:
        """The queued prompts and the draft, for under the running turn (None: nothing)."""
        if not self.queued and not self.draft:
            return None
        lines: list[RenderableType] = [
            Text(f"  ⏵ queued: {prompt}", style="dim") for prompt in self.queued
        ]
        if self.draft:
            lines.append(Text(f"> {self.draft}"))
        elif self.queued:
            lines.append(
                Text("  (sent when this turn ends; Esc brings them back to edit)", style="dim")
            )
        return Group(*lines)
