"""``/plan [TEXT]``: enter plan mode, as Shift-Tab to ``plan`` does; TEXT is then sent."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.text import Text

from hands.cli.repl_commands import describe_mode

if TYPE_CHECKING:
    from hands.cli.repl import Repl


async def run(repl: Repl, arg: str) -> bool:
    """Switch to plan mode (if not in it), then run ``arg`` as a prompt when given."""
    from hands.permissions import plan_mode

    if plan_mode.planning(repl.mode):
        repl.console.print(Text("Already in plan mode.", style="dim"))
    else:
        before, repl.mode = repl.mode, "plan"
        plan_mode.enter(repl.setup.session, before)
        repl.console.print(Text(describe_mode("plan"), style="cyan"))
    if arg:
        await repl.turn(arg)
    return True
