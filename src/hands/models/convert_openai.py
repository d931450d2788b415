"""Canonical (Anthropic-shaped) blocks ↔ OpenAI Chat Completions messages.

To OpenAI:

- the system prompt is the first ``system`` message;
- an assistant message's text becomes ``content`` and its tool_use blocks ``tool_calls``
  (several for parallel calls); thinking blocks are left out;
- each tool_result becomes a ``tool`` message answering its call, in order, right after
  the assistant message; images in a result (``tool`` messages hold text only) follow in
  a ``user`` message that says which call they belong to; the user's own text and images
  follow as a ``user`` message;
- images are ``image_url`` parts with a ``data:`` URL; a text-only user message is a
  plain string, which every OpenAI-compatible server accepts.

From OpenAI, :func:`messages_from_openai` reads such a list back (``tool`` messages
gather into one user message of tool_result blocks).
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, cast

from hands.core.messages import (
    ContentBlock,
    ImageBlock,
    Message,
    TextBlock,
    ToolResultBlock,
    ToolUseBlock,
)
from hands.core.tool import ToolSpec

ERROR_PREFIX = "Error: "


def tools_to_openai(tools: Iterable[ToolSpec]) -> list[dict[str, Any]]:
    """Tool definitions as OpenAI ``function`` tools, sorted by name."""
    return [
        {
            "type": "function",
            "function": {
                "name": spec.name,
                "description": spec.description,
                "parameters": dict(spec.input_schema),
            },
        }
        for spec in sorted(tools, key=lambda spec: spec.name)
    ]


def messages_to_openai(system: str, messages: Sequence[Message]) -> list[dict[str, Any]]:
    """The whole conversation as Chat Completions messages."""
    out: list[dict[str, Any]] = []
    if system:
        out.append({"role": "system", "content": system})
    for message in messages:
        if message.role == "assistant":
            out.append(_assistant(message.content))
        else:
            out.extend(_user(message.content))
    return out


def _assistant(blocks: Sequence[ContentBlock]) -> dict[str, Any]:
    text = "".join(b.text for b in blocks if isinstance(b, TextBlock))
    calls = [
        {
            "id": b.id,
            "type": "function",
            "function": {"name": b.name, "arguments": json.dumps(dict(b.input))},
        }
        for b in blocks
        if isinstance(b, ToolUseBlock)
    ]
    wire: dict[str, Any] = {"role": "assistant", "content": text or (None if calls else "")}
    if calls:
        wire["tool_calls"] = calls
    return wire


def _user(blocks: Sequence[ContentBlock]) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    result_images: list[dict[str, Any]] = []
    parts: list[TextBlock | ImageBlock] = []
    for block in blocks:
        if isinstance(block, ToolResultBlock):
            text = block.text
            images = (
                []
                if isinstance(block.content, str)
                else [b for b in block.content if isinstance(b, ImageBlock)]
            )
            if images:
                note = f"[{len(images)} image(s) from this result follow in the next message]"
                text = f"{text}\n{note}" if text else note
                result_images.append(
                    {"type": "text", "text": f"Images returned by tool call {block.tool_use_id}:"}
                )
                result_images.extend(_image_part(image) for image in images)
            if block.is_error and not text.startswith(ERROR_PREFIX):
                text = ERROR_PREFIX + text
            out.append({"role": "tool", "tool_call_id": block.tool_use_id, "content": text})
        elif isinstance(block, TextBlock | ImageBlock):
            parts.append(block)
    if result_images or any(isinstance(p, ImageBlock) for p in parts):
        out.append({"role": "user", "content": result_images + [_part(p) for p in parts]})
    elif parts:
        text = "\n\n".join(p.text for p in parts if isinstance(p, TextBlock))
        out.append({"role": "user", "content": text})
    return out


def _part(block: TextBlock | ImageBlock) -> dict[str, Any]:
    if isinstance(block, TextBlock):
        return {"type": "text", "text": block.text}
    return _image_part(block)


def _image_part(block: ImageBlock) -> dict[str, Any]:
    return {
        "type": "image_url",
        "image_url": {"url": f"data:{block.media_type};base64,{block.data}"},
    }


# -- back to canonical ----------------------------------------------------------------


def messages_from_openai(wire: Sequence[Mapping[str, Any]]) -> tuple[str, list[Message]]:
    """Read Chat Completions messages back: the system prompt and the conversation.

    Raises ValueError for a role or content part it does not know.
    """
    system: list[str] = []
    messages: list[Message] = []
    results: list[ContentBlock] = []

    def flush_results() -> None:
        if results:
            messages.append(Message(role="user", content=tuple(results)))
            results.clear()

    for item in wire:
        role = item.get("role")
        if role in ("system", "developer"):
            system.append(_plain_text(item.get("content")))
        elif role == "tool":
            text = _plain_text(item.get("content"))
            is_error = text.startswith(ERROR_PREFIX)
            results.append(
                ToolResultBlock(
                    tool_use_id=str(item.get("tool_call_id") or ""),
                    content=text[len(ERROR_PREFIX) :] if is_error else text,
                    is_error=is_error,
                )
            )
        elif role == "user":
            content = _parts_from_openai(item.get("content"))
            if results:
                results.extend(content)
                flush_results()
            else:
                messages.append(Message(role="user", content=tuple(content)))
        elif role == "assistant":
            flush_results()
            messages.append(_assistant_from_openai(item))
        else:
            raise ValueError(f"unknown OpenAI message role: {role!r}")
    flush_results()
    return "\n\n".join(system), messages


def _assistant_from_openai(item: Mapping[str, Any]) -> Message:
    blocks: list[ContentBlock] = []
    text = _plain_text(item.get("content"))
    if text:
        blocks.append(TextBlock(text=text))
    for call in _list(item.get("tool_calls")):
        function = _map(call.get("function"))
        arguments = function.get("arguments") or "{}"
        parsed: Any = json.loads(arguments) if isinstance(arguments, str) else arguments
        blocks.append(
            ToolUseBlock(
                id=str(call.get("id") or ""),
                name=str(function.get("name") or ""),
                input=cast(dict[str, Any], parsed) if isinstance(parsed, dict) else {},
            )
        )
    return Message(role="assistant", content=tuple(blocks))


def _parts_from_openai(content: object) -> list[ContentBlock]:
    if isinstance(content, str):
        return [TextBlock(text=content)]
    blocks: list[ContentBlock] = []
    for part in _list(content):
        kind = part.get("type")
        if kind == "text":
            blocks.append(TextBlock(text=str(part.get("text") or "")))
        elif kind == "image_url":
            url = str(_map(part.get("image_url")).get("url") or "")
            head, _, data = url.partition(",")
            if not head.startswith("data:") or not head.endswith(";base64"):
                raise ValueError("only base64 data: image URLs can be read back")
            blocks.append(ImageBlock(media_type=head[5:-7], data=data))
        else:
            raise ValueError(f"unknown OpenAI content part type: {kind!r}")
    return blocks


def _plain_text(content: object) -> str:
    if content is None:
        return ""
    if isinstance(content, str):
        return content
    return "".join(str(p.get("text") or "") for p in _list(content) if p.get("type") == "text")


def _list(value: object) -> list[Mapping[str, Any]]:
    if not isinstance(value, list):
        return []
    return [cast(Mapping[str, Any], v) for v in cast(list[object], value) if isinstance(v, Mapping)]


def _map(value: object) -> Mapping[str, Any]:
    return cast(Mapping[str, Any], value) if isinstance(value, Mapping) else {}
