"""The one question asked before the REPL first starts in the bypassPermissions mode."""

from __future__ import annotations

import typer

from hands.config.bypass_acceptance import accept, is_accepted
from hands.config.settings import Settings

WARNING = (
    "hands is starting in the bypassPermissions mode (--dangerously-skip-permissions): "
    "every tool call runs without asking, including commands that delete files or reach "
    "the network. Use it only in a sandbox or container whose contents you can lose. "
    "Deny rules still apply. This question is asked once; the answer yes is kept."
)


def confirm_bypass(mode: str, settings: Settings) -> bool:
    """Whether the REPL may start in ``mode``; asks the first time (no: the REPL exits)."""
    if mode != "bypassPermissions" or is_accepted(settings):
        return True
    typer.echo(WARNING)
    if not typer.confirm("Run every call without asking?", default=False):
        return False
    try:
        accept()
    except OSError as exc:  # accepted for this run; asked again next time
        typer.echo(f"hands: warning: the answer could not be kept ({exc})", err=True)
    return True
