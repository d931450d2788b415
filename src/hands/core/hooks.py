"""The seam between the per-call pipeline and hooks (command, HTTP or Python)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal, Protocol, TypeAlias, runtime_checkable

from hands.core.lifecycle import WorktreeHookError, WorktreeHooks

if TYPE_CHECKING:
    from pathlib import Path

    from hands.core.context import ToolContext
    from hands.core.decision import AskHandler, AskRequest, PermissionDecision
    from hands.core.outcome import ToolCallOutcome
    from hands.core.tool import Tool

SessionStartSource: TypeAlias = Literal["startup", "resume", "clear", "compact"]
"""Why a session starts (the SessionStart matcher): a new session, ``--resume`` /
``--continue``, after ``/clear``, after compaction."""
SessionEndReason: TypeAlias = Literal["clear", "resume", "logout", "prompt_input_exit", "other"]
"""Why a session ends (the SessionEnd matcher): ``/clear``, switching to another session,
logging out, the user leaving the prompt (``/exit``, Ctrl-D), anything else (``-p``)."""


@dataclass(frozen=True, kw_only=True, slots=True)
class PreToolUseOutcome:
    """What the PreToolUse hooks decided about one call.

    ``decision``: ``deny`` blocks the call (``reason`` goes to the model); ``ask`` forces
    a permission prompt (``reason`` is shown with it); ``allow`` skips the prompt but
    never overrides a deny or ask rule; ``defer`` leaves the call unrun so the caller can
    resume it later (print mode, a single call); ``None`` means no opinion.
    ``updated_input`` replaces the input (re-validated and checked against the rules).
    """

    decision: Literal["allow", "deny", "ask", "defer"] | None = None
    reason: str = ""
    updated_input: Mapping[str, Any] | None = None
    additional_context: str = ""


@dataclass(frozen=True, kw_only=True, slots=True)
class PostToolUseOutcome:
    """Feedback from PostToolUse / PostToolUseFailure hooks, added for the model to read.

    ``replaces_output``: a PostToolUse hook gave ``updatedToolOutput``; ``updated_output``
    is the new output (the pipeline keeps it only when it has the tool's output shape).
    """

    additional_context: str = ""
    block_reason: str = ""
    replaces_output: bool = False
    updated_output: Any = None


@dataclass(frozen=True, kw_only=True, slots=True)
class LoopHookOutcome:
    """What the hooks of a loop event decided.

    ``block``: the event's blocking effect with ``reason`` (a blocked prompt is not sent;
    a blocked Stop makes the loop go on with ``reason`` as the next user message; a
    blocked PostToolBatch ends the run). ``context`` is text for the model.
    ``stop``: a hook answered ``continue: false``; the run ends with ``stop_reason``.
    """

    block: bool = False
    reason: str = ""
    context: str = ""
    stop: bool = False
    stop_reason: str = ""


NO_LOOP = LoopHookOutcome()


NO_PRE = PreToolUseOutcome()
NO_POST = PostToolUseOutcome()


class ToolHooks(Protocol):
    """Hook points around one tool call."""

    async def pre_tool_use(
        self, *, tool: Tool[Any, Any], tool_input: Mapping[str, Any], ctx: ToolContext
    ) -> PreToolUseOutcome:
        """Before the permission decision."""
        ...

    async def post_tool_use(
        self,
        *,
        tool: Tool[Any, Any],
        tool_input: Mapping[str, Any],
        response: Any,
        ctx: ToolContext,
        duration_ms: float,
    ) -> PostToolUseOutcome:
        """After a successful call."""
        ...

    async def post_tool_use_failure(
        self,
        *,
        tool: Tool[Any, Any],
        tool_input: Mapping[str, Any],
        error: str,
        ctx: ToolContext,
        duration_ms: float,
    ) -> PostToolUseOutcome:
        """After a call that raised or returned an error."""
        ...


@runtime_checkable
class PermissionHooks(Protocol):
    """Hook points of the permission prompt (PermissionRequest, Notification)."""

    async def permission_request(
        self,
        *,
        tool: Tool[Any, Any],
        tool_input: Mapping[str, Any],
        ctx: ToolContext,
        message: str,
    ) -> PermissionDecision | None:
        """Allow or deny in the user's place, or ``None`` to let the prompt decide."""
        ...

    async def ask_user(self, ask: AskHandler, request: AskRequest) -> PermissionDecision:
        """Show the prompt through ``ask`` (firing the permission_prompt Notification)."""
        ...


@runtime_checkable
class LoopHooks(Protocol):
    """Hook points of the agent loop."""

    @property
    def stop_reason(self) -> str | None:
        """Set once a hook answered ``continue: false``: why the run must end."""
        ...

    @property
    def deferred(self) -> tuple[str, ...]:
        """The tool_use ids a PreToolUse hook deferred (cleared by :meth:`take_deferred`)."""
        ...

    def take_deferred(self) -> tuple[str, ...]:
        """Return and forget the deferred tool_use ids."""
        ...

    async def session_start(self, ctx: ToolContext, *, source: str) -> LoopHookOutcome:
        """SessionStart: context for the model."""
        ...

    async def user_prompt_submit(self, ctx: ToolContext, prompt: str) -> LoopHookOutcome:
        """UserPromptSubmit: may block the prompt or add context."""
        ...

    async def post_tool_batch(
        self, ctx: ToolContext, calls: list[dict[str, Any]]
    ) -> LoopHookOutcome:
        """PostToolBatch: after every result of a turn, before the next model request."""
        ...

    async def stop(
        self, ctx: ToolContext, *, stop_hook_active: bool, last_assistant_message: str
    ) -> LoopHookOutcome:
        """Stop: may make the loop go on."""
        ...

    async def session_end(self, ctx: ToolContext, *, reason: str) -> None:
        """SessionEnd: cleanup hooks, under a short time budget."""
        ...


@runtime_checkable
class DeferringHooks(Protocol):
    """Hooks that keep deferred calls, so a turn with several calls can run them normally.

    A PreToolUse ``defer`` is honoured only for a turn's single call; the pipeline hands
    over a way to run a deferred call through the normal flow (the hooks' earlier answer
    replayed without the deferral), and the loop's turn functions use it when the turn
    turns out to have had several calls.
    """

    def hold_deferred(
        self, tool_use_id: str, run_normally: Callable[[], Awaitable[ToolCallOutcome]]
    ) -> None:
        """Keep ``run_normally`` for the deferred call ``tool_use_id``."""
        ...

    def take_held(self) -> dict[str, Callable[[], Awaitable[ToolCallOutcome]]]:
        """Return and forget the kept deferred calls."""
        ...


@runtime_checkable
class PendingContext(Protocol):
    """Hooks whose output waits for the model's next turn.

    ``async`` hooks, and SessionStart fired between queries.
    """

    def take_pending(self) -> tuple[str, ...]:
        """Return and forget the text waiting for the model."""
        ...

    def add_pending(self, text: str) -> None:
        """Queue ``text`` for the model's next turn."""
        ...


class ForwardingHooks:
    """Another object's tool and permission hooks, passed through unchanged.

    The base of a view of the session's hooks that changes one event (a sub-agent's
    loop events, a framework's early PreToolUse): subclasses override what differs.
    """

    def __init__(self, inner: ToolHooks) -> None:
        self.inner = inner

    async def pre_tool_use(
        self, *, tool: Tool[Any, Any], tool_input: Mapping[str, Any], ctx: ToolContext
    ) -> PreToolUseOutcome:
        """PreToolUse, as the inner hooks run it."""
        return await self.inner.pre_tool_use(tool=tool, tool_input=tool_input, ctx=ctx)

    async def post_tool_use(
        self,
        *,
        tool: Tool[Any, Any],
        tool_input: Mapping[str, Any],
        response: Any,
        ctx: ToolContext,
        duration_ms: float,
    ) -> PostToolUseOutcome:
        """PostToolUse, as the inner hooks run it."""
        return await self.inner.post_tool_use(
            tool=tool, tool_input=tool_input, response=response, ctx=ctx, duration_ms=duration_ms
        )

    async def post_tool_use_failure(
        self,
        *,
        tool: Tool[Any, Any],
        tool_input: Mapping[str, Any],
        error: str,
        ctx: ToolContext,
        duration_ms: float,
    ) -> PostToolUseOutcome:
        """PostToolUseFailure, as the inner hooks run it."""
        return await self.inner.post_tool_use_failure(
            tool=tool, tool_input=tool_input, error=error, ctx=ctx, duration_ms=duration_ms
        )

    async def permission_request(
        self,
        *,
        tool: Tool[Any, Any],
        tool_input: Mapping[str, Any],
        ctx: ToolContext,
        message: str,
    ) -> PermissionDecision | None:
        """PermissionRequest hooks, when the inner hooks have them."""
        if not isinstance(self.inner, PermissionHooks):
            return None
        return await self.inner.permission_request(
            tool=tool, tool_input=tool_input, ctx=ctx, message=message
        )

    async def ask_user(self, ask: AskHandler, request: AskRequest) -> PermissionDecision:
        """Ask through ``ask`` (with the inner hooks' Notification, if any)."""
        if not isinstance(self.inner, PermissionHooks):
            return await ask(request)
        return await self.inner.ask_user(ask, request)

    def makes_worktrees(self) -> bool:
        """Whether the inner hooks have a WorktreeCreate hook."""
        return isinstance(self.inner, WorktreeHooks) and self.inner.makes_worktrees()

    def removes_worktrees(self) -> bool:
        """Whether the inner hooks have a WorktreeRemove hook."""
        return isinstance(self.inner, WorktreeHooks) and self.inner.removes_worktrees()

    async def worktree_create(self, ctx: ToolContext, *, name: str) -> Path:
        """WorktreeCreate, as the inner hooks run it."""
        if not isinstance(self.inner, WorktreeHooks):
            raise WorktreeHookError("no WorktreeCreate hook is configured")
        return await self.inner.worktree_create(ctx, name=name)

    async def worktree_remove(self, ctx: ToolContext, *, worktree_path: Path) -> None:
        """WorktreeRemove, as the inner hooks run it."""
        if not isinstance(self.inner, WorktreeHooks):
            raise WorktreeHookError("no WorktreeRemove hook is configured")
        await self.inner.worktree_remove(ctx, worktree_path=worktree_path)
