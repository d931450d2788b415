"""What the user types while a turn runs: shown under the turn, and nothing of it lost.

The keys are read in raw mode by the turn's key watcher (Esc and Ctrl-C interrupt, and
never reach here). Characters and pastes build a draft shown as ``> draft`` under the
running turn; Backspace, Ctrl-U (the whole draft) and Ctrl-W (the last word) edit it;
a backslash before Enter continues it on a new line. Enter queues the draft: queued
prompts are listed under the turn. When the turn's tool results go back to the model,
the queued prompts go with them (the model reads them before its next step, and they are
printed as sent); those still queued when the turn ends are sent together as the next
prompt. A turn the user interrupted sends nothing more: its queued prompts and the draft
come back in the input line, to edit or send. A draft never queued is put in the next
input line. Other keys (arrows, function keys) do not edit the draft and are dropped.
"""

from __future__ import annotations

from dataclasses import dataclass

from prompt_toolkit.key_binding import KeyPress
from prompt_toolkit.keys import Keys
from rich.console import Console, Group, RenderableType
from rich.text import Text

from hands.agent.events import MessageEvent, QueryEvent
from hands.cli.repl_paste import Pastes
from hands.core.inbox import Inbox
from hands.core.messages import ToolResultBlock

_ENTER = (Keys.ControlM, Keys.ControlJ)

SENT_MEANWHILE = (
    "The user sent this while you were working; answer it once the step under way is done:"
)
"""Opens the prompts passed on to a running turn."""


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
        self._passed: tuple[str, list[str]] | None = None
        """The note last passed on to the running turn, and the prompts it holds."""

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

    def pass_on(self, event: QueryEvent, inbox: Inbox, console: Console) -> None:
        """After ``event``, tool results sent back, the queue goes to the model too.

        It waits in the inbox, which the loop reads before its next request.
        """
        if not self.queued or not isinstance(event, MessageEvent):
            return
        if not any(isinstance(b, ToolResultBlock) for b in event.message.content):
            return
        shown, self.queued = self.queued, []
        note = f"{SENT_MEANWHILE}\n\n{self.pastes.expand(chr(10).join(shown))}"
        inbox.deliver(None, note)
        self._passed = (note, shown)
        for prompt in shown:
            console.print(Text(f"> {prompt}"), markup=False, highlight=False)

    def end_turn(self, *, interrupted: bool, inbox: Inbox | None = None) -> AfterTurn:
        """Empty the draft and the queue into what happens next.

        Prompts passed on that the turn ended without reading are queued again.
        """
        passed, self._passed = self._passed, None
        if passed is not None and inbox is not None and passed[0] in inbox.peek(None):
            others = [n for n in inbox.take(None) if n != passed[0]]
            for notice in others:
                inbox.deliver(None, notice)
            self.queued[:0] = passed[1]
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
