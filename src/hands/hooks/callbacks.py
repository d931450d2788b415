"""Python hooks: functions registered in code for the same events as settings hooks.

A callback receives the same input object a command hook reads on stdin and returns
the same JSON output (as a dict), or ``None`` for "no opinion"::

    hooks = HookCallbacks()

    @hooks.on("PreToolUse", matcher="Bash", if_="Bash(rm *)")
    async def no_rm(data: dict) -> dict:
        return {"hookSpecificOutput": {"hookEventName": "PreToolUse",
                "permissionDecision": "deny", "permissionDecisionReason": "no rm here"}}

Callbacks in the Agent SDK's shape ``(input_data, tool_use_id, context)`` work too. A
callback may be sync or async. One that raises gives the user a notice and no
decision; one that times out on PreToolUse or UserPromptSubmit blocks (as in the SDK).
"""

from __future__ import annotations

import functools
import inspect
from collections.abc import Awaitable, Callable, Mapping
from typing import Any, TypeAlias, TypeVar, cast

import anyio

from hands.hooks.config import (
    KNOWN_EVENTS,
    MATCHER_FIELDS,
    HookConfig,
    HookHandler,
    MatcherGroup,
    compile_matcher,
)
from hands.hooks.output import HookRun

HookCallback: TypeAlias = Callable[..., Any]
"""``(input) -> dict | None`` or ``(input, tool_use_id, context) -> dict | None``,
sync or async."""
F = TypeVar("F", bound=HookCallback)
_Normalized: TypeAlias = Callable[[dict[str, Any], str | None], Awaitable[object]]
TIMEOUT_BLOCKS = frozenset({"PreToolUse", "UserPromptSubmit"})


class HookCallbacks:
    """A registry of Python hooks; pass it to :class:`~hands.hooks.engine.HookEngine`."""

    def __init__(self) -> None:
        self._groups: dict[str, list[MatcherGroup]] = {}
        self._wrapped: dict[int, _Normalized] = {}

    def add(
        self,
        event: str,
        callback: HookCallback,
        *,
        matcher: str | None = None,
        if_: str | None = None,
        timeout: float | None = None,
    ) -> None:
        """Register ``callback`` for ``event`` (tool name ``matcher``, rule ``if_``)."""
        if event not in KNOWN_EVENTS:
            raise ValueError(
                f"{event!r} is not a hook event; use one of PreToolUse, PostToolUse, Stop, ..."
            )
        compiled = compile_matcher(matcher if event in MATCHER_FIELDS else None)
        if isinstance(compiled, str):
            raise ValueError(compiled)
        if timeout is not None and timeout <= 0:
            raise ValueError("timeout must be a positive number of seconds")
        wrapped = self._wrapped.get(id(callback))
        if wrapped is None:
            wrapped = _normalize(callback)
            self._wrapped[id(callback)] = wrapped
        handler = HookHandler(
            type="callback",
            callback=wrapped,
            if_rule=if_,
            timeout_s=timeout,
            source="code",
        )
        group = MatcherGroup(matcher=matcher or "", matches=compiled, handlers=(handler,))
        self._groups.setdefault(event, []).append(group)

    def on(
        self,
        event: str,
        *,
        matcher: str | None = None,
        if_: str | None = None,
        timeout: float | None = None,
    ) -> Callable[[F], F]:
        """Decorator form of :meth:`add`."""

        def register(fn: F) -> F:
            self.add(event, fn, matcher=matcher, if_=if_, timeout=timeout)
            return fn

        return register

    def config(self) -> HookConfig:
        """The registered callbacks as a hook configuration."""
        return HookConfig(groups={k: tuple(v) for k, v in self._groups.items()})


def _normalize(callback: HookCallback) -> _Normalized:
    try:
        params = [
            p
            for p in inspect.signature(callback).parameters.values()
            if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)
        ]
        sdk_shape = len(params) >= 3
    except (TypeError, ValueError):
        sdk_shape = False

    @functools.wraps(callback)
    async def call(data: dict[str, Any], tool_use_id: str | None) -> object:
        result: object = (
            callback(data, tool_use_id, {"signal": None}) if sdk_shape else callback(data)
        )
        if inspect.isawaitable(result):
            result = await cast(Awaitable[object], result)
        return result

    return call


async def run_callback(
    handler: HookHandler, event: str, data: dict[str, Any], *, timeout_s: float
) -> HookRun:
    """Call one Python hook under its time limit."""
    fn = cast(_Normalized, handler.callback)
    result: object = None
    try:
        with anyio.fail_after(timeout_s):
            result = await fn(data, data.get("tool_use_id"))
    except TimeoutError:
        return HookRun(
            handler=handler,
            exit_code=None,
            failure=f"{handler.label} timed out after {timeout_s:g} s",
            blocks_on_failure=event in TIMEOUT_BLOCKS,
        )
    except Exception as exc:
        return HookRun(
            handler=handler,
            exit_code=None,
            failure=f"{handler.label} raised {type(exc).__name__}: {exc}",
        )
    if result is None:
        return HookRun(handler=handler, data={})
    if isinstance(result, Mapping):
        return HookRun(handler=handler, data=cast(Mapping[str, Any], result))
    if isinstance(result, str):
        return HookRun(handler=handler, stdout=result)
    return HookRun(
        handler=handler,
        exit_code=None,
        failure=(
            f"{handler.label} returned {type(result).__name__}; return a dict in the hook "
            "JSON output shape, or None"
        ),
    )
