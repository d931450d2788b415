"""The value a permission check returns, and the two seams around it.

``PermissionPolicy`` decides allow / ask / deny for one call; ``AskHandler`` answers an
"ask" (an interactive prompt in the CLI, a callback in the library). Where nobody can
answer, an ask becomes a deny. A decision has no side effects: a tool that needs the
policy's view of its work (Glob and Grep leave files a ``Read`` deny rule covers out of
their results) asks the policy of its call (:func:`read_denials`).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal, Protocol, TypeAlias, cast

if TYPE_CHECKING:
    from pydantic import BaseModel

    from hands.core.context import PermissionMode, ToolContext
    from hands.core.tool import Tool

Behavior: TypeAlias = Literal["allow", "ask", "deny", "passthrough"]


@dataclass(frozen=True, kw_only=True, slots=True)
class PermissionDecision:
    """Allow, ask or deny one call, with the reason shown to the user or model.

    ``passthrough`` means "no opinion": the next layer decides. ``updated_input`` lets
    a policy or handler rewrite the call's input before it runs.
    """

    behavior: Behavior
    message: str = ""
    reason: str = ""
    rule: str = ""
    """The permission rule that produced this decision, when one did."""
    source: str = ""
    """Where that rule is written: a settings file, a command-line flag or ``session``."""
    updated_input: Mapping[str, Any] | None = None
    hook_can_approve: bool = False
    """Whether a PreToolUse hook's ``allow`` may let this call run instead.

    True for an ordinary ask (no rule wanted it, and nothing forces a prompt), and for
    such an ask that ``dontAsk`` turned into a denial. False for everything a hook must
    never skip: deny and ask rules, critical-path removals, protected paths, denials.
    """
    hook_needs_input: bool = False
    """With ``hook_can_approve``: only a hook ``allow`` that also gives ``updatedInput``
    counts (the hook answered for the user, as for AskUserQuestion and ExitPlanMode)."""
    mode_after: PermissionMode | None = None
    """An approval that also chooses the mode the session goes on in (the user approving
    a plan with "auto-accept edits"); the call sees it as ``ToolContext.approved_mode``."""


def allow(
    reason: str = "", *, updated_input: Mapping[str, Any] | None = None
) -> PermissionDecision:
    """Let the call run."""
    return PermissionDecision(behavior="allow", reason=reason, updated_input=updated_input)


def ask(message: str, reason: str = "", *, hook_can_approve: bool = True) -> PermissionDecision:
    """Ask whoever can answer before the call runs.

    ``hook_can_approve=False`` for an ask a PreToolUse hook's ``allow`` must not skip.
    """
    return PermissionDecision(
        behavior="ask", message=message, reason=reason, hook_can_approve=hook_can_approve
    )


def deny(message: str, reason: str = "") -> PermissionDecision:
    """Refuse the call; ``message`` is what the model reads."""
    return PermissionDecision(behavior="deny", message=message, reason=reason)


SANDBOX_AUTO_ALLOW = "runs in the sandbox (sandbox.autoAllowBashIfSandboxed)"
"""The reason of the ``allow`` Bash gives for a command that will run sandboxed."""


def passthrough() -> PermissionDecision:
    """No opinion; the next layer decides."""
    return _PASSTHROUGH


_PASSTHROUGH = PermissionDecision(behavior="passthrough")


@dataclass(frozen=True, kw_only=True, slots=True)
class AskRequest:
    """What an ask handler is asked to approve."""

    tool: Tool[Any, Any]
    input: BaseModel
    context: ToolContext
    message: str


AskHandler: TypeAlias = Callable[[AskRequest], Awaitable[PermissionDecision]]


class PermissionPolicy(Protocol):
    """Decides whether a call may run. The rule engine implements this."""

    async def decide(
        self, tool: Tool[Any, Any], input: BaseModel, ctx: ToolContext
    ) -> PermissionDecision:
        """Return allow, ask or deny (never passthrough) for this call."""
        ...

    def denies_tool(self, tool: Tool[Any, Any] | str) -> bool:
        """Whether a blanket deny rule removes ``tool`` (or the tool so named) from the pool."""
        ...

    # Optional: ``read_denials(ctx) -> tuple[str, ...]``, the paths no call may read, as
    # gitignore lines relative to ``/``. Read through :func:`read_denials`.


class ReadDenials(Protocol):
    """The optional part of a :class:`PermissionPolicy`: paths no call may read."""

    def read_denials(self, ctx: ToolContext) -> tuple[str, ...]:
        """Gitignore lines, relative to ``/``, of the paths no call in ``ctx`` may read."""
        ...


def read_denials(policy: PermissionPolicy | None, ctx: ToolContext) -> tuple[str, ...]:
    """The paths ``policy`` lets no call read (none when it does not say)."""
    method = getattr(policy, "read_denials", None)
    if method is None:
        return ()
    return cast(ReadDenials, policy).read_denials(ctx)
