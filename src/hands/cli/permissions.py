"""``hands permissions check``: the decision for one call, and why, without running it.

:func:`check_call` decides one call against the settings of a directory plus extra
rules; :func:`run_batch` reads JSON lines ``{"tool", "input", "allow", "ask", "deny",
"mode", "cwd"}`` and writes one decision per line, in order, so a team can test a policy
against a list of commands.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

from pydantic import BaseModel, ConfigDict, ValidationError

from hands.core.decision import PermissionDecision
from hands.permissions.engine import decision_record

if TYPE_CHECKING:
    from hands.core.tool import Tool


@dataclass(frozen=True, kw_only=True, slots=True)
class CheckRequest:
    """One call to decide, with the extra rules and mode to decide it under."""

    tool: str
    input: Mapping[str, Any]
    cwd: Path
    allow: Sequence[str] = ()
    ask: Sequence[str] = ()
    deny: Sequence[str] = ()
    mode: str | None = None
    settings: str | None = None


INVALID_INPUT = "invalid input, refused before any permission decision"


class CheckError(ValueError):
    """The request itself is wrong (bad JSON, bad input, unknown mode)."""


class _AnyInput(BaseModel):
    model_config = ConfigDict(extra="allow", frozen=True)


def _find_tool(name: str) -> Tool[Any, Any]:
    from hands.core.tool import Tool
    from hands.pipeline.pool import pool_for

    pool = pool_for()
    tool = pool.find(name)
    if tool is not None:
        return tool
    from hands.permissions.names import CLAUDE_CODE_LEGACY, CLAUDE_CODE_SUBJECTS

    # an MCP tool or one of Claude Code's own is checked by the rules that name it; any
    # other name is a typo, and a decision for it would only mislead
    if not name.startswith("mcp__") and name not in CLAUDE_CODE_SUBJECTS | CLAUDE_CODE_LEGACY:
        import difflib

        close = difflib.get_close_matches(name, pool.names, n=1)
        hint = f"did you mean {close[0]}? " if close else ""
        raise CheckError(f"there is no tool named {name!r}; {hint}`hands tools` lists them")

    class _StandIn(Tool[_AnyInput, None]):
        input_model = _AnyInput

        def is_read_only(self, input: _AnyInput) -> bool:
            return False

    stand_in = _StandIn()
    stand_in.name = name
    stand_in.subject = CLAUDE_CODE_SUBJECTS.get(name)  # what rules for such a tool match
    return stand_in


async def check_call(
    request: CheckRequest, *, env: Mapping[str, str] | None = None
) -> tuple[PermissionDecision, tuple[str, ...]]:
    """The decision for one call, and the settings warnings met on the way."""
    from hands.cli.args import UsageError, check_settings_value
    from hands.config.settings import CliPermissionArgs, load_settings
    from hands.core.context import PERMISSION_MODES, ToolContext
    from hands.permissions.policy import engine_for
    from hands.pipeline.pool import BuiltinGrammar

    if request.mode is not None and request.mode not in PERMISSION_MODES:
        raise CheckError(
            f"unknown mode {request.mode!r}; choose one of {', '.join(PERMISSION_MODES)}"
        )
    try:
        check_settings_value(request.settings, request.cwd)
    except UsageError as exc:
        raise CheckError(str(exc)) from None
    cli = CliPermissionArgs(
        allowed_tools=tuple(request.allow),
        ask_tools=tuple(request.ask),
        disallowed_tools=tuple(request.deny),
        permission_mode=request.mode,
        settings=request.settings,
    )
    settings = load_settings(request.cwd, cli=cli, env=env)
    engine = engine_for(settings, grammar=BuiltinGrammar())
    tool = _find_tool(request.tool)
    try:
        parsed = tool.parse_input(request.input)
    except ValidationError as exc:
        raise CheckError(f"invalid input for {tool.name}: {exc.errors(include_url=False)}") from exc
    ctx = ToolContext(
        cwd=settings.cwd,
        project_dir=settings.cwd,
        additional_dirs=settings.additional_directories,
        permission_mode=settings.default_mode,
    )
    # a shell command's checks look at the text alone (hidden characters, NUL, size), so
    # they say here what a real call would meet; file tools' look at the disk, and a
    # check may be about a file that does not exist yet
    shell = tool.subject is not None and tool.subject.shell
    problem = await tool.validate_input(parsed, ctx) if shell else None
    if problem is not None:
        invalid = PermissionDecision(behavior="deny", reason=INVALID_INPUT, message=problem)
        return invalid, engine.warnings
    decision = await engine.decide(tool, parsed, ctx)
    return decision, engine.warnings


def format_decision(decision: PermissionDecision, *, as_json: bool) -> str:
    """One line of JSON, or a short human explanation."""
    if as_json:
        return json.dumps(decision_record(decision), ensure_ascii=False)
    lines = [f"{decision.behavior}: {decision.reason or '-'}"]
    if decision.rule:
        lines.append(
            f"  rule: {decision.rule}" + (f" ({decision.source})" if decision.source else "")
        )
    if decision.message:
        lines.append(f"  message: {decision.message}")
    return "\n".join(lines)


def request_from_json(line: str, *, default_cwd: Path, settings: str | None = None) -> CheckRequest:
    """A batch line ``{"tool", "input", "allow", "ask", "deny", "mode", "cwd"}``.

    ``settings``: the ``--settings`` value every line is decided under.
    """
    try:
        raw: object = json.loads(line)
    except json.JSONDecodeError as exc:
        raise CheckError(f"not valid JSON: {exc.msg}") from exc
    if not isinstance(raw, dict):
        raise CheckError("each line must be a JSON object")
    data = cast(dict[str, Any], raw)
    tool = data.get("tool")
    if not isinstance(tool, str) or not tool:
        raise CheckError('"tool" must be a tool name')
    tool_input = data.get("input", {})
    if not isinstance(tool_input, dict):
        raise CheckError('"input" must be an object')
    cwd = data.get("cwd")
    mode = data.get("mode")
    return CheckRequest(
        tool=tool,
        input=cast(dict[str, Any], tool_input),
        cwd=Path(cwd) if isinstance(cwd, str) and cwd else default_cwd,
        allow=_strings(data.get("allow")),
        ask=_strings(data.get("ask")),
        deny=_strings(data.get("deny")),
        mode=mode if isinstance(mode, str) else None,
        settings=settings,
    )


def _strings(value: object) -> tuple[str, ...]:
    if isinstance(value, str):
        return (value,)
    if isinstance(value, list):
        return tuple(str(v) for v in cast(list[object], value))
    return ()


async def run_batch(
    lines: Iterable[str],
    *,
    default_cwd: Path,
    env: Mapping[str, str] | None = None,
    settings: str | None = None,
) -> Iterator[str]:
    """One JSON decision per non-empty input line, in order; bad lines give an error object.

    ``settings``: the ``--settings`` value (a file or JSON) for every line.
    """
    out: list[str] = []
    for line in lines:
        if not line.strip():
            continue
        try:
            request = request_from_json(line, default_cwd=default_cwd, settings=settings)
            decision, _ = await check_call(request, env=env)
            out.append(format_decision(decision, as_json=True))
        except CheckError as exc:
            out.append(
                json.dumps({"behavior": "error", "reason": str(exc), "rule": "", "source": ""})
            )
    return iter(out)
