"""How the answers of several hooks at one event combine into one outcome.

PreToolUse: deny > defer > ask > allow, every ``additionalContext`` delivered.
PermissionRequest: deny wins, else the first allow. Post and loop events: every context
and feedback is kept; any block or stop counts.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any, cast

from hands.core.hooks import (
    NO_LOOP,
    NO_POST,
    LoopHookOutcome,
    PostToolUseOutcome,
    PreToolUseOutcome,
)

if TYPE_CHECKING:
    from hands.core.decision import PermissionDecision
    from hands.hooks.output import HookResult

_RANK = {"deny": 3, "defer": 2, "ask": 1, "allow": 0}


def reminder(event: str, text: str, tool_name: str | None = None) -> str:
    """Hook context as the model reads it: a system reminder naming the hook."""
    where = f"{event}:{tool_name}" if tool_name else event
    return f"<system-reminder>\n{where} hook additional context: {text}\n</system-reminder>"


@dataclass(frozen=True, kw_only=True, slots=True)
class PreToolUseVerdict:
    """The combined PreToolUse answer, and the one to replay if a deferral is not honoured."""

    outcome: PreToolUseOutcome
    fallback: PreToolUseOutcome | None = None
    """Set when the outcome defers: what the other hooks said, for a normal run."""


def pre_tool_use(
    results: Sequence[HookResult],
    tool_name: str,
    *,
    allow_defer: bool,
    stop_reason: str | None,
) -> PreToolUseVerdict:
    """PreToolUse answers combined: deny > defer > ask > allow; updated input; context.

    ``defer`` counts only when ``allow_defer``; a run already stopped denies the call.
    """
    best: str | None = None
    reasons: dict[str, list[str]] = {}
    updated: Mapping[str, Any] | None = None
    context: list[str] = []
    for r in results:
        choice = r.permission
        if choice == "defer" and not allow_defer:
            choice = None
        if choice is not None:
            if best is None or _RANK[choice] > _RANK[best]:
                best = choice
            text = r.reason if r.blocking else r.permission_reason
            if text:
                reasons.setdefault(choice, []).append(text)
        if r.updated_input is not None and choice != "deny":
            updated = r.updated_input
        if r.additional_context:
            context.append(r.additional_context)
    if stop_reason is not None:
        best = "deny"
        reasons.setdefault("deny", []).insert(0, f"the run was stopped: {stop_reason}")
    reason = "\n".join(reasons.get(best, [])) if best is not None else ""
    outcome = PreToolUseOutcome(
        decision=cast(Any, best),
        reason=reason,
        updated_input=updated if best != "deny" else None,
        additional_context="\n".join(reminder("PreToolUse", c, tool_name) for c in context),
    )
    if best != "defer":
        return PreToolUseVerdict(outcome=outcome)
    # Honoured only if the call turns out to be its turn's only one; otherwise the
    # call runs normally with what the other hooks said.
    others = [r.permission for r in results if r.permission in ("ask", "allow")]
    fallback = max(others, key=_RANK.__getitem__, default=None)
    return PreToolUseVerdict(
        outcome=outcome,
        fallback=replace(
            outcome,
            decision=cast(Any, fallback),
            reason="\n".join(reasons.get(fallback, [])) if fallback else "",
        ),
    )


def permission_request(results: Sequence[HookResult], tool_name: str) -> PermissionDecision | None:
    """PermissionRequest answers combined: the first deny, else the first allow, else none."""
    from hands.core.decision import PermissionDecision  # lazy: start-up

    allowed: HookResult | None = None
    for r in results:
        if r.request_behavior == "deny":
            return PermissionDecision(
                behavior="deny",
                message=r.request_message
                or (
                    f"A PermissionRequest hook denied this {tool_name} call; it was not "
                    "run. Do something else or ask the user."
                ),
                reason="PermissionRequest hook",
            )
        if r.request_behavior == "allow" and allowed is None:
            allowed = r
    if allowed is None:
        return None
    return PermissionDecision(
        behavior="allow",
        reason="allowed by a PermissionRequest hook",
        updated_input=allowed.updated_input,
    )


def post_outcome(event: str, tool_name: str, results: list[HookResult]) -> PostToolUseOutcome:
    """PostToolUse(Failure) answers combined: every context and feedback; the last output."""
    if not results:
        return NO_POST
    context: list[str] = []
    feedback: list[str] = []
    replaces = False
    new_output: Any = None
    for r in results:
        if r.additional_context:
            context.append(reminder(event, r.additional_context, tool_name))
        if r.blocking and r.reason:
            feedback.append(r.reason)
        if r.has_updated_output:
            replaces, new_output = True, r.updated_output
    return PostToolUseOutcome(
        additional_context="\n".join(context),
        block_reason="\n".join(feedback),
        replaces_output=replaces,
        updated_output=new_output,
    )


def loop_outcome(
    event: str,
    results: list[HookResult],
    *,
    plain_is_context: bool = False,
    can_block: bool = True,
) -> LoopHookOutcome:
    """A loop event's answers combined: any block or stop wins, every context counts."""
    if not results:
        return NO_LOOP
    block = False
    reasons: list[str] = []
    context: list[str] = []
    stop = False
    stop_reasons: list[str] = []
    for r in results:
        if r.blocking and can_block:
            block = True
            if r.reason:
                reasons.append(r.reason)
        if r.additional_context:
            context.append(r.additional_context)
        if plain_is_context and r.plain_text:
            context.append(r.plain_text)
        if not r.continue_:
            stop = True
            if r.stop_reason:
                stop_reasons.append(r.stop_reason)
    return LoopHookOutcome(
        block=block,
        reason="\n".join(reasons) or (f"blocked by a {event} hook" if block else ""),
        context="\n".join(context),
        stop=stop,
        stop_reason="\n".join(stop_reasons) or (f"a {event} hook asked to stop" if stop else ""),
    )
