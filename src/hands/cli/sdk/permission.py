"""``can_use_tool``: a call hands would ask about is put to the SDK program.

With ``--permission-prompt-tool stdio`` the SDK's ``can_use_tool`` callback answers
every "ask" of the permission pipeline. Its answer is applied as a user's would be:
``allow`` (with ``updatedInput`` replacing the call's input, ``updatedPermissions``
adding session rules), or ``deny`` with a message for the model, and ``interrupt`` to
stop the turn as well.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, cast

from hands.cli.sdk.channel import ControlChannel, ControlError
from hands.core.decision import AskHandler, AskRequest, PermissionDecision, allow, deny


def sdk_ask(
    channel: ControlChannel,
    *,
    on_interrupt: Callable[[], None],
    on_rules: Callable[[list[dict[str, Any]]], None],
) -> AskHandler:
    """The ask handler that sends ``can_use_tool`` and applies the answer."""

    async def ask(request: AskRequest) -> PermissionDecision:
        ctx = request.context
        fields: dict[str, Any] = {
            "tool_name": request.tool.name,
            "input": request.input.model_dump(mode="json", by_alias=True, exclude_unset=True),
            "permission_suggestions": [],
            "tool_use_id": ctx.tool_use_id,
            "decision_reason": request.message,
        }
        if ctx.agent_id is not None:
            fields["agent_id"] = ctx.agent_id
        try:
            answer = await channel.request("can_use_tool", fields)
        except ControlError as exc:
            return deny(
                f"{request.tool.name} needs an approval, and the SDK program could not give "
                f"one ({exc}); the call was not run.",
                "can_use_tool failed",
            )
        behavior = answer.get("behavior")
        if behavior == "allow":
            updates = answer.get("updatedPermissions")
            if isinstance(updates, list):
                on_rules(cast(list[dict[str, Any]], updates))
            updated = answer.get("updatedInput")
            return allow(
                "approved by the SDK program (can_use_tool)",
                updated_input=cast(dict[str, Any], updated) if isinstance(updated, dict) else None,
            )
        if behavior == "deny":
            if answer.get("interrupt") is True:
                on_interrupt()
            message = answer.get("message")
            return deny(
                message
                if isinstance(message, str) and message
                else f"The SDK program refused this {request.tool.name} call; it was not run.",
                "denied by the SDK program (can_use_tool)",
            )
        return deny(
            f"The SDK program's answer about {request.tool.name} was neither allow nor deny "
            f"({behavior!r}); the call was not run.",
            "can_use_tool answer not understood",
        )

    return ask
