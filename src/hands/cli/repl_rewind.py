"""``/rewind`` (or Esc Esc on an empty prompt): back to before one of this session's prompts.

The turns are listed with the files each changed; the user picks one, then what to
restore: the files (every change from that prompt on is undone), the conversation (it
goes back to before that prompt, which is shown again to edit and send), or both. A
conversation rewind is written to the transcript as a boundary, so ``--resume`` comes
back to the rewound conversation. A conversation rewound without its files drops the
checkpoints of the prompts it took away (their files stay as they are).
"""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING

from rich.console import Console
from rich.text import Text

from hands.core.words import plural
from hands.pipeline.checkpoints import CheckpointStore, Turn, store_for

if TYPE_CHECKING:
    from hands.cli.session_setup import AgentSetup

Ask = Callable[[str], Awaitable[str]]

CHOICES = {
    "1": ("code", "conversation"),
    "2": ("conversation",),
    "3": ("code",),
}


def checkpoints(setup: AgentSetup) -> CheckpointStore:
    """The session's checkpoint store."""
    session = setup.session
    return session.service(CheckpointStore, lambda: store_for(session.directory))


def menu_line(number: int, turn: Turn) -> str:
    """One prompt of the rewind menu: its first line (a background notice by its summary)."""
    first = (turn.prompt.strip().splitlines() or [""])[0]
    if first == "<task-notification>":  # a turn a background task's end started
        said = re.search(r"<summary>(.*?)</summary>", turn.prompt, re.DOTALL)
        first = said.group(1) if said else "a background task ended"
    first = first if len(first) <= 60 else first[:59] + "…"
    files = plural(len(turn.files), "file") + " changed" if turn.files else "no file changed"
    return f"{number:>3}. {first}  ({files})"


async def rewind(setup: AgentSetup, console: Console, ask: Ask) -> str | None:
    """Run the rewind menu; the prompt to put back in the input line, if any."""
    store = checkpoints(setup)
    turns = [t for t in store.turns() if t.message_index <= len(setup.history)]
    if not turns:
        console.print(Text("Nothing to rewind yet: no prompt in this session.", style="dim"))
        return None
    for number, turn in enumerate(turns, start=1):
        console.print(menu_line(number, turn), markup=False, highlight=False)
    picked = (
        await ask(f"Rewind to before which prompt (1-{len(turns)}, Enter for none)? ")
    ).strip()
    if not picked.isdigit() or not 1 <= int(picked) <= len(turns):
        console.print(Text("Nothing was rewound.", style="dim"))
        return None
    turn = turns[int(picked) - 1]
    changed = store.changed_since(turn.number)
    what = (
        await ask(
            f"Restore 1. code and conversation, 2. conversation only, 3. code only "
            f"({plural(len(changed), 'file')} to put back; Enter for none)? "
        )
    ).strip()
    chosen = CHOICES.get(what)
    if chosen is None:
        console.print(Text("Nothing was rewound.", style="dim"))
        return None
    if "code" in chosen:
        done = store.rewind(turn.number)
        for path in done.restored:
            console.print(Text(f"  ⎿ restored {path}", style="dim"))
        for path in done.removed:
            console.print(Text(f"  ⎿ removed {path} (the rewound prompts created it)", style="dim"))
        for path in done.lost:
            console.print(Text(f"  ⎿ could not put back {path}", style="yellow"))
        if not (done.restored or done.removed or done.lost):
            console.print(Text("  ⎿ no file had changed", style="dim"))
    else:  # the files stay: the rewound prompts' checkpoints go with the conversation
        store.forget(turn.number)
    if "conversation" in chosen:
        setup.history = setup.history[: turn.message_index]
        setup.writer.boundary(setup.history, trigger="rewind", tokens_before=0)
        console.print(Text(f"The conversation is back to before prompt {picked}.", style="green"))
        return turn.prompt
    console.print(Text(f"Files are back as they were before prompt {picked}.", style="green"))
    return None
