"""What a summary carries besides the summary: where the session is and what it last read.

The working directory, permission mode (plan mode said in words) and plan file are
stated, with the todo list and the task list's open tasks, so the model picks up its
plan where it was; the files read most recently are re-attached (their first lines, as
they are on disk now) so the model does not re-read them blindly; the read-state cache
is kept, but a Read after compaction shows a file again instead of answering that it is
unchanged.
"""

from __future__ import annotations

from hands.core.context import ToolContext
from hands.core.messages import Message, TextBlock
from hands.core.state import SessionState
from hands.permissions import plan_mode

SUMMARY_OPENING = (
    "This session goes on from an earlier conversation that was compacted to save context. "
    "The notes below summarise it; the most recent turns follow them as they were."
)


def summary_message(
    summary: str, ctx: ToolContext, *, reattach: int, extra: str = "", how: str = ""
) -> Message:
    """The user message that opens the compacted conversation.

    ``how``: a note on how the summary was made (in parts, messages left out).
    """
    said = f"{SUMMARY_OPENING} {how}" if how else SUMMARY_OPENING
    opening = f"<system-reminder>\n{said}\n\n{summary}\n</system-reminder>"
    blocks = [TextBlock(text=opening)]
    state = [f"Working directory: {ctx.cwd}", f"Permission mode: {ctx.permission_mode}"]
    planned = plan_mode.carried(ctx)
    if planned is not None:
        state.append(planned)
    carried = [s.carry(ctx, reattach=reattach) for s in _in_order(ctx.session.states())]
    state += [line for c in carried for line in c.lines]
    blocks.append(TextBlock(text="<system-reminder>\n" + "\n".join(state) + "\n</system-reminder>"))
    blocks.extend(TextBlock(text=text) for c in carried for text in c.texts)
    if extra:
        blocks.append(TextBlock(text=extra))
    return Message(role="user", content=tuple(blocks))


def _in_order(states: list[SessionState]) -> list[SessionState]:
    """Saved states first (todos before the task list's note)."""
    return sorted(states, key=lambda s: not s.key)
