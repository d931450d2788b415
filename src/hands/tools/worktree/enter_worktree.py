"""EnterWorktree: the session moves into a git worktree of its project, new or existing.

A new one is made from the current commit under the hands home, on a branch of its own,
so the user's checkout is never touched (or by the WorktreeCreate hook, when one is
configured); ``path`` enters one that ``git worktree list``
has. The working directory and the project directory (what permissions and hooks take as
the project) become the worktree's until ExitWorktree. The call changes none of the
user's files, so it runs without asking, in plan mode too, as in Claude Code.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from pydantic import Field

from hands.core.context import ToolContext
from hands.core.decision import PermissionDecision, allow
from hands.core.schema import ToolInput
from hands.core.tool import Progress, Tool, ToolResult
from hands.errors import ToolError
from hands.tools.worktree._session import Entered, SessionWorktree
from hands.tools.worktree.trees import Worktree, create_worktree, existing_worktree

MAX_NAME_CHARS = 64
_SEGMENT = re.compile(r"[A-Za-z0-9._-]+")


class EnterWorktreeInput(ToolInput):
    """Input of EnterWorktree."""

    name: str | None = Field(
        default=None,
        description="A name for a new worktree: letters, digits, dots, underscores and "
        f"dashes, in '/'-separated parts, at most {MAX_NAME_CHARS} characters (default: a "
        "random one). Not with path.",
    )
    path: str | None = Field(
        default=None,
        description="An existing worktree of this repository to enter instead (as `git "
        "worktree list` shows it). Not with name.",
    )


@dataclass(frozen=True, kw_only=True, slots=True)
class EnterWorktreeResult:
    """The worktree the session is in now."""

    path: str
    branch: str
    created: bool


def name_problem(name: str) -> str | None:
    """Why ``name`` cannot name a worktree, or None."""
    if len(name) > MAX_NAME_CHARS:
        return f"the name has {len(name)} characters; at most {MAX_NAME_CHARS} are allowed"
    for part in name.split("/"):
        if not _SEGMENT.fullmatch(part) or part in (".", ".."):
            return (
                f"the part {part!r} is empty or holds other characters than letters, digits, "
                "dots, underscores and dashes"
            )
    return None


class EnterWorktreeTool(Tool[EnterWorktreeInput, EnterWorktreeResult]):
    """Move the session into a git worktree."""

    name = "EnterWorktree"
    description = (
        "Move this session into a git worktree of the project: a new one (on a branch of "
        "its own, made from the current commit) or an existing one by path. From then on "
        "commands and file paths work in the worktree, and the user's checkout is left "
        "alone. Use it when the user asks for work in a worktree or on an isolated copy; "
        "ExitWorktree brings the session back."
    )
    input_model = EnterWorktreeInput
    should_defer = True
    allowed_in_plan_mode = True
    search_hint = "work in a git worktree, isolated copy of the repository"

    async def validate_input(self, input: EnterWorktreeInput, ctx: ToolContext) -> str | None:
        if input.name is not None and input.path is not None:
            return "Give either name (a new worktree) or path (an existing one), not both."
        if input.name is not None:
            problem = name_problem(input.name)
            if problem:
                return f"{input.name!r} cannot name a worktree: {problem}."
        entered = ctx.session.service(SessionWorktree).entered
        if entered is not None:
            return (
                f"The session is in the worktree {entered.tree.path} already. Call "
                "ExitWorktree first to enter another one."
            )
        return None

    async def check_permissions(
        self, input: EnterWorktreeInput, ctx: ToolContext
    ) -> PermissionDecision:
        return allow("a worktree of the session's own: the user's checkout is not changed")

    async def call(
        self, input: EnterWorktreeInput, ctx: ToolContext, progress: Progress
    ) -> ToolResult[EnterWorktreeResult]:
        state = ctx.session.service(SessionWorktree)
        if input.path is not None:
            tree = await existing_worktree(ctx.root, ctx.resolve(input.path))
            if tree is None:
                raise ToolError(
                    f"{input.path} is not a worktree of this repository (see `git worktree "
                    "list`). Give one it lists, or a name to make a new one."
                )
            created = False
        else:
            label = (input.name or "session").replace("/", "-")
            tree = await create_worktree(ctx.root, home=ctx.session.home, label=label,
                                         name=label if input.name else None, ctx=ctx)  # fmt: skip
            created = True
        state.entered = Entered(
            tree=tree, created=created, cwd=ctx.cwd, project_dir=ctx.project_dir
        )
        return ToolResult(
            output=EnterWorktreeResult(path=str(tree.path), branch=tree.branch, created=created),
            context_modifier=_move_to(tree),
        )

    def to_content(self, output: EnterWorktreeResult) -> str:
        how = "Made the worktree" if output.created else "Entered the worktree"
        branch = f" (branch {output.branch})" if output.branch else ""
        return (
            f"{how} {output.path}{branch}; the session works there now: "
            "commands run in it and relative paths start from it. ExitWorktree returns to "
            "the project (keeping or removing the worktree)."
        )

    def describe_input(self, input: EnterWorktreeInput) -> str:
        return input.path or input.name or "(new worktree)"


def _move_to(tree: Worktree) -> Callable[[ToolContext], ToolContext]:
    def move(ctx: ToolContext) -> ToolContext:
        return ctx.with_changes(cwd=Path(tree.path), project_dir=Path(tree.path))

    return move
