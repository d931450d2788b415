"""A server's ``sampling/createMessage``: the session's model answers, once the user agrees.

The manager is given a :data:`SamplingHandler`; without one the client does not
advertise sampling. :func:`model_sampler` builds one from a model (or a function
returning the session's model) and an approval callback: the REPL asks the user, the
library passes its own, print mode has nobody to ask and declines.

Each server's entry may say how its requests are approved (``"sampling"`` in its
``.mcp.json`` entry): ``"ask"`` (the default: the approval callback decides), ``"auto"``
(served without asking, also in print mode) or ``"off"`` (sampling is not offered to
that server). The server's ``maxTokens`` caps the reply (and at most
:data:`MAX_SAMPLING_TOKENS`); the model sees the server's messages and system prompt
only, never the conversation.
"""

from __future__ import annotations

import base64
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TypeAlias, cast

from hands.core.messages import ImageBlock, Message, TextBlock
from hands.models.base import BlockComplete, MessageStart, MessageStop, ModelRequest

if TYPE_CHECKING:
    from hands.models.base import Model

MAX_SAMPLING_TOKENS = 32_000
"""The most a server may ask for, whatever its ``maxTokens`` says."""

_STOP_REASONS = {"end_turn": "endTurn", "max_tokens": "maxTokens", "stop_sequence": "stopSequence"}


@dataclass(frozen=True, kw_only=True, slots=True)
class SamplingRequest:
    """What a server asks the model, in hands' message types."""

    server: str
    messages: tuple[Message, ...]
    max_tokens: int
    system_prompt: str = ""
    temperature: float | None = None
    stop_sequences: tuple[str, ...] = ()
    model_hints: tuple[str, ...] = ()
    auto_approved: bool = False
    """The server's entry says ``"sampling": "auto"``: no one is asked."""

    def prompt_text(self) -> str:
        """The request's text, for showing to the user before they approve it."""
        lines: list[str] = []
        if self.system_prompt:
            lines.append(f"[system] {self.system_prompt}")
        for message in self.messages:
            for block in message.content:
                shown = block.text if isinstance(block, TextBlock) else f"({type(block).__name__})"
                lines.append(f"[{message.role}] {shown}")
        return "\n".join(lines)


@dataclass(frozen=True, kw_only=True, slots=True)
class SamplingReply:
    """The model's answer: its text, which model, why it stopped (MCP's words)."""

    text: str
    model: str
    stop_reason: str = "endTurn"


class SamplingDeclined(Exception):
    """The request was not served (the user said no, or nothing can serve it)."""


SamplingHandler: TypeAlias = Callable[[SamplingRequest], Awaitable[SamplingReply]]
SamplingApproval: TypeAlias = Callable[[SamplingRequest], Awaitable[bool]]


async def decline_all(request: SamplingRequest) -> bool:
    """Print mode's approval: nobody can say yes."""
    return False


def model_sampler(
    model_of: Callable[[], Model | None], approve: SamplingApproval
) -> SamplingHandler:
    """Serve requests with the model ``model_of`` returns at request time.

    ``approve`` is asked unless the server's entry auto-approves; a no raises
    :class:`SamplingDeclined`. ``model_of`` is, for a session, its current model
    (``/model`` may change it); for a fixed model, ``lambda: model``.
    """

    async def handle(request: SamplingRequest) -> SamplingReply:
        if not request.auto_approved and not await approve(request):
            raise SamplingDeclined(f"the user declined the sampling request of {request.server}")
        chosen = model_of()
        if chosen is None:
            raise SamplingDeclined("this session has no model to serve sampling requests")
        return await _sample(chosen, request)

    return handle


async def _sample(model: Model, request: SamplingRequest) -> SamplingReply:
    extra: dict[str, Any] = {}
    if request.temperature is not None:
        extra["temperature"] = request.temperature
    if request.stop_sequences:
        extra["stop_sequences"] = list(request.stop_sequences)
    wire = ModelRequest(
        messages=request.messages,
        system=request.system_prompt,
        max_tokens=max(1, min(request.max_tokens, MAX_SAMPLING_TOKENS)),
        extra=extra,
    )
    texts: list[str] = []
    name = model.name
    stop = "end_turn"
    async for event in model.stream(wire):
        if isinstance(event, MessageStart) and event.model:
            name = event.model
        elif isinstance(event, BlockComplete) and isinstance(event.block, TextBlock):
            texts.append(event.block.text)
        elif isinstance(event, MessageStop):
            stop = event.stop_reason
    return SamplingReply(text="".join(texts), model=name, stop_reason=_STOP_REASONS.get(stop, stop))


def request_from_params(server: str, params: Any, *, auto: bool) -> SamplingRequest:
    """SDK ``CreateMessageRequestParams`` → :class:`SamplingRequest`."""
    messages: list[Message] = []
    for item in cast(Sequence[Any], params.messages):
        blocks: list[TextBlock | ImageBlock] = []
        raw: Any = item.content
        for part in cast(Sequence[Any], raw if isinstance(raw, list) else [raw]):
            kind = getattr(part, "type", "")
            if kind == "text":
                blocks.append(TextBlock(text=str(part.text)))
            elif kind == "image":
                base64.b64decode(part.data, validate=True)  # a bad image fails here, not later
                blocks.append(ImageBlock(data=str(part.data), media_type=str(part.mime_type)))
            else:
                blocks.append(TextBlock(text=f"[{kind or 'unknown'} content not supported]"))
        messages.append(Message(role=item.role, content=tuple(blocks)))
    prefs: Any = getattr(params, "model_preferences", None)
    given: list[Any] = list(getattr(prefs, "hints", None) or [])
    hints = tuple(str(h.name) for h in given if getattr(h, "name", None))
    return SamplingRequest(
        server=server,
        messages=tuple(messages),
        max_tokens=int(params.max_tokens),
        system_prompt=str(params.system_prompt or ""),
        temperature=params.temperature,
        stop_sequences=tuple(params.stop_sequences or ()),
        model_hints=hints,
        auto_approved=auto,
    )
