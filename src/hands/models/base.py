"""The model seam: a request in, a stream of normalized events out."""

from __future__ import annotations

from collections.abc import AsyncIterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal, Protocol, TypeAlias

from hands.core.frozen import builder
from hands.core.messages import ContentBlock, Message, ToolUseBlock
from hands.core.tool import ToolSpec
from hands.models.usage import Usage

if TYPE_CHECKING:
    from hands.models.facts import ModelFacts

__all__ = [
    "BlockComplete",
    "Effort",
    "InputJsonDelta",
    "MessageStart",
    "MessageStop",
    "Model",
    "ModelRequest",
    "RetryWait",
    "SessionModel",
    "StreamEvent",
    "TextDelta",
    "ThinkingDelta",
    "ToolUseStart",
    "Usage",
]


Effort: TypeAlias = Literal["low", "medium", "high", "xhigh", "max"]
"""The effort levels a request may ask for, lowest first."""


@dataclass(frozen=True, kw_only=True, slots=True)
class ModelRequest:
    """One request: system prompt, conversation so far and the tools offered."""

    messages: Sequence[Message]
    tools: Sequence[ToolSpec] = ()
    system: str = ""
    max_tokens: int = 8192
    extra: dict[str, Any] = field(default_factory=lambda: dict[str, Any]())
    server_tools: Sequence[Mapping[str, Any]] = ()
    """Tools the provider runs itself, in its own wire form (Anthropic's
    ``{"type": "web_search_20250305", "name": "web_search", ...}``); a provider without
    such tools refuses a request that has any."""
    effort: Effort | None = None
    """How hard the model should think (Anthropic's ``output_config.effort``, OpenAI's
    ``reasoning_effort``); ``None``: the provider's default."""
    betas: tuple[str, ...] = ()
    """Beta features the request asks for (Anthropic's ``anthropic-beta`` header);
    providers without betas ignore them."""


@dataclass(frozen=True, kw_only=True, slots=True)
class MessageStart:
    """The model started answering."""

    id: str = ""
    model: str = ""


@dataclass(frozen=True, kw_only=True, slots=True)
class TextDelta:
    """A fragment of a text block."""

    index: int
    text: str


@dataclass(frozen=True, kw_only=True, slots=True)
class ThinkingDelta:
    """A fragment of a thinking block."""

    index: int
    thinking: str


@dataclass(frozen=True, kw_only=True, slots=True)
class ToolUseStart:
    """A tool_use block began; its input follows as JSON fragments."""

    index: int
    id: str
    name: str


@dataclass(frozen=True, kw_only=True, slots=True)
class InputJsonDelta:
    """A fragment of a tool_use block's input JSON."""

    index: int
    partial_json: str


@dataclass(frozen=True, kw_only=True, slots=True)
class BlockComplete:
    """A content block is complete; for tool_use, ``block.input`` is parsed."""

    index: int
    block: ContentBlock

    @property
    def tool_use(self) -> ToolUseBlock | None:
        """The block when it is a tool_use."""
        return self.block if isinstance(self.block, ToolUseBlock) else None


@dataclass(frozen=True, kw_only=True, slots=True)
class MessageStop:
    """The message ended."""

    stop_reason: str
    usage: Usage = field(default_factory=Usage)


@dataclass(frozen=True, kw_only=True, slots=True)
class RetryWait:
    """A request failed before it streamed anything; it is sent again after ``delay_s``."""

    error: str
    attempt: int
    """The number of the attempt about to be made (2 for the first retry)."""
    max_attempts: int
    delay_s: float


# The events a stream makes for every tool call and text fragment, from their fields in
# this order, without a frozen __init__'s object.__setattr__ per field (hands.core.frozen).
build_text_delta = builder(TextDelta, "index", "text")
build_tool_use_start = builder(ToolUseStart, "index", "id", "name")
build_input_json_delta = builder(InputJsonDelta, "index", "partial_json")
build_block_complete = builder(BlockComplete, "index", "block")


StreamEvent: TypeAlias = (
    RetryWait
    | MessageStart
    | TextDelta
    | ThinkingDelta
    | ToolUseStart
    | InputJsonDelta
    | BlockComplete
    | MessageStop
)


class Model(Protocol):
    """Anything that streams a model turn as :data:`StreamEvent` values.

    A model may also carry ``facts`` (:class:`~hands.models.facts.ModelFacts`: its
    provider, context window, abilities and price); hands asks for them with
    :func:`~hands.models.facts.facts_of`, which assumes them for a model that has none.
    """

    @property
    def name(self) -> str:
        """The model's identifier."""
        ...

    def stream(self, request: ModelRequest) -> AsyncIterator[StreamEvent]:
        """Stream one assistant turn. Raises ModelError on a broken stream."""
        ...


@dataclass(kw_only=True, slots=True)
class SessionModel:
    """The model a session's agent talks to, kept for tools that send requests of their own.

    The agent loop sets it (the first query of a session wins, so sub-agents leave it be);
    a tool reads it with ``ctx.session.service(SessionModel).model``.
    """

    model: Model | None = None


class WrappedModel:
    """A model that adds something to ``inner``'s requests or events.

    Its name and facts are ``inner``'s, and so is every other attribute it does not
    define itself.
    """

    def __init__(self, inner: Model) -> None:
        self.inner = inner

    @property
    def name(self) -> str:
        """The inner model's identifier."""
        return self.inner.name

    @property
    def facts(self) -> ModelFacts:
        """The inner model's facts."""
        from hands.models.facts import facts_of

        return facts_of(self.inner)

    def __getattr__(self, attr: str) -> Any:
        return getattr(self.inner, attr)
