"""Content blocks and messages, in Anthropic's wire shape (the canonical form).

Every block is a frozen value with ``to_wire()`` giving the JSON the API expects, and
``block_from_wire`` reads one back. Provider adapters translate from this form.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal, TypeAlias, cast

from hands.core.frozen import builder


@dataclass(frozen=True, kw_only=True, slots=True)
class TextBlock:
    """Plain text from the model or the user.

    ``citations`` are the API's citation objects as sent (e.g. ``web_search_result_location``
    entries naming the page a sentence came from), kept so they round-trip.
    """

    text: str
    citations: tuple[Mapping[str, Any], ...] = ()
    type: Literal["text"] = "text"

    def to_wire(self) -> dict[str, Any]:
        """Return the API form."""
        if self.citations:
            return {
                "type": "text",
                "text": self.text,
                "citations": [dict(c) for c in self.citations],
            }
        return {"type": "text", "text": self.text}


@dataclass(frozen=True, kw_only=True, slots=True)
class ImageBlock:
    """A base64-encoded image."""

    media_type: str
    data: str
    type: Literal["image"] = "image"

    def to_wire(self) -> dict[str, Any]:
        """Return the API form."""
        return {
            "type": "image",
            "source": {"type": "base64", "media_type": self.media_type, "data": self.data},
        }


@dataclass(frozen=True, kw_only=True, slots=True)
class DocumentBlock(TextBlock):
    """A base64 document (a PDF) that also carries its extracted text.

    Anthropic's API reads the document itself (``to_wire`` sends only it); everything that
    takes text only (other providers, adapters, the terminal, spilled output) reads
    ``text``, because a document block is a text block to them.
    """

    data: str
    media_type: str = "application/pdf"
    pages: int = 0
    """Pages in the document (what a token estimate counts it by)."""

    def to_wire(self) -> dict[str, Any]:
        """Return the API form: the document alone."""
        return {
            "type": "document",
            "source": {"type": "base64", "media_type": self.media_type, "data": self.data},
        }


@dataclass(frozen=True, kw_only=True, slots=True)
class ThinkingBlock:
    """Extended-thinking text with its signature."""

    thinking: str
    signature: str = ""
    type: Literal["thinking"] = "thinking"

    def to_wire(self) -> dict[str, Any]:
        """Return the API form."""
        return {"type": "thinking", "thinking": self.thinking, "signature": self.signature}


@dataclass(frozen=True, kw_only=True, slots=True)
class ToolUseBlock:
    """A request from the model to run one tool."""

    id: str
    name: str
    input: Mapping[str, Any] = field(default_factory=lambda: dict[str, Any]())
    type: Literal["tool_use"] = "tool_use"

    def to_wire(self) -> dict[str, Any]:
        """Return the API form."""
        return {"type": "tool_use", "id": self.id, "name": self.name, "input": dict(self.input)}


@dataclass(frozen=True, kw_only=True, slots=True)
class ToolReferenceBlock:
    """Names a deferred tool inside a tool_result; the API loads its definition."""

    tool_name: str
    type: Literal["tool_reference"] = "tool_reference"

    def to_wire(self) -> dict[str, Any]:
        """Return the API form."""
        return {"type": "tool_reference", "tool_name": self.tool_name}


@dataclass(frozen=True, kw_only=True, slots=True)
class ServerToolUseBlock:
    """A tool the API runs itself (its web search): shown and kept, never answered."""

    id: str
    name: str
    input: Mapping[str, Any] = field(default_factory=lambda: dict[str, Any]())
    type: Literal["server_tool_use"] = "server_tool_use"

    def to_wire(self) -> dict[str, Any]:
        """Return the API form."""
        return {
            "type": "server_tool_use",
            "id": self.id,
            "name": self.name,
            "input": dict(self.input),
        }


@dataclass(frozen=True, kw_only=True, slots=True)
class WebSearchResult:
    """One page the API's web search found; ``encrypted_content`` must be sent back as is."""

    url: str
    title: str
    encrypted_content: str = ""
    page_age: str | None = None

    def to_wire(self) -> dict[str, Any]:
        """Return the API form."""
        wire: dict[str, Any] = {
            "type": "web_search_result",
            "url": self.url,
            "title": self.title,
            "encrypted_content": self.encrypted_content,
        }
        if self.page_age is not None:
            wire["page_age"] = self.page_age
        return wire


@dataclass(frozen=True, kw_only=True, slots=True)
class WebSearchToolResultBlock:
    """What the API's web search returned for a ``server_tool_use``: pages, or an error."""

    tool_use_id: str
    results: tuple[WebSearchResult, ...] = ()
    error_code: str | None = None
    """Set (``max_uses_exceeded``, ``too_many_requests``, ``unavailable``...) when it failed."""
    type: Literal["web_search_tool_result"] = "web_search_tool_result"

    def to_wire(self) -> dict[str, Any]:
        """Return the API form."""
        content: Any = (
            {"type": "web_search_tool_result_error", "error_code": self.error_code}
            if self.error_code is not None
            else [r.to_wire() for r in self.results]
        )
        return {
            "type": "web_search_tool_result",
            "tool_use_id": self.tool_use_id,
            "content": content,
        }


ResultPart: TypeAlias = TextBlock | ImageBlock | ToolReferenceBlock
"""What a tool_result may hold besides plain text."""


@dataclass(frozen=True, kw_only=True, slots=True)
class ToolResultBlock:
    """The answer to one ``tool_use``; ``content`` is text or text and image blocks."""

    tool_use_id: str
    content: str | tuple[ResultPart, ...]
    is_error: bool = False
    type: Literal["tool_result"] = "tool_result"

    def to_wire(self) -> dict[str, Any]:
        """Return the API form."""
        content: Any = (
            self.content
            if isinstance(self.content, str)
            else [block.to_wire() for block in self.content]
        )
        return {
            "type": "tool_result",
            "tool_use_id": self.tool_use_id,
            "content": content,
            "is_error": self.is_error,
        }

    @property
    def text(self) -> str:
        """All the text in the result, images left out."""
        if isinstance(self.content, str):
            return self.content
        return "\n".join(b.text for b in self.content if isinstance(b, TextBlock))


ContentBlock: TypeAlias = (
    TextBlock
    | ImageBlock
    | ThinkingBlock
    | ToolUseBlock
    | ToolResultBlock
    | ToolReferenceBlock
    | ServerToolUseBlock
    | WebSearchToolResultBlock
)


build_result_block = builder(ToolResultBlock, "tool_use_id", "content", "is_error", "type")
"""``ToolResultBlock`` from every field, in this order (the pipeline's hot path)."""

build_tool_use_block = builder(ToolUseBlock, "id", "name", "input", "type")
"""``ToolUseBlock`` from every field, in this order (a model stream makes one per call)."""


@dataclass(frozen=True, kw_only=True, slots=True)
class Message:
    """One conversation turn."""

    role: Literal["user", "assistant"]
    content: tuple[ContentBlock, ...]

    def to_wire(self) -> dict[str, Any]:
        """Return the API form."""
        return {"role": self.role, "content": [block.to_wire() for block in self.content]}

    @property
    def tool_uses(self) -> tuple[ToolUseBlock, ...]:
        """The tool_use blocks of this message, in order."""
        return tuple(b for b in self.content if isinstance(b, ToolUseBlock))

    @property
    def text(self) -> str:
        """The message's text blocks joined."""
        return "".join(b.text for b in self.content if isinstance(b, TextBlock))


def user_text(text: str) -> Message:
    """Build a user message holding one text block."""
    return Message(role="user", content=(TextBlock(text=text),))


def block_from_wire(data: Mapping[str, Any]) -> ContentBlock:
    """Read one content block from its API form."""
    kind = data.get("type")
    if kind == "text":
        citations = data.get("citations")
        kept = tuple(_as_sequence(citations)) if citations else ()
        return TextBlock(text=str(data["text"]), citations=kept)
    if kind == "image":
        source = data["source"]
        return ImageBlock(media_type=str(source["media_type"]), data=str(source["data"]))
    if kind == "document":
        source = data["source"]
        media_type = str(source.get("media_type", "application/pdf"))
        return DocumentBlock(
            text=f"[a {media_type} document]", media_type=media_type, data=str(source["data"])
        )
    if kind == "thinking":
        return ThinkingBlock(
            thinking=str(data["thinking"]), signature=str(data.get("signature", ""))
        )
    if kind == "tool_reference":
        return ToolReferenceBlock(tool_name=str(data["tool_name"]))
    if kind == "tool_use":
        return ToolUseBlock(id=str(data["id"]), name=str(data["name"]), input=dict(data["input"]))
    if kind == "server_tool_use":
        return ServerToolUseBlock(
            id=str(data["id"]), name=str(data["name"]), input=dict(data.get("input") or {})
        )
    if kind == "web_search_tool_result":
        return web_search_result_from_wire(data)
    if kind == "tool_result":
        raw = data.get("content", "")
        content: str | tuple[ResultPart, ...]
        if isinstance(raw, str):
            content = raw
        else:
            parts: list[ResultPart] = []
            for item in _as_sequence(raw):
                block = block_from_wire(item)
                if isinstance(block, TextBlock | ImageBlock | ToolReferenceBlock):
                    parts.append(block)
            content = tuple(parts)
        return ToolResultBlock(
            tool_use_id=str(data["tool_use_id"]),
            content=content,
            is_error=bool(data.get("is_error", False)),
        )
    raise ValueError(f"unknown content block type: {kind!r}")


def web_search_result_from_wire(data: Mapping[str, Any]) -> WebSearchToolResultBlock:
    """Read a ``web_search_tool_result`` block: its pages, or its error code."""
    tool_use_id = str(data["tool_use_id"])
    content = data.get("content")
    if isinstance(content, Mapping):
        error = cast(Mapping[str, Any], content)
        code = str(error.get("error_code") or "unavailable")
        return WebSearchToolResultBlock(tool_use_id=tool_use_id, error_code=code)
    results = tuple(
        WebSearchResult(
            url=str(item.get("url") or ""),
            title=str(item.get("title") or ""),
            encrypted_content=str(item.get("encrypted_content") or ""),
            page_age=None if item.get("page_age") is None else str(item["page_age"]),
        )
        for item in _as_sequence(content or [])
        if item.get("type", "web_search_result") == "web_search_result"
    )
    return WebSearchToolResultBlock(tool_use_id=tool_use_id, results=results)


def message_from_wire(data: Mapping[str, Any]) -> Message:
    """Read one message from its API form."""
    role = data["role"]
    if role not in ("user", "assistant"):
        raise ValueError(f"unknown role: {role!r}")
    raw = data["content"]
    if isinstance(raw, str):
        return Message(role=role, content=(TextBlock(text=raw),))
    return Message(role=role, content=tuple(block_from_wire(b) for b in _as_sequence(raw)))


def _as_sequence(value: Any) -> Sequence[Mapping[str, Any]]:
    if not isinstance(value, list | tuple):
        raise ValueError("expected a list of content blocks")
    return value  # type: ignore[return-value]
