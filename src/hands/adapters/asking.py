"""Whether hands would ask about a call, decided before the framework runs it.

Some frameworks ask "does this call need approval?" before they invoke a tool (the
OpenAI Agents SDK's ``needs_approval``, a LangGraph ``interrupt()`` before the work).
The answer must be the pipeline's: input validation first (invalid input is reported by
the call, and no hook sees it), then PreToolUse hooks (a block, a rewrite, their own
allow or ask), then the permission engine. The hooks' verdict is kept for the call
that follows, so they run once per call however the framework splits it.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from hands.core.context import ToolContext
from hands.core.decision import PermissionPolicy
from hands.core.hooks import ForwardingHooks, PreToolUseOutcome, ToolHooks
from hands.core.tool import Tool


async def would_ask(
    tool: Tool[Any, Any],
    arguments: Mapping[str, Any],
    ctx: ToolContext,
    *,
    policy: PermissionPolicy,
    hooks: RememberedHooks | None,
) -> bool:
    """Whether running this call would reach the user (nothing runs)."""
    if ctx.permission_mode == "dontAsk":
        return False  # an ask is a denial there: the call reports it
    try:  # the pipeline's order: validation first, hooks only for valid input
        parsed = tool.parse_input(arguments)
        if await tool.validate_input(parsed, ctx):
            return False  # the call reports the invalid input, and no hook sees it
    except Exception:
        return False
    pre: PreToolUseOutcome | None = None
    if hooks is not None:
        pre = await hooks.decide_early(tool=tool, tool_input=arguments, ctx=ctx)
        if pre.decision in ("deny", "defer"):
            return False
        if pre.updated_input is not None:
            try:
                parsed = tool.parse_input(pre.updated_input)
            except Exception:
                return False  # the call reports the hook's invalid rewrite
    decision = await policy.decide(tool, parsed, ctx)
    hook = pre.decision if pre is not None else None
    if decision.behavior == "allow":
        return hook == "ask"
    if decision.behavior != "ask":
        return False
    if hook == "allow" and decision.hook_can_approve:
        needs_input = decision.hook_needs_input and (pre is None or pre.updated_input is None)
        return needs_input
    return True


class RememberedHooks(ForwardingHooks):
    """The session's hooks, with PreToolUse answered once per call id.

    A verdict is kept for its call id and input until the call settles: asked about
    (``decide_early``) and then run, or run, paused for the user's approval and run again
    once approved (a resumed graph, a new run with the approval), the call sees the one
    verdict. The same id with other input runs the hooks afresh.
    """

    def __init__(self, inner: ToolHooks) -> None:
        super().__init__(inner)
        self._kept: dict[str, tuple[dict[str, Any], PreToolUseOutcome]] = {}

    async def _verdict(
        self, tool: Tool[Any, Any], tool_input: Mapping[str, Any], ctx: ToolContext
    ) -> PreToolUseOutcome:
        call_id = ctx.tool_use_id
        kept = self._kept.get(call_id) if call_id else None
        if kept is not None and kept[0] == dict(tool_input):
            return kept[1]
        outcome = await self.inner.pre_tool_use(tool=tool, tool_input=tool_input, ctx=ctx)
        if call_id:
            self._kept[call_id] = (dict(tool_input), outcome)
        return outcome

    async def decide_early(
        self, *, tool: Tool[Any, Any], tool_input: Mapping[str, Any], ctx: ToolContext
    ) -> PreToolUseOutcome:
        """PreToolUse for the call with ``ctx.tool_use_id``, before it runs (kept for it)."""
        return await self._verdict(tool, tool_input, ctx)

    def forget(self, call_id: str) -> None:
        """Drop the verdict kept for a call that has settled (run, or will not run)."""
        self._kept.pop(call_id, None)

    async def pre_tool_use(
        self, *, tool: Tool[Any, Any], tool_input: Mapping[str, Any], ctx: ToolContext
    ) -> PreToolUseOutcome:
        """The verdict kept for this call, or the hooks' answer now (kept until it settles)."""
        return await self._verdict(tool, tool_input, ctx)
