"""What a summary carries besides the summary: where the session is and what it last read.

The working directory, permission mode and plan file are stated; the files read most
recently are re-attached (their first lines, as they are on disk now) so the model does
not re-read them blindly; the read-state cache is kept, but a Read after compaction shows
a file again instead of answering that it is unchanged.
"""

from __future__ import annotations

from pathlib import Path

from hands.core.context import ToolContext
from hands.core.messages import Message, TextBlock
from hands.core.plan_file import plan_file
from hands.tools.file._state import ReadStateCache

ATTACHED_LINES = 40
ATTACHED_CHARS = 2_000

SUMMARY_OPENING = (
    "This session goes on from an earlier conversation that was compacted to save context. "
    "The notes below summarise it; the most recent turns follow them as they were."
)


def summary_message(summary: str, ctx: ToolContext, *, reattach: int, extra: str = "") -> Message:
    """The user message that opens the compacted conversation."""
    opening = f"<system-reminder>\n{SUMMARY_OPENING}\n\n{summary}\n</system-reminder>"
    blocks = [TextBlock(text=opening)]
    state = [f"Working directory: {ctx.cwd}", f"Permission mode: {ctx.permission_mode}"]
    plan = plan_file(ctx.session)
    if plan.is_file():
        state.append(f"The plan file is {plan}; it holds the current plan.")
    elif ctx.permission_mode == "plan":
        state.append(f"You are planning; write the plan to {plan}.")
    blocks.append(TextBlock(text="<system-reminder>\n" + "\n".join(state) + "\n</system-reminder>"))
    cache = ctx.session.service(ReadStateCache)
    for record in cache.recent(reattach):
        attached = _attached(record.path)
        if attached is not None:
            blocks.append(TextBlock(text=attached))
    cache.allow_rereads()
    if extra:
        blocks.append(TextBlock(text=extra))
    return Message(role="user", content=tuple(blocks))


def _attached(path: Path) -> str | None:
    try:
        with path.open(encoding="utf-8", errors="replace") as f:
            head = f.read(ATTACHED_CHARS + 1)
    except OSError:
        return None
    lines = head.splitlines()
    cut = len(head) > ATTACHED_CHARS or len(lines) > ATTACHED_LINES
    shown = "\n".join(lines[:ATTACHED_LINES])[:ATTACHED_CHARS]
    note = " (the start of it; Read it for the rest)" if cut else ""
    return (
        f"<system-reminder>\nRead earlier in this session: {path}{note}\n{shown}\n"
        "</system-reminder>"
    )
