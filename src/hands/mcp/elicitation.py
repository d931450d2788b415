"""A server's ``elicitation/create``: ask the user for input, in a form or at a URL.

The manager is given an :data:`ElicitationHandler` (a library callback, the REPL, or
print mode's); without one the client does not advertise elicitation at all. Print mode
has no one to ask: :func:`decline_unless_hooked` lets an ``Elicitation`` hook answer
and declines otherwise; ``ElicitationResult`` hooks see (and may change) every answer.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal, Protocol, TypeAlias, cast

if TYPE_CHECKING:
    from hands.core.context import ToolContext
    from hands.hooks.engine import HookEngine

ElicitAction: TypeAlias = Literal["accept", "decline", "cancel"]


@dataclass(frozen=True, kw_only=True, slots=True)
class ElicitationRequest:
    """What a server asks the user."""

    server: str
    message: str
    mode: Literal["form", "url"] = "form"
    requested_schema: Mapping[str, Any] = field(default_factory=lambda: dict[str, Any]())
    """Form mode: a flat JSON schema of the fields wanted."""
    url: str = ""
    """URL mode: where the user is sent."""


@dataclass(frozen=True, kw_only=True, slots=True)
class ElicitationAnswer:
    """The user's answer: accept (with the form's ``content``), decline or cancel."""

    action: ElicitAction
    content: Mapping[str, Any] | None = None


ElicitationHandler: TypeAlias = Callable[[ElicitationRequest], Awaitable[ElicitationAnswer]]
DECLINE = ElicitationAnswer(action="decline")


class ElicitationHooks(Protocol):
    """The hook points (:class:`HookElicitation` adapts ``HookEngine`` to them)."""

    async def elicitation(self, request: ElicitationRequest) -> ElicitationAnswer | None:
        """An ``Elicitation`` hook's answer, if one gave it."""
        ...

    async def elicitation_result(
        self, request: ElicitationRequest, answer: ElicitationAnswer
    ) -> ElicitationAnswer:
        """The answer after ``ElicitationResult`` hooks (changed or not)."""
        ...


class HookElicitation:
    """``Elicitation`` / ``ElicitationResult`` hooks of a :class:`HookEngine` in a context."""

    def __init__(self, engine: HookEngine, ctx: ToolContext) -> None:
        self.engine = engine
        self.ctx = ctx

    async def elicitation(self, request: ElicitationRequest) -> ElicitationAnswer | None:
        said = await self.engine.elicitation(self.ctx, _fields(request))
        return ElicitationAnswer(action=said[0], content=said[1]) if said else None

    async def elicitation_result(
        self, request: ElicitationRequest, answer: ElicitationAnswer
    ) -> ElicitationAnswer:
        said = await self.engine.elicitation_result(
            self.ctx, _fields(request), (answer.action, answer.content)
        )
        return ElicitationAnswer(action=said[0], content=said[1]) if said else answer


def _fields(request: ElicitationRequest) -> dict[str, Any]:
    fields: dict[str, Any] = {
        "mcp_server_name": request.server,
        "message": request.message,
        "mode": request.mode,
    }
    if request.mode == "url":
        fields["url"] = request.url
    else:
        fields["requested_schema"] = dict(request.requested_schema)
    return fields


def with_hooks(
    hooks: ElicitationHooks | None, ask: ElicitationHandler | None
) -> ElicitationHandler:
    """Hooks first, then ``ask`` (None: decline, as print mode does), then the result hooks."""

    async def handle(request: ElicitationRequest) -> ElicitationAnswer:
        answer = await hooks.elicitation(request) if hooks is not None else None
        if answer is None:
            answer = await ask(request) if ask is not None else DECLINE
        if hooks is not None:
            answer = await hooks.elicitation_result(request, answer)
        return answer

    return handle


def decline_unless_hooked(hooks: ElicitationHooks | None) -> ElicitationHandler:
    """Print mode: an ``Elicitation`` hook may answer; nobody else can, so decline."""
    return with_hooks(hooks, None)


def with_defaults(request: ElicitationRequest, answer: ElicitationAnswer) -> ElicitationAnswer:
    """An accepted form with each omitted field set to its schema ``default`` (SEP-1034)."""
    if answer.action != "accept" or request.mode != "form":
        return answer
    properties: Any = request.requested_schema.get("properties")
    if not isinstance(properties, Mapping):
        return answer
    content = dict(answer.content or {})
    for name, spec in cast(Mapping[str, Any], properties).items():
        if name not in content and isinstance(spec, Mapping) and "default" in spec:
            content[name] = cast(Mapping[str, Any], spec)["default"]
    return ElicitationAnswer(action="accept", content=content)


def request_from_params(server: str, params: Any) -> ElicitationRequest:
    """SDK ``ElicitRequestParams`` → :class:`ElicitationRequest`."""
    mode = getattr(params, "mode", "form")
    if mode == "url":
        return ElicitationRequest(
            server=server, message=params.message, mode="url", url=str(params.url)
        )
    raw: Any = params.requested_schema
    data: dict[str, Any] = (
        dict(cast(Mapping[str, Any], raw))
        if isinstance(raw, Mapping)
        else raw.model_dump(by_alias=True)
    )
    return ElicitationRequest(server=server, message=params.message, requested_schema=data)
