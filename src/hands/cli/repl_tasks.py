"""``/tasks`` (and ``/bashes``): the background shells and agents; read or stop one.

``/tasks`` lists them; ``/tasks ID`` shows the last lines of one's output;
``/tasks stop ID`` stops it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from rich.table import Table
from rich.text import Text

from hands.core.background import BackgroundAgents
from hands.tools.bash.background import shells, stop_shell

if TYPE_CHECKING:
    from rich.console import Console

    from hands.cli.repl import Repl
    from hands.core.session import Session

TAIL_LINES = 40
USAGE = "/tasks lists them; /tasks ID shows one's output; /tasks stop ID stops it."


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
    try:
        text = path.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return "", 0
    all_lines = text.splitlines()
    return "\n".join(all_lines[-lines:]), max(0, len(all_lines) - lines)


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
    text, earlier = tail(row.output_path)
    console.print(Text(f"{row.id} · {row.kind} · {row.status} · {row.what}", style="bold"))
    if earlier:
        console.print(Text(f"… {earlier} earlier lines in {row.output_path}", style="dim"))
    console.print(Text(text or "(no output yet)"))
    return True


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
