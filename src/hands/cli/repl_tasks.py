"""``/tasks`` (and ``/bashes``): the background shells and agents; read or stop one.

``/tasks`` lists them; ``/tasks ID`` shows the last lines of one's output and, while it
runs, follows it as it grows (like ``tail -f``) until it ends or the user presses Esc or
Ctrl-C (the task goes on); ``/tasks stop ID`` stops it.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import anyio
from rich.table import Table
from rich.text import Text

from hands.core.background import BackgroundAgents
from hands.tools.bash.background import shells, stop_shell

if TYPE_CHECKING:
    from rich.console import Console

    from hands.cli.repl import Repl
    from hands.core.session import Session

TAIL_LINES = 40
USAGE = "/tasks lists them; /tasks ID shows (and follows) one's output; /tasks stop ID stops it."
FOLLOW_POLL_S = 0.2
"""How often a followed task's output file and status are looked at."""


@dataclass(frozen=True, kw_only=True, slots=True)
class Row:
    """One background shell or agent."""

    id: str
    kind: str
    status: str
    what: str
    output_path: Path


def rows(session: Session) -> list[Row]:
    """The session's background shells, then its background agents."""
    out = [
        Row(
            id=s.id,
            kind="shell",
            status=f"failed ({s.exit_code})" if s.status == "failed" else s.status,
            what=s.description or s.command,
            output_path=s.output_path,
        )
        for s in shells(session)
    ]
    out += [
        Row(
            id=a.id,
            kind=f"agent ({a.agent_type})",
            status=a.status,
            what=a.description,
            output_path=a.output_path,
        )
        for a in BackgroundAgents.for_session(session).all()
    ]
    return out


def tail(path: Path, lines: int = TAIL_LINES) -> tuple[str, int]:
    """The last ``lines`` lines of ``path`` and how many lines came before them."""
    text, earlier, _ = _tail_at(path, lines)
    return text, earlier


def _tail_at(path: Path, lines: int = TAIL_LINES) -> tuple[str, int, int]:
    """:func:`tail`, and the size of the file read (where following goes on from)."""
    try:
        data = path.read_bytes()
    except OSError:
        return "", 0, 0
    all_lines = data.decode("utf-8", errors="replace").splitlines()
    return "\n".join(all_lines[-lines:]), max(0, len(all_lines) - lines), len(data)


@dataclass(kw_only=True, slots=True)
class Follower:
    """Reads what a growing output file gained since the last look, whole lines only."""

    path: Path
    offset: int
    pending: bytes = b""

    def new_lines(self, *, final: bool = False) -> list[str]:
        """The complete lines added since the last call (``final``: the last part too)."""
        try:
            with self.path.open("rb") as f:
                f.seek(self.offset)
                data = f.read()
        except OSError:
            data = b""
        self.offset += len(data)
        self.pending += data
        *done, self.pending = self.pending.split(b"\n")
        if final and self.pending:
            done.append(self.pending)
            self.pending = b""
        return [line.decode("utf-8", errors="replace") for line in done]


async def follow(console: Console, session: Session, row: Row, offset: int) -> str:
    """Print ``row``'s output as it grows until the task stops running; its last status."""
    reader = Follower(path=row.output_path, offset=offset)
    while True:
        current = next((r for r in rows(session) if r.id == row.id), None)
        status = current.status if current is not None else "gone"
        for line in reader.new_lines(final=status != "running"):
            console.print(Text(line))
        if status != "running":
            return status
        await anyio.sleep(FOLLOW_POLL_S)


def show_list(console: Console, found: Sequence[Row]) -> None:
    """The table of background work, or one line when there is none."""
    if not found:
        console.print(Text("No background shells or agents in this session.", style="dim"))
        return
    table = Table("id", "kind", "status", "command or task")
    for row in found:
        style = "bold" if row.status == "running" else "dim"
        table.add_row(row.id, row.kind, row.status, row.what, style=style)
    console.print(table)
    console.print(Text(USAGE, style="dim"))


async def run(repl: Repl, arg: str) -> bool:
    """List, show or stop background work."""
    session = repl.setup.session
    console = repl.console
    words = arg.split()
    found = rows(session)
    if not words:
        show_list(console, found)
        return True
    stopping = words[0] == "stop"
    wanted = words[1:] if stopping else words
    if len(wanted) != 1:
        console.print(Text(USAGE, style="red"))
        return True
    row = next((r for r in found if r.id == wanted[0]), None)
    if row is None:
        known = ", ".join(r.id for r in found) or "none"
        console.print(Text(f"No background task {wanted[0]} (known: {known}).", style="red"))
        return True
    if stopping:
        console.print(Text(await _stop(session, row), style="yellow"))
        return True
    text, earlier, size = _tail_at(row.output_path)
    console.print(Text(f"{row.id} · {row.kind} · {row.status} · {row.what}", style="bold"))
    if earlier:
        console.print(Text(f"… {earlier} earlier lines in {row.output_path}", style="dim"))
    if text or row.status != "running":
        console.print(Text(text or "(no output)"))
    if row.status == "running":
        await _follow_until_key(repl, row, size)
    return True


async def _follow_until_key(repl: Repl, row: Row, offset: int) -> None:
    """Follow ``row`` until it ends, or until Esc or Ctrl-C (then it goes on running)."""
    console = repl.console
    console.print(Text(f"Following {row.id}; Esc or Ctrl-C stops following.", style="dim"))
    status = "running"
    with anyio.CancelScope() as scope:
        async with anyio.create_task_group() as keys:
            keys.start_soon(
                functools.partial(
                    repl.keys.watch_turn, on_escape=scope.cancel, on_ctrl_c=scope.cancel
                )
            )
            status = await follow(console, repl.setup.session, row, offset)
            keys.cancel_scope.cancel()
    if scope.cancelled_caught:
        console.print(
            Text(f"Stopped following {row.id}; it goes on in the background.", style="dim")
        )
    else:
        console.print(Text(f"{row.id} ended: {status}.", style="bold"))


async def _stop(session: Session, row: Row) -> str:
    if row.status != "running":
        return f"{row.id} is not running ({row.status})."
    if row.kind == "shell":
        stopped = await stop_shell(session, row.id)
        return f"Stopped {row.id}" + (f": {stopped.status}." if stopped else ".")
    agent = BackgroundAgents.for_session(session).get(row.id)
    if agent is not None:
        agent.stop()
    return f"Asked the agent {row.id} to stop."
