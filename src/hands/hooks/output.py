"""Reading what a hook answered: exit code, stdout JSON, stderr — Claude Code's rules.

* exit 0: stdout is JSON when its first non-space character is ``{``, else plain text
  (which reaches the model only for SessionStart and UserPromptSubmit);
* exit 2: a blocking error on events that can block; the message is the JSON ``reason``
  when a blocking decision was given, else stderr;
* any other code: non-blocking; the user sees a notice with the first stderr line,
  unless stdout holds a valid JSON object, which is honoured on any exit code.

Output strings longer than 10,000 characters are saved to a file in the session
directory and replaced by its path and a preview (without a session: cut, saying so).
"""

from __future__ import annotations

import dataclasses
import json
import secrets
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal, TypeAlias, cast

from hands.hooks.config import HookHandler

if TYPE_CHECKING:
    from hands.core.session import Session

PermissionChoice: TypeAlias = Literal["allow", "deny", "ask", "defer"]
ElicitAction: TypeAlias = Literal["accept", "decline", "cancel"]
MAX_OUTPUT_CHARS = 10_000
BLOCKING_EVENTS = frozenset(
    {
        "PreToolUse", "UserPromptSubmit", "UserPromptExpansion", "Stop", "SubagentStop",
        "TeammateIdle", "TaskCreated", "TaskCompleted", "ConfigChange", "PostToolBatch",
        "PreCompact", "Elicitation", "ElicitationResult", "WorktreeCreate",
    }
)  # fmt: skip
"""Events where exit 2 blocks."""
FEEDBACK_EVENTS = frozenset({"PostToolUse", "PostToolUseFailure"})
"""Events where exit 2 sends stderr to the model (the tool already ran)."""
_PERMISSION_CHOICES = ("allow", "deny", "ask", "defer")


@dataclass(frozen=True, kw_only=True, slots=True)
class HookRun:
    """What one handler produced, before it is interpreted."""

    handler: HookHandler
    exit_code: int | None = 0
    """``None`` when the handler did not finish (timeout, could not start)."""
    stdout: str = ""
    stderr: str = ""
    data: Mapping[str, Any] | None = None
    """An answer that is already an object (Python callbacks)."""
    failure: str = ""
    """Why the handler gave no answer (timeout, refused connection, HTTP 500, exception)."""
    blocks_on_failure: bool = False
    """A Python callback that timed out on PreToolUse or UserPromptSubmit blocks."""


@dataclass(frozen=True, kw_only=True, slots=True)
class HookResult:
    """One handler's answer, interpreted for one event."""

    handler: HookHandler
    blocking: bool = False
    """Exit 2 or ``decision: "block"``: the event's blocking effect, with ``reason``."""
    reason: str = ""
    continue_: bool = True
    stop_reason: str = ""
    system_message: str = ""
    permission: PermissionChoice | None = None
    permission_reason: str = ""
    updated_input: Mapping[str, Any] | None = None
    additional_context: str = ""
    has_updated_output: bool = False
    updated_output: Any = None
    request_behavior: Literal["allow", "deny"] | None = None
    """PermissionRequest: ``decision.behavior``."""
    request_message: str = ""
    request_interrupt: bool = False
    elicitation_action: ElicitAction | None = None
    """Elicitation / ElicitationResult: ``accept``, ``decline`` or ``cancel``."""
    elicitation_content: dict[str, Any] | None = None
    plain_text: str = ""
    notice: str = ""
    """Shown to the user, never to the model: a hook error or a hook's stderr."""
    failed: bool = False
    """The handler did not succeed: it could not run, timed out or exited non-zero."""
    worktree_path: str = ""
    """WorktreeCreate: ``hookSpecificOutput.worktreePath`` (a command may print it instead)."""


Capper: TypeAlias = Callable[[str], str]


def cap(text: str, limit: int = MAX_OUTPUT_CHARS) -> str:
    """Cut an over-long hook string, saying how much was cut."""
    if len(text) <= limit:
        return text
    return f"{text[:limit]}\n[... {len(text) - limit} more characters from the hook cut]"


def capper(session: Session | None, event: str) -> Capper:
    """How ``event``'s over-long output strings are kept.

    Saved under ``session``'s directory (path and preview in their place), or cut
    without a session.
    """
    if session is None:
        return cap

    def keep(text: str) -> str:
        if len(text) <= MAX_OUTPUT_CHARS:
            return text
        from hands.core.spill import spill

        name = f"hook-{event}-{secrets.token_hex(4)}"
        try:
            return spill(text, session=session, tool_use_id=name)
        except OSError:
            return cap(text)

    return keep


def first_line(text: str) -> str:
    """The first non-empty line (for notices)."""
    for line in text.splitlines():
        if line.strip():
            return line.strip()[:500]
    return ""


def interpret(event: str, run: HookRun, *, session: Session | None = None) -> HookResult:
    """Turn one handler's raw answer into its decision for ``event``.

    With ``session``, over-long strings are saved to its directory instead of cut.
    """
    keep = capper(session, event)
    handler = run.handler
    if run.failure:
        if run.blocks_on_failure:
            return HookResult(handler=handler, blocking=True, reason=run.failure, permission="deny")
        return HookResult(
            handler=handler, notice=f"{event} hook error: {run.failure}", failed=True
        )
    data = run.data
    bad_json = ""
    if data is None and run.stdout.lstrip().startswith("{"):
        try:
            loaded: object = json.loads(run.stdout)
        except json.JSONDecodeError as exc:
            loaded = None
            bad_json = f"its stdout starts with '{{' but is not valid JSON ({exc.msg})"
        if isinstance(loaded, dict):
            data = cast(dict[str, Any], loaded)
    code = run.exit_code
    if code == 2:
        return dataclasses.replace(_exit_two(event, run, data, keep), failed=True)
    if data is not None:
        answer = _from_json(event, handler, data, keep)
        return answer if code in (0, None) else dataclasses.replace(answer, failed=True)
    if code not in (0, None):
        line = first_line(run.stderr) or f"exit code {code} and no error output"
        return HookResult(
            handler=handler,
            notice=f"{event} hook error ({handler.label}, exit {code}): {line}",
            failed=True,
        )
    if bad_json:
        notice = f"{event} hook error ({handler.label}): {bad_json}"
        return HookResult(handler=handler, notice=notice)
    return HookResult(handler=handler, plain_text=keep(run.stdout.strip()))


def _exit_two(event: str, run: HookRun, data: Mapping[str, Any] | None, keep: Capper) -> HookResult:
    handler = run.handler
    if event == "PermissionRequest":
        return HookResult(handler=handler)  # exit 2 is ignored there
    if event not in BLOCKING_EVENTS and event not in FEEDBACK_EVENTS:
        line = first_line(run.stderr)
        return HookResult(handler=handler, notice=f"{event} hook: {line}" if line else "")
    reason = ""
    if data is not None:
        parsed = _from_json(event, handler, data, keep)
        if parsed.blocking and parsed.reason:
            reason = parsed.reason
        elif parsed.permission == "deny" and parsed.permission_reason:
            reason = parsed.permission_reason
    if not reason:
        reason = keep(run.stderr.strip())
    if not reason:
        reason = f"{handler.label} exited with code 2 and gave no reason"
    return HookResult(handler=handler, blocking=True, reason=reason, permission="deny")


def _from_json(
    event: str, handler: HookHandler, data: Mapping[str, Any], keep: Capper
) -> HookResult:
    fields: dict[str, Any] = {}
    if data.get("continue") is False:
        fields["continue_"] = False
        fields["stop_reason"] = keep(_text(data.get("stopReason")))
    if data.get("systemMessage"):
        fields["system_message"] = keep(_text(data.get("systemMessage")))
    decision = data.get("decision")
    reason = keep(_text(data.get("reason")))
    if decision == "block":
        if event == "PreToolUse":
            fields["permission"] = "deny"  # legacy form
            fields["permission_reason"] = reason
        fields["blocking"] = True
        fields["reason"] = reason
    elif decision == "approve" and event == "PreToolUse":
        fields["permission"] = "allow"
        fields["permission_reason"] = reason
    specific = data.get("hookSpecificOutput")
    if isinstance(specific, dict):
        _specific(event, cast(dict[str, Any], specific), fields, keep)
    return HookResult(handler=handler, **fields)


def _specific(event: str, out: dict[str, Any], fields: dict[str, Any], keep: Capper) -> None:
    context = out.get("additionalContext")
    if isinstance(context, str) and context.strip():
        fields["additional_context"] = keep(context)
    if event == "PreToolUse":
        choice = out.get("permissionDecision")
        if choice in _PERMISSION_CHOICES:
            fields["permission"] = choice
            fields["permission_reason"] = keep(_text(out.get("permissionDecisionReason")))
        updated = out.get("updatedInput")
        if isinstance(updated, dict):
            fields["updated_input"] = cast(dict[str, Any], updated)
    elif event == "PostToolUse":
        for key in ("updatedToolOutput", "updatedMCPToolOutput"):
            if key in out:
                fields["has_updated_output"] = True
                fields["updated_output"] = out[key]
                break
    elif event == "WorktreeCreate":
        path = out.get("worktreePath")
        if isinstance(path, str) and path.strip():
            fields["worktree_path"] = path.strip()
    elif event in ("Elicitation", "ElicitationResult"):
        action = out.get("action")
        if action in ("accept", "decline", "cancel"):
            fields["elicitation_action"] = action
            content = out.get("content")
            if isinstance(content, dict) and action == "accept":
                fields["elicitation_content"] = cast(dict[str, Any], content)
    elif event == "PermissionRequest":
        _permission_request(out, fields, keep)


def _permission_request(out: dict[str, Any], fields: dict[str, Any], keep: Capper) -> None:
    verdict = out.get("decision")
    if not isinstance(verdict, dict):
        return
    choice = cast(dict[str, Any], verdict)
    behavior = choice.get("behavior")
    if behavior in ("allow", "deny"):
        fields["request_behavior"] = behavior
        fields["request_message"] = keep(_text(choice.get("message")))
        fields["request_interrupt"] = choice.get("interrupt") is True
        updated = choice.get("updatedInput")
        if isinstance(updated, dict):
            fields["updated_input"] = cast(dict[str, Any], updated)


def _text(value: object) -> str:
    if value is None:
        return ""
    return value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)


def replace_output(tool: Any, output: Any, content: Any, new: Any) -> tuple[Any, Any]:
    """A PostToolUse ``updatedToolOutput`` applied: the new output and its content.

    The new output must have the tool's output shape (a pydantic output is re-validated,
    a string stays a string, ...); otherwise it is ignored.
    """
    from pydantic import BaseModel, ValidationError

    replacement: Any
    if isinstance(output, BaseModel):
        try:
            replacement = type(output).model_validate(new)
        except ValidationError:
            return output, content
    elif output is None or _same_shape(output, new):
        replacement = new
    else:
        return output, content
    try:
        return replacement, tool.to_content(replacement)
    except Exception:  # the tool cannot render it: keep what it produced
        return output, content


def _same_shape(old: Any, new: Any) -> bool:
    if isinstance(old, bool) or isinstance(new, bool):
        return isinstance(old, bool) and isinstance(new, bool)
    if isinstance(old, int | float):
        return isinstance(new, int | float)
    for kind in (str, dict, list, tuple):
        if isinstance(old, kind):
            return isinstance(new, list if kind is tuple else kind)
    return False
