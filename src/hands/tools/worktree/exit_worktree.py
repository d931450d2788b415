"""ExitWorktree: the session leaves the worktree EnterWorktree moved it into.

``keep`` leaves the worktree and its branch on disk; ``remove`` deletes a worktree
EnterWorktree made (and its branch), but one with changed files or new commits only
with ``discard_changes: true``, and never one the session only entered. One a
WorktreeCreate hook made cannot be checked, so removing it always takes
``discard_changes: true`` and the user's approval; the WorktreeRemove hook (or git, when
none is configured) removes it. The session goes back to the directories it was in
before.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal

from pydantic import Field

from hands.core.context import ToolContext
from hands.core.decision import PermissionDecision, allow, ask
from hands.core.schema import ToolInput
from hands.core.tool import Progress, Tool, ToolResult
from hands.errors import ToolError
from hands.tools.worktree._session import Entered, SessionWorktree
from hands.tools.worktree.trees import changes, remove_worktree


class ExitWorktreeInput(ToolInput):
    """Input of ExitWorktree."""

    action: Literal["keep", "remove"] = Field(
        description="keep: leave the worktree and its branch on disk; remove: delete them"
    )
    discard_changes: bool = Field(
        default=False,
        description="Needed with remove when the worktree has changed files or commits of "
        "its own; set it only once the user agreed to lose them",
    )


@dataclass(frozen=True, kw_only=True, slots=True)
class ExitWorktreeResult:
    """What became of the worktree, and where the session is now."""

    path: str
    branch: str
    removed: bool
    back_in: str
    lost: tuple[str, ...] = ()
    made_by_hook: bool = False


class ExitWorktreeTool(Tool[ExitWorktreeInput, ExitWorktreeResult]):
    """Leave the session's worktree."""

    name = "ExitWorktree"
    description = (
        "Leave the git worktree EnterWorktree moved this session into and go back to the "
        "project. action keep leaves the worktree and its branch for later; remove deletes "
        "them, and when the worktree has changes or commits of its own it asks for "
        "discard_changes: true, which you set only after the user agreed."
    )
    input_model = ExitWorktreeInput
    should_defer = True
    allowed_in_plan_mode = True
    search_hint = "leave the git worktree, go back to the project"

    def is_destructive(self, input: ExitWorktreeInput) -> bool:
        return input.action == "remove"

    async def validate_input(self, input: ExitWorktreeInput, ctx: ToolContext) -> str | None:
        entered = ctx.session.service(SessionWorktree).entered
        if entered is None:
            return (
                "The session is in no worktree that EnterWorktree made or entered, so there "
                "is nothing to leave; nothing was changed."
            )
        if input.action == "remove" and not entered.created:
            return (
                f"{entered.tree.path} existed before EnterWorktree entered it, so it is not "
                "removed here: use action keep, or remove it with git yourself."
            )
        if input.action == "remove" and entered.tree.made_by_hook and not input.discard_changes:
            return (
                f"A WorktreeCreate hook made {entered.tree.path}, so hands cannot tell what "
                "work it holds. Ask the user; call again with discard_changes: true to remove "
                "it, or use action keep."
            )
        return None

    async def check_permissions(
        self, input: ExitWorktreeInput, ctx: ToolContext
    ) -> PermissionDecision:
        entered = ctx.session.service(SessionWorktree).entered
        if input.action == "remove" and entered is not None and entered.tree.made_by_hook:
            return ask(
                f"Remove the worktree {entered.tree.path}? A WorktreeCreate hook made it and "
                "what it holds cannot be checked."
            )
        return allow("the session's own worktree")

    async def call(
        self, input: ExitWorktreeInput, ctx: ToolContext, progress: Progress
    ) -> ToolResult[ExitWorktreeResult]:
        state = ctx.session.service(SessionWorktree)
        entered = state.entered
        if entered is None:
            raise ToolError("The session is in no worktree.")
        tree = entered.tree
        lost: tuple[str, ...] = ()
        if input.action == "remove" and tree.made_by_hook:
            refused = await remove_worktree(tree, ctx=ctx)
            if refused is not None:
                raise ToolError(f"{tree.path} was not removed: {refused}")
        elif input.action == "remove":
            lost = tuple(await changes(tree))
            if lost and not input.discard_changes:
                listed = "\n".join(f"- {line}" for line in lost[:50])
                raise ToolError(
                    f"The worktree {tree.path} has work that removing it would lose:\n{listed}"
                    "\nAsk the user; call again with discard_changes: true to remove it "
                    "anyway, or use action keep."
                )
            refused = await remove_worktree(tree)
            if refused is not None:
                raise ToolError(f"git did not remove {tree.path}: {refused}")
        state.entered = None
        return ToolResult(
            output=ExitWorktreeResult(
                path=str(tree.path),
                branch=tree.branch,
                removed=input.action == "remove",
                back_in=str(entered.cwd),
                lost=lost,
                made_by_hook=tree.made_by_hook,
            ),
            context_modifier=_back(entered),
        )

    def to_content(self, output: ExitWorktreeResult) -> str:
        if output.removed and output.made_by_hook:
            what = f"Removed the worktree {output.path} (made by the WorktreeCreate hook)"
        elif output.removed:
            what = f"Removed the worktree {output.path} and its branch {output.branch}"
            if output.lost:
                what += f" ({len(output.lost)} changes discarded)"
        else:
            branch = f" (branch {output.branch})" if output.branch else ""
            what = f"Left the worktree {output.path} on disk{branch}"
        return f"{what}. The session works in {output.back_in} again."

    def describe_input(self, input: ExitWorktreeInput) -> str:
        return input.action


def _back(entered: Entered) -> Callable[[ToolContext], ToolContext]:
    def back(ctx: ToolContext) -> ToolContext:
        return ctx.with_changes(cwd=entered.cwd, project_dir=entered.project_dir)

    return back
