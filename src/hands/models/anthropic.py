"""``AnthropicModel``: the Messages API, streamed over HTTP.

One HTTP request per model turn, sent by :func:`~hands.models.anthropic_wire.messages_client`
(or, for an ``AsyncAnthropic`` client passed in, or credentials only the SDK can find, by
the ``anthropic`` SDK, which is imported only then). The raw stream (``message_start``,
``content_block_start/delta/stop``, ``message_delta``, ``message_stop``) becomes the
normalized events of :mod:`hands.models.base`; a tool_use block is emitted complete, with
its parsed input, at its ``content_block_stop`` so the executor can start it while the
rest of the message is still streaming.

Prompt-cache breakpoints (``cache_control``) go on the system prompt, on the last tool of
the name-sorted tool list and on the last block of the conversation, so every request
after the first reads the stable prefix from the cache.

Failures before any event was yielded (429, 529, 5xx, a dropped connection, an
``overloaded_error`` event) are retried with backoff per :class:`RetryPolicy`. After the
first event, a failure raises :class:`~hands.errors.StreamInterruptedError` (or its
subclass :class:`~hands.errors.MalformedStreamError`); a partial tool_use block is never
emitted as complete.
"""

from __future__ import annotations

import json
import os
from collections.abc import AsyncGenerator, AsyncIterator, Mapping, Sequence
from contextlib import aclosing
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal, cast

from hands.core.messages import (
    ContentBlock,
    Message,
    ServerToolUseBlock,
    TextBlock,
    ThinkingBlock,
    ToolUseBlock,
    web_search_result_from_wire,
)
from hands.core.tool import ToolSpec
from hands.errors import MalformedStreamError, ModelAPIError, StreamInterruptedError
from hands.models.aliases import ONE_MILLION, ONE_MILLION_BETA
from hands.models.anthropic_wire import messages_client, static_credential
from hands.models.base import (
    BlockComplete,
    MessageStart,
    MessageStop,
    ModelRequest,
    StreamEvent,
    ThinkingDelta,
    Usage,
    build_input_json_delta,
    build_text_delta,
    build_tool_use_start,
)
from hands.models.event_stream import (
    ApiConnectionError,
    ApiStatusError,
    InvalidEventError,
    StreamTransport,
    drain,
)
from hands.models.retry import (
    RetryBeforeOutput,
    RetryPolicy,
    retry_after_seconds,
    stream_with_retries,
)
from hands.models.sdk_model import SdkModel
from hands.models.sdk_transport import SdkTransport, anthropic_messages

if TYPE_CHECKING:
    from anthropic import AsyncAnthropic

DEFAULT_MODEL = "claude-sonnet-4-6"
EPHEMERAL: dict[str, str] = {"type": "ephemeral"}
_RETRYABLE_ERROR_TYPES = frozenset({"overloaded_error", "rate_limit_error", "api_error"})
_RETRYABLE_STATUS = frozenset({408, 409, 429, 529})
EFFORT_BETA = "effort-2025-11-24"
"""The beta a request that sets ``output_config.effort`` names, as Claude Code's do."""


def _betas(headers: Mapping[str, str]) -> list[str]:
    """The betas an ``anthropic-beta`` header of ``headers`` lists."""
    value = next((v for k, v in headers.items() if k.lower() == "anthropic-beta"), "")
    return [b.strip() for b in value.split(",") if b.strip()]


def _with_beta(headers: Mapping[str, str] | None, beta: str) -> dict[str, str]:
    """``headers`` with ``beta`` added to their ``anthropic-beta`` list."""
    out = dict(headers or {})
    key = next((k for k in out if k.lower() == "anthropic-beta"), "anthropic-beta")
    listed = [b.strip() for b in out.get(key, "").split(",") if b.strip()]
    out[key] = ",".join([*listed, beta] if beta not in listed else listed)
    return out


class AnthropicModel(SdkModel):
    """A Claude model behind the Anthropic Messages API (or a compatible endpoint)."""

    provider = "anthropic"
    _client: StreamTransport

    def __init__(
        self,
        model: str = DEFAULT_MODEL,
        *,
        api_key: str | None = None,
        auth_token: str | None = None,
        base_url: str | None = None,
        retry: RetryPolicy | None = None,
        timeout: float = 600.0,
        max_tokens: int | None = None,
        thinking: int | Literal["adaptive"] | None = None,
        prompt_cache: bool = True,
        default_headers: Mapping[str, str] | None = None,
        server_tools: Sequence[Mapping[str, Any]] = (),
        client: AsyncAnthropic | None = None,
    ) -> None:
        """Build the provider; ``client``, an SDK client, replaces the HTTP client.

        The HTTP client takes an explicit credential, else ``ANTHROPIC_API_KEY`` or
        ``ANTHROPIC_AUTH_TOKEN``; without any, the SDK's own credential discovery is used.

        ``max_tokens`` overrides the request's; ``thinking`` turns on extended thinking,
        with a budget of that many tokens or ``"adaptive"`` (the model decides);
        ``prompt_cache`` places cache breakpoints; ``server_tools`` (e.g.
        ``{"type": "web_search_20250305", "name": "web_search", "max_uses": 5}``) are sent
        with every request, beside the request's own.
        """
        if model.endswith(ONE_MILLION):  # sonnet[1m]: the same model, a larger window
            default_headers = _with_beta(default_headers, ONE_MILLION_BETA)
        from hands.models.anthropic_wire import custom_headers

        self._base_betas = tuple(_betas({**custom_headers(os.environ), **(default_headers or {})}))
        transport: StreamTransport
        if client is not None:
            transport = SdkTransport(client, sdk="anthropic", create=anthropic_messages)
        elif any(static_credential(api_key, auth_token, os.environ)):
            transport = messages_client(
                api_key=api_key,
                auth_token=auth_token,
                base_url=base_url,
                timeout=timeout,
                default_headers=default_headers,
            )
        else:  # credentials only the SDK finds (its profiles, workload identity)
            from anthropic import AsyncAnthropic

            sdk_client = AsyncAnthropic(
                base_url=base_url, timeout=timeout, max_retries=0, default_headers=default_headers
            )
            transport = SdkTransport(sdk_client, sdk="anthropic", create=anthropic_messages)
        super().__init__(model=model, client=transport, retry=retry)
        self.max_tokens = max_tokens
        self.thinking: int | Literal["adaptive"] | None = thinking
        self.prompt_cache = prompt_cache
        self.server_tools = tuple(dict(t) for t in server_tools)

    @property
    def total_cost_usd(self) -> float | None:
        """Estimated cost of :attr:`total_usage`; None for a model of unknown price."""
        return self.facts.cost(self.total_usage)

    def request_params(self, request: ModelRequest) -> dict[str, Any]:
        """The keyword arguments of ``messages.create`` for ``request``.

        The request's ``extra`` goes into the body; its ``output_config`` and ``thinking``
        objects join the request's own (``thinking`` only when thinking is on).
        """
        max_tokens = self.max_tokens or request.max_tokens
        params: dict[str, Any] = {
            "model": self._model.removesuffix(ONE_MILLION),
            "max_tokens": max_tokens,
            "messages": messages_to_wire(request.messages, cache=self.prompt_cache),
            "stream": True,
        }
        if request.system:
            block: dict[str, Any] = {"type": "text", "text": request.system}
            if self.prompt_cache:
                block["cache_control"] = dict(EPHEMERAL)
            params["system"] = [block]
        tools = tools_to_wire(request.tools, cache=self.prompt_cache) if request.tools else []
        tools += [dict(t) for t in (*self.server_tools, *request.server_tools)]
        if tools:
            params["tools"] = tools
        if self.thinking == "adaptive":
            params["thinking"] = {"type": "adaptive"}
        elif isinstance(self.thinking, int):
            params["thinking"] = {"type": "enabled", "budget_tokens": self.thinking}
            params["max_tokens"] = max(max_tokens, self.thinking + 1024)
        if request.effort:
            params["output_config"] = {"effort": request.effort}
        extra: dict[str, Any] = {}
        for key, value in request.extra.items():  # an object joins the params' own
            if isinstance(value, Mapping) and key in ("output_config", "thinking"):
                if key in params or key == "output_config":
                    params[key] = {**params.get(key, {}), **cast(Mapping[str, Any], value)}
                continue
            extra[key] = value
        if extra:
            params["extra_body"] = extra
        asked = (
            *request.betas,
            *((EFFORT_BETA,) if params.get("output_config", {}).get("effort") else ()),
        )
        if asked:  # the request's own betas join those every request sends
            betas = ",".join(dict.fromkeys((*self._base_betas, *asked)))
            params["extra_headers"] = {"anthropic-beta": betas}
        return params

    def stream(self, request: ModelRequest) -> AsyncIterator[StreamEvent]:
        """Stream one assistant turn; see the module docstring for failures."""
        params = self.request_params(request)
        return stream_with_retries(lambda: self._attempt(params), self.retry)

    async def _attempt(self, params: dict[str, Any]) -> AsyncGenerator[StreamEvent]:
        assembler = StreamAssembler()
        emitted = False
        raw_events = self._raw_events(
            params,
            request_failure=lambda exc: _request_failure(exc, self._model),
            stream_failure=lambda exc: _stream_failure(exc, emitted=emitted),
        )
        async with aclosing(raw_events) as stream:
            async for raw in stream:
                for event in assembler.feed(raw):
                    emitted = True
                    if isinstance(event, MessageStop):
                        self.total_usage = self.total_usage + event.usage
                    yield event
                if assembler.done:
                    await drain(stream)
                    break
        if not assembler.done:
            assembler.raise_pending()
            message = "the connection closed before the message finished (no message_stop)"
            if not emitted:
                raise RetryBeforeOutput(message)
            raise StreamInterruptedError(message + "; send the request again", retryable=True)


# -- request building ---------------------------------------------------------------


def tools_to_wire(tools: Sequence[ToolSpec], *, cache: bool = True) -> list[dict[str, Any]]:
    """Tool definitions in the pool's order; the last loaded one carries the breakpoint.

    The pool sends a stable order (sorted, then found or deferred tools), so nothing is
    re-sorted here. Deferred tools (``defer_loading``) sit after the cached prefix and
    may not carry a breakpoint themselves.
    """
    wire = [spec.to_wire() for spec in tools]
    if cache:
        loaded = [w for w in wire if not w.get("defer_loading")]
        if loaded:
            loaded[-1]["cache_control"] = dict(EPHEMERAL)
    return wire


def messages_to_wire(messages: Sequence[Message], *, cache: bool = True) -> list[dict[str, Any]]:
    """The conversation in the API's shape, with a cache breakpoint on its last block.

    Blocks the API refuses are left out: empty text, and thinking without a signature
    (from another provider or a script). A message left empty is dropped; the API joins
    consecutive messages of one role.
    """
    wire: list[dict[str, Any]] = []
    for message in messages:
        blocks = [block.to_wire() for block in message.content if _sendable(block)]
        if blocks:
            wire.append({"role": message.role, "content": blocks})
    if cache and wire:
        for block in reversed(wire[-1]["content"]):
            if block["type"] in ("text", "image", "tool_use", "tool_result"):
                block["cache_control"] = dict(EPHEMERAL)
                break
    return wire


def _sendable(block: ContentBlock) -> bool:
    if isinstance(block, TextBlock):
        return bool(block.text)
    if isinstance(block, ThinkingBlock):
        return bool(block.signature)
    return True


# -- the stream -----------------------------------------------------------------------


@dataclass(kw_only=True, slots=True)
class _Open:
    kind: str
    parts: list[str] = field(default_factory=lambda: list[str]())
    id: str = ""
    name: str = ""
    signature: str = ""
    citations: list[Mapping[str, Any]] = field(default_factory=lambda: list[Mapping[str, Any]]())
    complete: ContentBlock | None = None
    """A block that arrives whole in its start event (a server tool's result)."""


class StreamAssembler:
    """Turns the API's raw stream events (as dicts) into normalized events.

    ``feed`` returns the events to emit for one raw event and raises
    :class:`MalformedStreamError` for anything unusable. ``MessageStart`` is held back
    until the first content arrives, so a turn that fails before producing anything can
    be retried without the consumer noticing.
    """

    def __init__(self) -> None:
        self._start: MessageStart | None = None
        self._start_sent = False
        self._open: dict[int, _Open] = {}
        self._usage: dict[str, int] = {}
        self._stop_reason: str | None = None
        self._bad_tool: tuple[str, str] | None = None
        self.done = False

    def feed(self, data: Mapping[str, Any]) -> list[StreamEvent]:
        """Events to emit for one raw stream event."""
        kind = data.get("type")
        if self._bad_tool is not None and kind != "ping":
            self._fail_bad_tool(data)
        out: list[StreamEvent] = []
        if kind == "message_start":
            message = _mapping(data.get("message"))
            self._start = MessageStart(
                id=str(message.get("id") or ""), model=str(message.get("model") or "")
            )
            self._merge_usage(message.get("usage"))
        elif kind == "content_block_start":
            out = self._block_start(data)
        elif kind == "content_block_delta":
            out = self._block_delta(data)
        elif kind == "content_block_stop":
            out = self._block_stop(_index(data))
        elif kind == "message_delta":
            delta = _mapping(data.get("delta"))
            if delta.get("stop_reason"):
                self._stop_reason = str(delta["stop_reason"])
            self._merge_usage(data.get("usage"))
            self._check_truncated_tool()
        elif kind == "message_stop":
            out = self._message_stop()
        # ping and event types added to the API later carry nothing for us
        if out and not self._start_sent:
            self._start_sent = True
            out.insert(0, self._start or MessageStart())
        return out

    def _block_start(self, data: Mapping[str, Any]) -> list[StreamEvent]:
        index = _index(data)
        if index in self._open:
            raise _malformed(f"content block {index} was started twice", retryable=True)
        block = _mapping(data.get("content_block"))
        kind = str(block.get("type"))
        if kind == "text":
            self._open[index] = _Open(kind=kind)
            self._open[index].citations.extend(_mappings(block.get("citations")))
            text = str(block.get("text") or "")
            if text:
                self._open[index].parts.append(text)
                return [build_text_delta(index, text)]
            return []
        if kind == "thinking":
            self._open[index] = _Open(kind=kind, signature=str(block.get("signature") or ""))
            thinking = str(block.get("thinking") or "")
            if thinking:
                self._open[index].parts.append(thinking)
                return [ThinkingDelta(index=index, thinking=thinking)]
            return []
        if kind == "tool_use":
            tool_id, name = str(block.get("id") or ""), str(block.get("name") or "")
            if not tool_id or not name:
                raise _malformed(f"tool_use block {index} has no id or name", retryable=True)
            self._open[index] = _Open(kind=kind, id=tool_id, name=name)
            initial = block.get("input")
            if isinstance(initial, Mapping) and initial:
                self._open[index].parts.append(json.dumps(initial))
            return [build_tool_use_start(index, tool_id, name)]
        if kind in ("server_tool_use", "web_search_tool_result"):
            self._open[index] = _server_block(index, kind, block)
            return []
        raise _malformed(
            f"the model sent a content block of unknown type {kind!r}; hands handles text, "
            "thinking, tool_use and web search blocks, so turn off the API feature that "
            "produces it (e.g. other server tools, redacted thinking) or use another model",
            retryable=False,
        )

    def _block_delta(self, data: Mapping[str, Any]) -> list[StreamEvent]:
        index = _index(data)
        block = self._open.get(index)
        if block is None:
            raise _malformed(f"a delta arrived for content block {index}, which is not open")
        delta = _mapping(data.get("delta"))
        kind = delta.get("type")
        if kind == "text_delta" and block.kind == "text":
            text = str(delta.get("text") or "")
            block.parts.append(text)
            return [build_text_delta(index, text)] if text else []
        if kind == "thinking_delta" and block.kind == "thinking":
            thinking = str(delta.get("thinking") or "")
            block.parts.append(thinking)
            return [ThinkingDelta(index=index, thinking=thinking)] if thinking else []
        if kind == "signature_delta" and block.kind == "thinking":
            block.signature += str(delta.get("signature") or "")
            return []
        if kind == "input_json_delta" and block.kind == "tool_use":
            fragment = str(delta.get("partial_json") or "")
            block.parts.append(fragment)
            return [build_input_json_delta(index, fragment)] if fragment else []
        if kind == "input_json_delta" and block.kind == "server_tool_use":
            block.parts.append(str(delta.get("partial_json") or ""))
            return []
        if kind == "citations_delta" and block.kind == "text":
            citation = delta.get("citation")
            if isinstance(citation, Mapping):
                block.citations.append(cast(Mapping[str, Any], citation))
            return []
        raise _malformed(
            f"a {kind!r} delta arrived for content block {index} of type {block.kind!r}",
            retryable=kind in ("text_delta", "thinking_delta", "input_json_delta"),
        )

    def _block_stop(self, index: int) -> list[StreamEvent]:
        block = self._open.pop(index, None)
        if block is None:
            raise _malformed(f"content block {index} was stopped but never started")
        if block.kind == "tool_use":
            raw = "".join(block.parts)
            try:
                parsed: Any = json.loads(raw) if raw.strip() else {}
            except json.JSONDecodeError:
                # Hold the error until message_delta says whether max_tokens cut it off.
                self._bad_tool = (block.name, raw)
                return []
            if not isinstance(parsed, dict):
                raise _malformed(
                    f"the input of tool {block.name!r} is JSON but not an object: {raw[:200]}"
                )
            tool = ToolUseBlock(id=block.id, name=block.name, input=cast(dict[str, Any], parsed))
            return [BlockComplete(index=index, block=tool)]
        if block.kind == "server_tool_use":
            return [BlockComplete(index=index, block=_server_tool_use(block))]
        return [BlockComplete(index=index, block=_finish_plain(block))]

    def _message_stop(self) -> list[StreamEvent]:
        self._check_truncated_tool()
        out: list[StreamEvent] = []
        for index in sorted(self._open):
            block = self._open[index]
            if block.kind in ("tool_use", "server_tool_use"):
                raise _malformed(
                    f"the message ended while the input of tool {block.name!r} was still open"
                )
            out.append(BlockComplete(index=index, block=_finish_plain(block)))
        self._open.clear()
        self.done = True
        usage = Usage(
            input_tokens=self._usage.get("input_tokens", 0),
            output_tokens=self._usage.get("output_tokens", 0),
            cache_creation_input_tokens=self._usage.get("cache_creation_input_tokens", 0),
            cache_read_input_tokens=self._usage.get("cache_read_input_tokens", 0),
        )
        out.append(MessageStop(stop_reason=self._stop_reason or "end_turn", usage=usage))
        return out

    def _check_truncated_tool(self) -> None:
        if self._stop_reason != "max_tokens":
            return
        names = [b.name for b in self._open.values() if b.kind == "tool_use"]
        if self._bad_tool is not None:
            names.append(self._bad_tool[0])
        if names:
            raise _malformed(
                f"the model reached max_tokens in the middle of the input of tool {names[0]!r}"
                "; raise max_tokens or ask for smaller steps (e.g. write a large file in parts)",
                retryable=False,
            )

    def raise_pending(self) -> None:
        """At the end of an unfinished stream: raise the error held back, if any."""
        if self._bad_tool is not None:
            self._fail_bad_tool({})

    def _fail_bad_tool(self, data: Mapping[str, Any]) -> None:
        assert self._bad_tool is not None
        if data.get("type") == "message_delta":
            delta = _mapping(data.get("delta"))
            if delta.get("stop_reason"):
                self._stop_reason = str(delta["stop_reason"])
            self._check_truncated_tool()
        name, raw = self._bad_tool
        raise _malformed(
            f"the input of tool {name!r} is not valid JSON: {raw[:200]!r}", retryable=True
        )

    def _merge_usage(self, usage: object) -> None:
        for key, value in _mapping(usage).items():
            if isinstance(value, int) and not isinstance(value, bool):
                self._usage[key] = value


def _finish_plain(block: _Open) -> ContentBlock:
    if block.complete is not None:
        return block.complete
    if block.kind == "thinking":
        return ThinkingBlock(thinking="".join(block.parts), signature=block.signature)
    return TextBlock(text="".join(block.parts), citations=tuple(block.citations))


def _server_block(index: int, kind: str, block: Mapping[str, Any]) -> _Open:
    """Open a block of the API's own web search: its call (input streams) or its result."""
    if kind == "web_search_tool_result":
        try:
            result = web_search_result_from_wire(block)
        except (KeyError, ValueError, AttributeError) as exc:
            raise _malformed(f"web_search_tool_result block {index} is unreadable: {exc}") from None
        return _Open(kind=kind, complete=result)
    tool_id, name = str(block.get("id") or ""), str(block.get("name") or "")
    if not tool_id or not name:
        raise _malformed(f"server_tool_use block {index} has no id or name")
    opened = _Open(kind=kind, id=tool_id, name=name)
    initial = block.get("input")
    if isinstance(initial, Mapping) and initial:
        opened.parts.append(json.dumps(initial))
    return opened


def _server_tool_use(block: _Open) -> ServerToolUseBlock:
    raw = "".join(block.parts)
    try:
        parsed: Any = json.loads(raw) if raw.strip() else {}
    except json.JSONDecodeError:
        raise _malformed(f"the input of server tool {block.name!r} is not valid JSON") from None
    if not isinstance(parsed, dict):
        raise _malformed(f"the input of server tool {block.name!r} is not a JSON object")
    return ServerToolUseBlock(id=block.id, name=block.name, input=cast(dict[str, Any], parsed))


def _mappings(value: object) -> list[Mapping[str, Any]]:
    items = cast(list[object], value) if isinstance(value, list) else []
    return [cast(Mapping[str, Any], item) for item in items if isinstance(item, Mapping)]


def _mapping(value: object) -> Mapping[str, Any]:
    return cast(Mapping[str, Any], value) if isinstance(value, Mapping) else {}


def _index(data: Mapping[str, Any]) -> int:
    index = data.get("index")
    if not isinstance(index, int) or isinstance(index, bool):
        raise _malformed(f"a {data.get('type')} event has no block index")
    return index


def _malformed(message: str, *, retryable: bool = True) -> MalformedStreamError:
    return MalformedStreamError(f"malformed model stream: {message}", retryable=retryable)


# -- errors ---------------------------------------------------------------------------


def _should_retry(exc: ApiStatusError) -> bool:
    """The server's ``x-should-retry`` when it says, else the status and error type."""
    said = exc.headers.get("x-should-retry")
    if said in ("true", "false"):
        return said == "true"
    status = exc.status
    return status in _RETRYABLE_STATUS or status >= 500 or exc.kind in _RETRYABLE_ERROR_TYPES


def _request_failure(exc: Exception, model: str) -> Exception:
    """Map an exception from sending the request: retry it, or explain it."""
    if isinstance(exc, ApiStatusError):
        status, kind, message = exc.status, exc.kind, exc.api_message
        if _should_retry(exc):
            return RetryBeforeOutput(
                f"the Anthropic API answered {status} {kind or 'error'}: {message}",
                status=status,
                retry_after=retry_after_seconds(exc.headers),
            )
        hint = {
            401: "check ANTHROPIC_API_KEY (or ANTHROPIC_AUTH_TOKEN)",
            403: "the key is not allowed to use this model or feature; check its permissions",
            404: f"check the model name {model!r} (and ANTHROPIC_BASE_URL if set)",
            413: "the request is too large; shorten the conversation or the tool results",
        }.get(status, "fix the request as the message says")
        return ModelAPIError(
            f"the Anthropic API refused the request ({status} {kind or 'error'}): {message}; "
            f"{hint}",
            status=status,
        )
    if isinstance(exc, ApiConnectionError):
        return RetryBeforeOutput(f"cannot reach the Anthropic API: {exc}")
    return ModelAPIError(f"the Anthropic request failed: {type(exc).__name__}: {exc}")


def _stream_failure(exc: Exception, *, emitted: bool) -> Exception:
    """Map an exception raised while reading the stream."""
    retryable = True
    invalid = isinstance(exc, (json.JSONDecodeError, InvalidEventError))
    if isinstance(exc, ApiStatusError):  # an ``error`` event inside the stream
        retryable = exc.kind in _RETRYABLE_ERROR_TYPES
        what = f"the stream reported {exc.kind or 'an error'}: {exc.api_message}"
    elif invalid:
        what = f"an event's data is not valid JSON ({exc})"
    else:
        what = f"the connection failed mid-stream ({type(exc).__name__}: {exc})"
    if not emitted:
        return RetryBeforeOutput(what) if retryable else ModelAPIError(what)
    if invalid:
        return _malformed(what, retryable=True)
    advice = "; send the request again" if retryable else ""
    return StreamInterruptedError(what + advice, retryable=retryable)
