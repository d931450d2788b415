"""A hands tool pool with its permissions, hooks and session, callable one call at a time.

Every framework adapter is a thin layer over :class:`Toolbox`: the framework decides when
a tool runs; the toolbox runs it through hands' whole pipeline (validation, PreToolUse
hooks, the permission engine of the user's settings files, the tool under its time
limit, PostToolUse hooks, spill of large results) in one :class:`~hands.core.session.Session`
shared by every call of the run, so Read's read-state, background shells and the
working directory carry from call to call.

A call the permission engine would ask about comes back as :class:`PendingApproval`
(nothing was run); the framework asks its user in its own way and calls again with the
answer. A blocking ``ask`` handler can answer instead, as in :func:`hands.query`.
"""

from __future__ import annotations

import dataclasses
import secrets
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal, TypeAlias, cast

from hands.adapters.asking import RememberedHooks, would_ask
from hands.adapters.scheduling import CallGate
from hands.core.context import PermissionMode
from hands.core.decision import AskHandler, AskRequest, PermissionDecision, allow, deny
from hands.core.limits import Limits
from hands.core.messages import ImageBlock, ResultPart, TextBlock, ToolUseBlock
from hands.core.session import Session
from hands.core.tool import Progress, Tool
from hands.pipeline.execution import parse_for, run_tool_use
from hands.pipeline.pool import ToolPool
from hands.pipeline.runtime import ToolRuntime

if TYPE_CHECKING:
    from pydantic import BaseModel

    from hands.agent.options import ToolSource
    from hands.config.settings import Settings
    from hands.core.decision import PermissionPolicy
    from hands.core.hooks import ToolHooks
    from hands.harness.harness import Harness

Approval: TypeAlias = Literal["approved", "denied"] | None
"""The framework's answer for a call it was asked to approve; ``None``: not asked yet."""

_PENDING = "approval pending"


@dataclass(frozen=True, kw_only=True, slots=True)
class ToolDef:
    """What a framework needs to declare one hands tool."""

    name: str
    description: str
    input_schema: Mapping[str, Any]
    sequential: bool
    """The tool never runs alongside others (no call of it is concurrency-safe)."""


@dataclass(frozen=True, kw_only=True, slots=True)
class PendingApproval:
    """A call hands would ask the user about; it was not run."""

    call_id: str
    tool_name: str
    input: Mapping[str, Any]
    message: str
    """Why permission is needed, in the permission engine's words."""


@dataclass(frozen=True, kw_only=True, slots=True)
class CallResult:
    """One call's result, as the model should see it."""

    call_id: str
    parts: tuple[ResultPart, ...]
    is_error: bool = False
    pending: PendingApproval | None = None
    """Set when the call waits for approval (``parts`` then says so)."""

    @property
    def text(self) -> str:
        """The text of the result (images left out)."""
        return "\n".join(p.text for p in self.parts if isinstance(p, TextBlock))

    @property
    def images(self) -> tuple[ImageBlock, ...]:
        """The images of the result."""
        return tuple(p for p in self.parts if isinstance(p, ImageBlock))


class Toolbox:
    """hands' tools for another framework's agent: one session, one permission engine.

    ``tools``: a pool, a list of tools, or a :class:`~hands.agent.options.ToolSource`
    (MCP servers, deferred tools behind ToolSearch), asked again on every listing;
    ``None``: the built-in tools. The session is a :class:`~hands.harness.Harness`
    opened for the adapters: the settings load from ``cwd`` as the CLI loads them, and
    their ``env`` block and ``defaultMode`` apply as in the CLI (``permission_mode``
    names another mode). ``trusted=True`` trusts the folder for this toolbox; otherwise
    the trusted-workspaces file decides, so an untrusted project's allow rules, env and
    hooks stay off. Pass ``policy``/``hooks`` to replace what the settings give.
    """

    def __init__(
        self,
        *,
        cwd: Path | str | None = None,
        tools: ToolPool | Sequence[Tool[Any, Any]] | ToolSource | None = None,
        settings: Settings | None = None,
        trusted: bool | None = None,
        permission_mode: PermissionMode | None = None,
        policy: PermissionPolicy | None = None,
        hooks: ToolHooks | None = None,
        ask: AskHandler | None = None,
        limits: Limits | None = None,
        session: Session | None = None,
        on_notice: Callable[[str], None] | None = None,
        harness: Harness | None = None,
    ) -> None:
        if harness is None:
            from hands.harness.front_ends import ADAPTER
            from hands.harness.harness import Harness

            harness = Harness.open(
                cwd,
                settings_sources=settings,
                trust=bool(trusted),
                mode=permission_mode,
                policy=policy,
                hooks=hooks,
                limits=limits,
                session=session,
                on_notice=on_notice,
                front_end=ADAPTER,
            )
        self.harness = harness
        self.settings = harness.settings
        self.policy: PermissionPolicy = harness.policy
        self.hooks = harness.hooks
        self._hooks = RememberedHooks(self.hooks) if self.hooks is not None else None
        self._ask = ask if ask is not None else harness.ask
        self.limits = harness.limits
        if tools is None:
            self._static: ToolPool | None = harness.pool
            self._source: ToolSource | None = None
        elif isinstance(tools, ToolPool):
            self._static, self._source = tools, None
        elif isinstance(tools, Sequence):
            self._static, self._source = ToolPool(tools), None
        else:
            self._static, self._source = None, tools
        self.session = harness.session
        self.context = harness.context
        self._gate = CallGate()

    # -- the tools -------------------------------------------------------------------

    def pool(self) -> ToolPool:
        """The tools offered now (a ToolSource may have found or connected more)."""
        if self._source is not None:
            return self._source.current_pool()
        assert self._static is not None
        return self._static

    def tool_defs(self) -> list[ToolDef]:
        """The definitions of the tools offered now, in request order."""
        pool = self.pool()
        defs = [_definition(pool, spec.name) for spec in pool.specs()]
        reminder = getattr(self._source, "reminder", None)
        text = reminder() if callable(reminder) else None
        if isinstance(text, str) and text:
            # hands' loop lists the deferred tools in a reminder message; a framework
            # sends no such message, so the list goes with the tool that finds them
            from hands.discovery.tool_search import ToolSearchTool

            defs = [
                dataclasses.replace(d, description=f"{d.description}\n\n{text}")
                if isinstance(pool.find(d.name), ToolSearchTool)
                else d
                for d in defs
            ]
        return defs

    def every_tool_def(self) -> list[ToolDef]:
        """The tools offered now and those deferred behind ToolSearch (not shown yet).

        For frameworks whose tool list is fixed when the agent is made: each tool is
        declared once, and :meth:`offers` says whether the model sees it this turn.
        """
        defs = self.tool_defs()
        deferred = getattr(self._source, "deferred_tools", None)
        if callable(deferred):
            known = {d.name for d in defs}
            for tool in cast("Iterable[Tool[Any, Any]]", deferred()):
                if tool.name not in known:  # (``find`` would mark it found)
                    defs.append(_definition_of(tool))
        return defs

    def offers(self, name: str) -> bool:
        """Whether the model sees the tool in its next request."""
        return name in self.pool().names

    def find(self, name: str) -> Tool[Any, Any] | None:
        """The tool a call of ``name`` runs (also a deferred one, or an alias)."""
        return self.pool().find(name)

    # -- calls -----------------------------------------------------------------------

    async def call(
        self,
        name: str,
        arguments: Mapping[str, Any],
        *,
        call_id: str | None = None,
        approval: Approval = None,
        progress: Progress | None = None,
    ) -> CallResult:
        """Run one call through the whole pipeline. Never raises except on cancellation.

        ``approval`` answers an earlier :class:`PendingApproval` for the same call. A
        call the engine asks about, with no answer and no ``ask`` handler, comes back
        pending and is not run.
        """
        call_id = call_id or new_call_id()
        pool = self.pool()
        block = ToolUseBlock(id=call_id, name=name, input=dict(arguments))
        asked: list[AskRequest] = []
        runtime = ToolRuntime(
            tools=pool,
            policy=self.policy,
            ask=self._answerer(approval, asked),
            hooks=self._hooks,
            limits=self.limits,
        )
        tool = pool.find(name)
        parsed = _parsed(tool, block.input)
        async with self._gate.hold(exclusive=not _shared(tool, parsed), call_id=call_id):
            outcome = await run_tool_use(
                block,
                self.context,
                runtime,
                progress if progress is not None else _ignore,
                parsed=parsed,
            )
            if outcome.context_modifier is not None:
                self.context = outcome.context_modifier(self.context)
        if asked and approval is None:  # it keeps its hooks' verdict for the approved call
            request = asked[0]
            pending = PendingApproval(
                call_id=call_id,
                tool_name=request.tool.name,
                input=dict(arguments),
                message=request.message or f"{request.tool.name} needs permission.",
            )
            notice = f"{pending.message} Waiting for the user's approval; the call was not run."
            return CallResult(
                call_id=call_id, parts=(TextBlock(text=notice),), is_error=True, pending=pending
            )
        self.forget(call_id)  # settled
        content = outcome.block.content
        parts: tuple[ResultPart, ...] = (
            (TextBlock(text=content),) if isinstance(content, str) else tuple(content)
        )
        parts += tuple(TextBlock(text=extra) for extra in outcome.extra_context)
        return CallResult(call_id=call_id, parts=parts, is_error=outcome.is_error)

    async def would_ask(
        self, name: str, arguments: Mapping[str, Any], *, call_id: str = ""
    ) -> bool:
        """Whether running this call would ask the user (nothing runs).

        For frameworks that ask before they invoke a tool. PreToolUse hooks run here
        and their verdict is kept for the call with the same ``call_id``; input that
        does not parse, unknown names and denials are not asked about: the call itself
        reports them.
        """
        tool = self.pool().find(name)
        if tool is None:
            return False
        ctx = self.context.for_call(call_id, policy=self.policy)
        return await would_ask(tool, arguments, ctx, policy=self.policy, hooks=self._hooks)

    def reserve(
        self, call_id: str, name: str, arguments: Mapping[str, Any], *, claimed: bool = True
    ) -> None:
        """Take the call's place in the run order now, before its hooks or approval.

        For frameworks that start every call of a model message at once: reserve each call
        in the message's order (as the framework hands it over, or the whole message at
        once with ``claimed=False`` for the calls not handed over yet), and the calls run
        in that order however long each one's hooks take. A reserved call that will not run
        now gives its place back with :meth:`withdraw`. Reserving a call that already
        has a place, or has run, does nothing.
        """
        tool = self.pool().find(name)
        exclusive = not _shared(tool, _parsed(tool, arguments))
        self._gate.reserve(call_id, exclusive=exclusive, claimed=claimed)

    def withdraw(self, call_id: str) -> None:
        """The reserved call will not run now (it waits for the user, or never came)."""
        self._gate.withdraw(call_id)

    def settled(self, call_id: str) -> bool:
        """Whether the call ran, or was withdrawn, through this toolbox."""
        return self._gate.settled(call_id)

    def forget(self, call_id: str) -> None:
        """Drop the PreToolUse verdict kept for a call that will not run."""
        if self._hooks is not None:
            self._hooks.forget(call_id)

    def _answerer(self, approval: Approval, asked: list[AskRequest]) -> AskHandler:
        fallback = self._ask

        async def answer(request: AskRequest) -> PermissionDecision:
            if approval == "approved":
                return allow("approved by the user")
            if approval == "denied":
                return deny(
                    f"The user did not approve this {request.tool.name} call; it was not "
                    "run. Do not retry it; ask the user how to go on.",
                    "user",
                )
            if fallback is not None:
                return await fallback(request)
            asked.append(request)
            return deny(request.message or _PENDING, _PENDING)

        return answer

    async def aclose(self) -> None:
        """End the session: stop background shells, remove temporary files."""
        await self.session.aclose()

    async def __aenter__(self) -> Toolbox:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.aclose()


def new_call_id() -> str:
    """A fresh ``tool_use`` id, for a framework that gives its calls none."""
    return f"toolu_{secrets.token_hex(12)}"


def _definition(pool: ToolPool, name: str) -> ToolDef:
    tool = pool.find(name)
    assert tool is not None
    return _definition_of(tool)


def _definition_of(tool: Tool[Any, Any]) -> ToolDef:
    return ToolDef(
        name=tool.name,
        description=tool.description,
        input_schema=tool.input_schema,
        sequential=not _ever_concurrent(tool),
    )


def _ever_concurrent(tool: Tool[Any, Any]) -> bool:
    """Whether some call of the tool may run alongside others (it decides per input)."""
    return type(tool).is_concurrency_safe is not Tool.is_concurrency_safe


def _shared(tool: Tool[Any, Any] | None, parsed: BaseModel | None) -> bool:
    """Whether the call may run alongside others (an unknown tool's error may)."""
    return tool is None or (parsed is not None and tool.is_concurrency_safe(parsed))


def _parsed(tool: Tool[Any, Any] | None, arguments: Mapping[str, Any]) -> BaseModel | None:
    """The call's input, parsed once for the gate and the pipeline; None if invalid."""
    if tool is None:
        return None
    parsed = parse_for(tool, arguments)
    return None if isinstance(parsed, str) else parsed


def _ignore(data: Any) -> None:
    return None


def pending_of(results: Iterable[CallResult]) -> list[PendingApproval]:
    """The calls among ``results`` that wait for approval."""
    return [r.pending for r in results if r.pending is not None]


__all__ = [
    "Approval",
    "CallResult",
    "PendingApproval",
    "ToolDef",
    "Toolbox",
    "new_call_id",
    "pending_of",
]
