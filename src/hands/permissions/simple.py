"""The default policy until a rule engine is configured: modes plus the tool's own check."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from hands.core.decision import PermissionDecision, allow, ask, deny
from hands.permissions import plan_mode

if TYPE_CHECKING:
    from pydantic import BaseModel

    from hands.core.context import ToolContext
    from hands.core.tool import Tool


class SimplePolicy:
    """Fail-closed default: read-only calls run, anything else is asked for.

    Order: the tool's own ``check_permissions`` (deny and ask win) → mode
    (``bypassPermissions`` allows, ``plan`` refuses changes, ``acceptEdits`` allows file
    edits, ``dontAsk`` turns asks into denials) → read-only calls allowed → otherwise ask.
    """

    def __init__(self, *, denied_tools: frozenset[str] = frozenset()) -> None:
        self._denied = denied_tools

    def denies_tool(self, tool: Tool[Any, Any] | str) -> bool:
        """Whether ``tool`` (or the tool so named) is switched off entirely."""
        return (tool if isinstance(tool, str) else tool.name) in self._denied

    async def decide(
        self, tool: Tool[Any, Any], input: BaseModel, ctx: ToolContext
    ) -> PermissionDecision:
        """Decide one call."""
        if tool.name in self._denied:
            return deny(f"The settings switch {tool.name} off: every call to it has been denied.")
        own = await tool.check_permissions(input, ctx)
        if own.behavior == "deny":
            return own
        mode = ctx.permission_mode
        if tool.always_asks:  # only a person can answer: no mode or read-only pass lets it by
            return PermissionDecision(
                behavior="deny" if mode == "dontAsk" else "ask",
                message=f"{tool.name} needs an answer from the user"
                + (", and this session does not ask (mode dontAsk)." if mode == "dontAsk" else "."),
                reason="always asks",
                hook_can_approve=True,
                hook_needs_input=True,
            )
        if mode == "bypassPermissions":
            return allow("mode bypassPermissions")
        if own.behavior == "allow":
            return own
        read_only = tool.is_read_only(input)
        planning = plan_mode.decision(
            tool, input, ctx, read_only=read_only, label=tool.user_facing_name(input)
        )
        if planning is not None:
            return planning
        if read_only and own.behavior != "ask":
            return allow("read-only")
        if mode == "acceptEdits" and tool.edits_files and own.behavior != "ask":
            return allow("mode acceptEdits")
        message = own.message or f"{tool.user_facing_name(input)} needs permission to run."
        approvable = own.hook_can_approve if own.behavior == "ask" else True
        if mode == "dontAsk":
            return PermissionDecision(
                behavior="deny",
                message=(
                    f"{tool.name} was not run: nothing allows it, and this session does not "
                    "ask (mode dontAsk). Use a tool that is already allowed, or report what you "
                    "need."
                ),
                reason="dontAsk",
                hook_can_approve=approvable,
                hook_needs_input=own.hook_needs_input,
            )
        return ask(message, own.reason or "no rule allows it", hook_can_approve=approvable)
