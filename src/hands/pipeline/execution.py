"""``run_tool_use``: one tool_use block in, exactly one tool_result out.

    find tool → parse input → validate_input → PreToolUse hooks → permission decision →
    call (with progress, under a timeout) → PostToolUse hooks → to_content → spill

After the input is parsed and validated, the stages are
``_pre_hooks → _authorize → _invoke → _post_hooks → _finish``; each of the first two
returns the call's result when it ends the call there.

Every failure becomes an ``is_error`` result the model can act on; only cancellation
escapes (the executor turns it into a result).
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Awaitable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

import anyio
from pydantic import BaseModel, ValidationError

from hands.core.context import ToolContext
from hands.core.decision import AskRequest, PermissionDecision
from hands.core.hooks import DeferringHooks, PermissionHooks
from hands.core.messages import ResultPart, TextBlock, ToolUseBlock, build_result_block
from hands.core.outcome import (
    Status,
    ToolCallOutcome,
    build_outcome,
    echo,
    error_outcome,
    tool_use_error,
    truncate_middle,
)
from hands.core.schema import ToolInput
from hands.core.spill import content_chars, spill
from hands.core.tool import ContextModifier, Progress, Tool, ToolResult
from hands.errors import ToolError
from hands.pipeline.deadline import (
    CallTimer,
    DeadlineExceeded,
    finish_within,
    with_timer,
    within,
)
from hands.pipeline.pool import resolve
from hands.pipeline.runtime import ToolRuntime

if TYPE_CHECKING:
    from hands.pipeline.checkpoints import CheckpointStore
    from hands.pipeline.shell_changes import Before


def describe_validation_error(tool_name: str, exc: ValidationError) -> str:
    """Each bad field and why, for the model."""
    lines = [f"InputValidationError: the input of {tool_name} does not fit its schema; fix "
             "these fields and call it again:"]  # fmt: skip
    for err in exc.errors(include_url=False):
        where = ".".join(str(p) for p in err["loc"]) or "(input)"
        message = err["msg"]
        if err["type"] == "extra_forbidden":
            message = f"{tool_name} takes no such parameter; leave it out"
        elif err["type"] != "missing" and "input" in err:
            got = repr(err["input"])
            message += f" (got {got[:60] + '…' if len(got) > 60 else got})"
        lines.append(f"- {where}: {message}")
    return "\n".join(lines)


def parse_for(tool: Tool[Any, Any], data: Mapping[str, Any]) -> BaseModel | str:
    """The parsed input, or a model-facing error message."""
    try:
        return tool.parse_input(data)
    except ValidationError as exc:
        return tool_use_error(describe_validation_error(tool.name, exc))


async def run_tool_use(
    block: ToolUseBlock,
    ctx: ToolContext,
    runtime: ToolRuntime,
    progress: Progress,
    *,
    parsed: BaseModel | None = None,
    timer: CallTimer | None = None,
    tool: Tool[Any, Any] | None = None,
) -> ToolCallOutcome:
    """Run one call through the whole pipeline. Never raises except on cancellation.

    With ``timer`` (the caller's per-call time limit, which cancels the call when it
    fires), the limit is armed around ``tool.call`` instead of opening a scope here; the
    caller then builds the result with :func:`timeout_outcome`. ``tool``: the tool
    ``block`` names in ``runtime``'s pool, when the caller has already looked it up.
    """
    if tool is None:
        tool = resolve(block.name, runtime.tools)
        if tool is None:
            return unknown_tool_outcome(block, runtime)
    try:  # the stages run in this frame: one coroutine layer less on every call
        if ctx.tool_use_id != block.id or ctx.policy is not runtime.policy:
            ctx = ctx.for_call(block.id, policy=runtime.policy)
        if parsed is None:
            result = parse_for(tool, block.input)
            if isinstance(result, str):
                return error_outcome(block, result, tool=tool)
            parsed = result
        if tool.checks_input:
            message = await tool.validate_input(parsed, ctx)
            if message:
                return error_outcome(block, tool_use_error(message), tool=tool, input=parsed)
        call = _Call(block, tool, ctx, runtime, parsed)
        hooks = runtime.hooks
        # hooks that can say they have nothing for an event (``handles(event)``, as the
        # hook engine can) are not called for it; asked on every call, so a hook added
        # while the session runs is in force at the next one
        handles = getattr(hooks, "handles", None)
        if hooks is not None and (handles is None or handles("PreToolUse")):
            stopped = await _pre_hooks(call)
            if stopped is not None:
                return stopped
        # asked on every call (fail closed); a plain allow needs no stage of its own
        decision = await runtime.policy.decide(tool, call.parsed, call.ctx)
        if (
            decision.behavior != "allow"
            or call.hook_decision == "ask"
            or decision.mode_after is not None
            or decision.updated_input is not None
        ):
            stopped = await _authorize(call, decision)
            if stopped is not None:
                return stopped
        await _invoke(call, progress, timer)
        if hooks is not None and (
            handles is None
            or handles("PostToolUse" if call.failure is None else "PostToolUseFailure")
        ):
            await _post_hooks(call)
        return _finish(call)
    except anyio.get_cancelled_exc_class():
        raise
    except Exception as exc:  # a bug in validation, hooks or rendering
        return error_outcome(
            block, truncate_middle(f"Error: {type(exc).__name__}: {exc}"), tool=tool
        )


class _Call:
    """One call's state as it moves through the stages of :func:`run_tool_use`.

    Also what the tool's call came to: its output and content, or why it failed.
    """

    __slots__ = (
        "block",
        "content",
        "ctx",
        "duration_ms",
        "extra",
        "failure",
        "hook_decision",
        "hook_input",
        "hook_reason",
        "modifier",
        "output",
        "parsed",
        "raw_input",
        "runtime",
        "tool",
    )

    def __init__(
        self,
        block: ToolUseBlock,
        tool: Tool[Any, Any],
        ctx: ToolContext,
        runtime: ToolRuntime,
        parsed: BaseModel,
    ) -> None:
        self.block = block
        self.tool = tool
        self.ctx = ctx
        self.runtime = runtime
        self.parsed = parsed
        self.raw_input: Mapping[str, Any] = block.input
        if tool.adds_observable_input:
            shown = tool.observable_input(parsed, ctx)
            if shown is not None:
                self.raw_input = {**block.input, **shown}
        self.extra: list[str] = []
        self.hook_decision: str | None = None
        self.hook_reason = ""
        self.hook_input = False
        self.output: Any = None
        self.modifier: ContextModifier | None = None
        self.content: str | Sequence[ResultPart] = ""
        self.failure: str | None = None
        self.duration_ms = 0.0

    def error(self, text: str, *, status: Status = "error") -> ToolCallOutcome:
        """An error or rejection result for this call, with the context gathered so far."""
        return error_outcome(
            self.block,
            text,
            status=status,
            tool=self.tool,
            input=self.parsed,
            extra_context=tuple(self.extra),
        )

    def reparse(self, data: Mapping[str, Any]) -> ToolCallOutcome | None:
        """Take an input rewritten by a hook or the policy; an error result if it is invalid."""
        reparsed = parse_for(self.tool, data)
        if isinstance(reparsed, str):
            return error_outcome(
                self.block, reparsed, tool=self.tool, extra_context=tuple(self.extra)
            )
        self.parsed, self.raw_input = reparsed, data
        return None


async def _pre_hooks(call: _Call) -> ToolCallOutcome | None:
    """PreToolUse hooks: block, defer, rewrite the input or give their verdict."""
    assert call.runtime.hooks is not None
    tool = call.tool
    pre = await call.runtime.hooks.pre_tool_use(tool=tool, tool_input=call.raw_input, ctx=call.ctx)
    if pre.additional_context:
        call.extra.append(pre.additional_context)
    if pre.decision == "deny":
        reason = pre.reason or "blocked by a PreToolUse hook"
        return call.error(f"PreToolUse hook blocked {tool.name}: {reason}", status="rejected")
    if pre.decision == "defer":
        return _deferred(call.block, tool, call.parsed, call.ctx, call.runtime, tuple(call.extra))
    if pre.updated_input is not None and (stopped := call.reparse(pre.updated_input)):
        return stopped
    call.hook_decision, call.hook_reason = pre.decision, pre.reason
    call.hook_input = pre.updated_input is not None
    return None


async def _authorize(call: _Call, decision: PermissionDecision) -> ToolCallOutcome | None:
    """What follows the policy's ``decision`` unless it is a plain allow.

    The hooks' and the ask handler's say, a refusal as the call's result, the mode the
    approval chose, an input the decision rewrote.
    """
    if decision.behavior != "allow" or call.hook_decision == "ask":
        decision = await _combine(
            decision,
            call.tool,
            call.parsed,
            call.raw_input,
            call.ctx,
            call.runtime,
            call.hook_decision,
            call.hook_reason,
            call.hook_input,
        )
    if decision.behavior != "allow":
        text = decision.message or f"{call.tool.name} was refused; this call did not run."
        return call.error(text, status="rejected")
    if decision.mode_after is not None:
        call.ctx = call.ctx.with_changes(approved_mode=decision.mode_after)
    if decision.updated_input is not None:
        return call.reparse(decision.updated_input)
    return None


def _checkpoint(tool: Tool[Any, Any], parsed: Any, ctx: ToolContext) -> None:
    """A call about to write a path: keep the file's content for the turn's checkpoint."""
    declared = tool.subject
    if declared is None or declared.kind != "write":
        return
    subject = declared.of(parsed, ctx)
    if subject is None or not subject.value:
        return
    from hands.pipeline.checkpoints import CheckpointStore, store_for

    session = ctx.session
    store = session.service(CheckpointStore, lambda: store_for(session.directory))
    # the write goes ahead: a checkpoint that cannot be kept does not stop it
    with contextlib.suppress(OSError):
        store.record(ctx.resolve(subject.value))


_ShellBefore = tuple["CheckpointStore", "Before", bool]
"""The store to record into, the work tree before the command, whether it is trusted."""


async def _shell_before(tool: Tool[Any, Any], parsed: Any, ctx: ToolContext) -> _ShellBefore | None:
    """A shell command that may write: the git work tree's state before it (else None)."""
    declared = tool.subject
    if declared is None or declared.kind != "command" or not declared.shell:
        return None
    if tool.is_read_only(parsed):
        return None
    from hands.pipeline.checkpoints import CheckpointStore, store_for

    session = ctx.session
    store = session.service(CheckpointStore, lambda: store_for(session.directory))
    if not store.recording:
        return None
    from hands.config.trust import is_trusted
    from hands.pipeline import shell_changes

    def snapshot() -> _ShellBefore | None:
        trusted = is_trusted(ctx.cwd)
        root = shell_changes.work_tree(ctx.cwd, trusted=trusted)
        if root is None:
            return None
        state = shell_changes.before(
            root, trusted=trusted, known=store.kept_paths(), max_file_bytes=store.max_file_bytes
        )
        return None if state is None else (store, state, trusted)

    return await anyio.to_thread.run_sync(snapshot)


async def _shell_after(taken: _ShellBefore) -> None:
    """Record, in the turn's checkpoint, the files the command changed since ``taken``."""
    from hands.pipeline import shell_changes

    store, state, trusted = taken
    changed = await anyio.to_thread.run_sync(lambda: shell_changes.after(state, trusted=trusted))
    for item in changed:
        with contextlib.suppress(OSError):
            store.record_content(item.path, existed=item.existed, content=item.content)


async def _invoke(call: _Call, progress: Progress, timer: CallTimer | None) -> None:
    """Run the tool under its time limit; every failure is caught into the call's state."""
    tool, parsed, ctx, limit_s = (
        call.tool,
        call.parsed,
        call.ctx,
        call.runtime.limits.tool_timeout_s,
    )
    ran = call
    shell: _ShellBefore | None = None
    if tool.subject is not None:  # a tool with no subject writes no path it declares
        _checkpoint(tool, parsed, ctx)
        shell = await _shell_before(tool, parsed, ctx)
    started = time.perf_counter()
    try:
        if tool.handles_own_timeout:
            result = await tool.call(parsed, ctx, progress)
        else:
            try:
                asyncio.get_running_loop()
            except RuntimeError:  # another event loop (trio): the limit is a cancel scope
                running = tool.call(parsed, ctx, progress)
                result = await _in_scope(running, tool.name, limit_s, timer, started)
            else:
                # the call's first step runs here: one that finishes without waiting (most
                # do) needs no timer; one that waits finishes under the limit
                step: Any = tool.call(parsed, ctx, progress).__await__()
                try:
                    result = step.send(None)
                except StopIteration as stop:
                    result = stop.value
                else:
                    try:
                        result = await finish_within(
                            step, result, limit_s, started=started, timer=timer
                        )
                    except DeadlineExceeded:
                        raise ToolError(timeout_text(tool.name, limit_s)) from None
        ran.output, ran.modifier = result.output, result.context_modifier
        ran.content = content = tool.to_content(result.output)
        if result.is_error:
            ran.failure = content if isinstance(content, str) else _text_of(content)
    except anyio.get_cancelled_exc_class():
        raise
    except ToolError as exc:
        ran.failure = truncate_middle(str(exc))
    except Exception as exc:
        ran.failure = truncate_middle(f"Error: {type(exc).__name__}: {exc}")
    ran.duration_ms = (time.perf_counter() - started) * 1000
    if shell is not None:
        await _shell_after(shell)


async def _post_hooks(call: _Call) -> None:
    """PostToolUse (or PostToolUseFailure) hooks: context, feedback, a replaced output."""
    assert call.runtime.hooks is not None
    hooks, tool, ran = call.runtime.hooks, call.tool, call
    if ran.failure is None:
        post = await hooks.post_tool_use(
            tool=tool,
            tool_input=call.raw_input,
            response=ran.output,
            ctx=call.ctx,
            duration_ms=ran.duration_ms,
        )
    else:
        post = await hooks.post_tool_use_failure(
            tool=tool,
            tool_input=call.raw_input,
            error=ran.failure,
            ctx=call.ctx,
            duration_ms=ran.duration_ms,
        )
    if post.additional_context:
        call.extra.append(post.additional_context)
    if post.block_reason:
        call.extra.append(f"PostToolUse hook feedback on {tool.name}: {post.block_reason}")
    if post.replaces_output and ran.failure is None:
        from hands.hooks.output import replace_output  # lazy: start-up

        ran.output, ran.content = replace_output(tool, ran.output, ran.content, post.updated_output)


def _finish(call: _Call) -> ToolCallOutcome:
    """The result block: the failure, or the content (never empty, spilled when too big)."""
    tool, block, ran = call.tool, call.block, call
    if ran.failure is not None:
        text = ran.failure or f"{tool.name} failed"
        # the modifier is kept: `cd x && false` still moved the shell
        return build_outcome(
            build_result_block(block.id, text, True, "tool_result"),
            "error",
            tool,
            call.parsed,
            ran.output,
            ran.modifier,
            tuple(call.extra),
            True,
            ran.duration_ms,
        )
    content = ran.content
    if isinstance(content, str):  # most results: measured here, without a call
        if not content.strip():
            content = _empty_text(tool)
        size = len(content)
    else:
        if _is_empty(content):
            content = _empty_text(tool)
        size = content_chars(content)
    limit = tool.max_result_chars
    if limit is not None and (size > limit or size > call.runtime.limits.result_chars):
        content = spill(content, session=call.ctx.session, tool_use_id=block.id)
    parsed = call.parsed
    # most inputs have no ignored fields: looked up before the (dearer) ABC instance check
    notes = (
        parsed.ignored_notes()
        if getattr(parsed, "ignored_fields", None) and isinstance(parsed, ToolInput)
        else ()
    )
    if notes or not isinstance(content, str):
        content = _with_notes(content, notes)
    return build_outcome(
        build_result_block(block.id, content, False, "tool_result"),
        "ok",
        tool,
        parsed,
        ran.output,
        ran.modifier,
        tuple(call.extra) if call.extra else (),
        limit is not None,
        ran.duration_ms,
    )


def _with_notes(
    content: str | Sequence[ResultPart], notes: tuple[str, ...]
) -> str | tuple[ResultPart, ...]:
    """``content`` with the notes on ignored input fields at its end."""
    if isinstance(content, str):
        return "\n\n".join((content, *notes)) if notes else content
    return (*content, *(TextBlock(text=n) for n in notes))


def timeout_text(name: str, seconds: float) -> str:
    """What the model reads when a call ran out of time."""
    return (
        f"{name} timed out after {seconds:g} s and was stopped; nothing more from this call "
        "will arrive. Try a smaller request."
    )


def unknown_tool_outcome(block: ToolUseBlock, runtime: ToolRuntime) -> ToolCallOutcome:
    """The error result of a call to a tool the pool does not have."""
    names = ", ".join(runtime.tools.names) or "(none)"
    return error_outcome(
        block,
        tool_use_error(
            f"There is no tool named {echo(block.name)} in this session. "
            f"The tools you can call: {names}"
        ),
    )


async def timeout_outcome(
    block: ToolUseBlock,
    tool: Tool[Any, Any],
    parsed: BaseModel | None,
    ctx: ToolContext,
    runtime: ToolRuntime,
) -> ToolCallOutcome:
    """The result of a call whose time limit fired in the caller's scope."""
    text = timeout_text(tool.name, runtime.limits.tool_timeout_s)
    extra: tuple[str, ...] = ()
    if runtime.hooks is not None:
        post = await runtime.hooks.post_tool_use_failure(
            tool=tool,
            tool_input=block.input,
            error=text,
            ctx=ctx.for_call(block.id),
            duration_ms=runtime.limits.tool_timeout_s * 1000,
        )
        extra = tuple(t for t in (post.additional_context, post.block_reason) if t)
    return error_outcome(block, text, tool=tool, input=parsed, extra_context=extra)


def _deferred(
    block: ToolUseBlock,
    tool: Tool[Any, Any],
    parsed: BaseModel,
    ctx: ToolContext,
    runtime: ToolRuntime,
    extra: tuple[str, ...],
) -> ToolCallOutcome:
    """A PreToolUse hook deferred the call: it does not run now.

    Deferral is honoured only when the call is its turn's only one; the hooks keep a way
    to run it through the normal flow, which the loop uses when the turn had several.
    """
    hooks = runtime.hooks
    if isinstance(hooks, DeferringHooks):

        async def run_normally() -> ToolCallOutcome:
            return await run_tool_use(block, ctx, runtime, _no_progress)

        hooks.hold_deferred(block.id, run_normally)
    return error_outcome(
        block,
        f"{tool.name} was deferred by a PreToolUse hook and was not run; it can be resumed later.",
        status="rejected",
        tool=tool,
        input=parsed,
        extra_context=extra,
    )


def _no_progress(data: Any) -> None:
    return None


def _hook_approves(decision: PermissionDecision, hook_input: bool) -> bool:
    """Whether a PreToolUse hook's ``allow`` lets a call run that was not allowed."""
    return decision.hook_can_approve and (hook_input or not decision.hook_needs_input)


async def _combine(
    decision: PermissionDecision,
    tool: Tool[Any, Any],
    parsed: BaseModel,
    raw_input: Mapping[str, Any],
    ctx: ToolContext,
    runtime: ToolRuntime,
    hook_decision: str | None,
    hook_reason: str = "",
    hook_input: bool = False,
) -> PermissionDecision:
    """The policy's ``decision``, combined with the PreToolUse hooks' and the ask handler's.

    A hook ``allow`` lets through what would only have been asked (also in ``dontAsk``,
    where the ask became a denial), never what a deny or ask rule, a critical-path
    removal or a protected path decided (``hook_can_approve``). A hook ``ask`` turns an
    allow into a prompt (a denial in ``dontAsk``).
    """
    if decision.behavior == "allow":
        if hook_decision != "ask":
            return decision
        decision = PermissionDecision(
            behavior="ask",
            message=f"A hook asks to confirm {tool.name}"
            + (f": {hook_reason}" if hook_reason else "."),
            reason="hook",
        )
    elif hook_decision == "allow" and _hook_approves(decision, hook_input):
        return PermissionDecision(behavior="allow", reason="allowed by a PreToolUse hook")
    if decision.behavior != "ask":
        return decision
    if ctx.permission_mode == "dontAsk":
        return PermissionDecision(
            behavior="deny",
            message=(
                f"{decision.message or f'{tool.name} needs permission.'} This session does not "
                "ask for permission (mode dontAsk), so the call was not run. Use a tool or "
                "command that is already allowed, or tell the user which permission is needed."
            ),
            reason=f"{decision.reason or 'ask'} (dontAsk)",
            rule=decision.rule,
            source=decision.source,
        )
    gate = runtime.hooks if isinstance(runtime.hooks, PermissionHooks) else None
    if gate is not None:
        verdict = await gate.permission_request(
            tool=tool, tool_input=raw_input, ctx=ctx, message=decision.message
        )
        if verdict is not None:
            return await _recheck(tool, verdict, ctx, runtime)
    if runtime.ask is None:
        return PermissionDecision(
            behavior="deny",
            message=(
                f"{tool.name} needs an approval first "
                f"({decision.message or 'no rule allows it'}), and nobody is available to "
                "approve it in this session. Do not retry this call; use an allowed tool "
                "or tell the user which permission is needed."
            ),
            reason="no ask handler",
        )
    request = AskRequest(tool=tool, input=parsed, context=ctx, message=decision.message)
    answer = await (gate.ask_user(runtime.ask, request) if gate else runtime.ask(request))
    if answer.behavior == "allow":
        return answer
    return PermissionDecision(
        behavior="deny",
        message=answer.message
        or (
            f"The user doesn't want to proceed with this {tool.name} call; it was not run"
            " (nothing was written). Stop and wait for the user to say how to go on."
        ),
        reason=answer.reason or "user",
    )


async def _recheck(
    tool: Tool[Any, Any], verdict: PermissionDecision, ctx: ToolContext, runtime: ToolRuntime
) -> PermissionDecision:
    """A hook's allow with a new input: the new input must pass the deny rules too."""
    if verdict.behavior != "allow" or verdict.updated_input is None:
        return verdict
    reparsed = parse_for(tool, verdict.updated_input)
    if isinstance(reparsed, str):
        return PermissionDecision(behavior="deny", message=reparsed, reason="hook input invalid")
    again = await runtime.policy.decide(tool, reparsed, ctx)
    return again if again.behavior == "deny" else verdict


def _text_of(content: Sequence[ResultPart]) -> str:
    return "\n".join(b.text for b in content if isinstance(b, TextBlock))


async def _in_scope(
    running: Awaitable[ToolResult[Any]],
    name: str,
    limit_s: float,
    timer: CallTimer | None,
    started: float,
) -> ToolResult[Any]:
    """A call under its limit on an event loop other than asyncio (the scope opens first)."""
    try:
        if timer is None:
            return await within(limit_s, running, started=started)
        return await with_timer(running, timer, limit_s, started=started)
    except DeadlineExceeded:
        raise ToolError(timeout_text(name, limit_s)) from None


def _empty_text(tool: Tool[Any, Any]) -> str:
    return f"({tool.name} succeeded; its output is empty)"


def _is_empty(content: str | Sequence[ResultPart]) -> bool:
    # an empty tool_result makes some models end the turn; anything but text (an image, a
    # tool reference) is output even without text
    if isinstance(content, str):
        return not content.strip()
    return content_chars(content) == 0 and all(isinstance(b, TextBlock) for b in content)
