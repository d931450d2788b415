"""Helpers the Bash tool tests share."""

from __future__ import annotations

from pathlib import Path

from hands.core.outcome import ToolCallOutcome


def text(outcome: ToolCallOutcome) -> str:
    """The outcome's content, which must be text."""
    content = outcome.block.content
    assert isinstance(content, str)
    return content


def alive(pid: int) -> bool:
    """Whether ``pid`` runs (a zombie does not count)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[-1].split()[0]
    except OSError:
        return False
    return state != "Z"
