"""``OpenAIModel``: Chat Completions, streamed over HTTP.

One request per model turn, sent by :func:`~hands.models.openai_wire.chat_client` (or, for
an ``AsyncOpenAI`` client passed in, or settings only the SDK resolves, by the ``openai``
SDK, which is imported only then).

Works with OpenAI and every server that speaks the same API through ``base_url``: Ollama
(``http://localhost:11434/v1``), vLLM, the llama.cpp server, LM Studio, OpenRouter.

The streamed chunks become the normalized events of :mod:`hands.models.base`. Text is
block 0 when it comes first; every tool call gets its own block index. Each call's
``arguments`` arrive as fragments split anywhere; a call is emitted complete, with its
parsed input, as soon as the next call starts or the stream finishes, so the executor can
start it early. ``reasoning_content`` / ``reasoning`` deltas (DeepSeek, vLLM, OpenRouter)
become thinking. Usage is read from the final chunk when the server sends one
(``stream_options.include_usage``).

Failures before anything was yielded (429, 5xx, a refused connection) are retried with
backoff per :class:`RetryPolicy`; afterwards they raise
:class:`~hands.errors.StreamInterruptedError` or :class:`~hands.errors.MalformedStreamError`.
"""

from __future__ import annotations

import json
import os
from collections.abc import AsyncGenerator, AsyncIterator, Mapping
from contextlib import aclosing
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, cast

from hands.core.messages import TextBlock, ThinkingBlock, ToolUseBlock
from hands.errors import MalformedStreamError, ModelAPIError, StreamInterruptedError
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
from hands.models.convert_openai import messages_to_openai, tools_to_openai
from hands.models.event_stream import (
    ApiConnectionError,
    ApiStatusError,
    InvalidEventError,
    StreamTransport,
)
from hands.models.openai_wire import chat_client, wire_key
from hands.models.retry import (
    RetryBeforeOutput,
    RetryPolicy,
    retry_after_seconds,
    stream_with_retries,
)
from hands.models.sdk_model import SdkModel
from hands.models.sdk_transport import SdkTransport, openai_chat

if TYPE_CHECKING:
    from openai import AsyncOpenAI

DEFAULT_MODEL = "gpt-4.1"

STOP_REASONS = {
    "stop": "end_turn",
    "tool_calls": "tool_use",
    "function_call": "tool_use",
    "length": "max_tokens",
    "content_filter": "refusal",
}
_RETRYABLE_STATUS = frozenset({408, 409, 429})
OPENAI_EFFORT: dict[str, str] = {
    "low": "low",
    "medium": "medium",
    "high": "high",
    "xhigh": "high",
    "max": "high",
}
"""A request's effort as Chat Completions' ``reasoning_effort``, whose top level is high."""


class OpenAIModel(SdkModel):
    """A model behind OpenAI's Chat Completions API or a compatible server."""

    provider = "openai"
    _client: StreamTransport

    def __init__(
        self,
        model: str = DEFAULT_MODEL,
        *,
        api_key: str | None = None,
        base_url: str | None = None,
        retry: RetryPolicy | None = None,
        timeout: float = 600.0,
        max_tokens: int | None = None,
        max_tokens_param: str | None = None,
        include_usage: bool = True,
        default_headers: Mapping[str, str] | None = None,
        client: AsyncOpenAI | None = None,
    ) -> None:
        """Build the provider; ``client``, an SDK client, replaces the HTTP client.

        ``max_tokens_param`` is the request field for the output limit: OpenAI's own API
        wants ``max_completion_tokens``, which is the default without ``base_url``;
        other servers get ``max_tokens``. ``include_usage`` asks for a final usage chunk.
        """
        transport: StreamTransport
        key = wire_key(api_key, base_url, os.environ)
        if client is not None:
            transport = SdkTransport(client, sdk="openai", create=openai_chat)
        elif key is not None:
            transport = chat_client(
                api_key=key, base_url=base_url, timeout=timeout, default_headers=default_headers
            )
        else:  # what only the SDK resolves (or refuses: no key at all)
            from openai import AsyncOpenAI

            sdk_client = AsyncOpenAI(
                api_key=api_key,
                base_url=base_url,
                timeout=timeout,
                max_retries=0,
                default_headers=default_headers,
            )
            transport = SdkTransport(sdk_client, sdk="openai", create=openai_chat)
        super().__init__(model=model, client=transport, retry=retry)
        self.base_url = base_url
        self.max_tokens = max_tokens
        self.max_tokens_param = max_tokens_param or (
            "max_tokens" if base_url else "max_completion_tokens"
        )
        self.include_usage = include_usage

    def request_params(self, request: ModelRequest) -> dict[str, Any]:
        """The keyword arguments of ``chat.completions.create`` for ``request``."""
        if request.server_tools:
            names = ", ".join(str(t.get("type") or t.get("name")) for t in request.server_tools)
            raise ModelAPIError(
                f"Chat Completions has no tools the server runs itself ({names}); "
                "use an Anthropic model for them"
            )
        params: dict[str, Any] = {
            "model": self._model,
            "messages": messages_to_openai(request.system, request.messages),
            "stream": True,
            self.max_tokens_param: self.max_tokens or request.max_tokens,
        }
        if request.tools:
            params["tools"] = tools_to_openai(request.tools)
        if self.include_usage:
            params["stream_options"] = {"include_usage": True}
        if request.effort:
            params["reasoning_effort"] = OPENAI_EFFORT[request.effort]
        if request.extra:
            params["extra_body"] = dict(request.extra)
        return params

    def stream(self, request: ModelRequest) -> AsyncIterator[StreamEvent]:
        """Stream one assistant turn; see the module docstring for failures."""
        params = self.request_params(request)
        return stream_with_retries(lambda: self._attempt(params), self.retry)

    async def _attempt(self, params: dict[str, Any]) -> AsyncGenerator[StreamEvent]:
        assembler = ChunkAssembler()
        emitted = False
        raw_events = self._raw_events(
            params,
            request_failure=lambda exc: _request_failure(exc, self._model, self.base_url),
            stream_failure=lambda exc: _stream_failure(exc, emitted=emitted),
        )
        async with aclosing(raw_events) as stream:
            async for chunk in stream:
                for event in assembler.feed(chunk):
                    emitted = True
                    yield event
        if not assembler.finished:
            message = "the connection closed before the response finished (no finish_reason)"
            if not emitted:
                raise RetryBeforeOutput(message)
            raise StreamInterruptedError(message + "; send the request again", retryable=True)
        for event in assembler.finish():
            if isinstance(event, MessageStop):
                self.total_usage = self.total_usage + event.usage
            yield event


@dataclass(kw_only=True, slots=True)
class _Call:
    index: int
    wire_index: int | None
    id: str
    name: str = ""
    arguments: list[str] = field(default_factory=lambda: list[str]())
    started: bool = False


class ChunkAssembler:
    """Turns Chat Completions chunks (as dicts) into normalized events.

    ``feed`` handles one chunk; ``finish`` closes what is open once the stream has ended
    and returns the final events, ending with ``MessageStop``.
    """

    def __init__(self) -> None:
        self._start: MessageStart | None = None
        self._start_sent = False
        self._next_index = 0
        self._text: tuple[int, list[str]] | None = None
        self._thinking: tuple[int, list[str]] | None = None
        self._call: _Call | None = None
        self._closed_calls: set[int] = set()
        self._calls_seen = 0
        self._finish_reason: str | None = None
        self._usage: Usage | None = None

    @property
    def finished(self) -> bool:
        """Whether a ``finish_reason`` arrived."""
        return self._finish_reason is not None

    def feed(self, chunk: Mapping[str, Any]) -> list[StreamEvent]:
        """Events to emit for one chunk."""
        if self._start is None:
            self._start = MessageStart(
                id=str(chunk.get("id") or ""), model=str(chunk.get("model") or "")
            )
        usage = _map(chunk.get("usage"))
        if usage:
            self._usage = _usage(usage)
        out: list[StreamEvent] = []
        for choice in _list(chunk.get("choices")):
            if choice.get("index", 0) != 0:
                continue
            delta = _map(choice.get("delta"))
            reasoning = delta.get("reasoning_content") or delta.get("reasoning")
            if isinstance(reasoning, str) and reasoning:
                out.extend(self._add_thinking(reasoning))
            for key in ("content", "refusal"):
                text = delta.get(key)
                if isinstance(text, str) and text:
                    out.extend(self._add_text(text))
            for call in _list(delta.get("tool_calls")):
                out.extend(self._add_call(call))
            if choice.get("finish_reason"):
                self._finish_reason = str(choice["finish_reason"])
        return self._with_start(out)

    def finish(self) -> list[StreamEvent]:
        """Close the open blocks and end the message."""
        out = self._close_thinking() + self._close_text() + self._close_call()
        reason = self._finish_reason or "stop"
        stop = STOP_REASONS.get(reason, reason)
        if self._calls_seen and stop == "end_turn":
            stop = "tool_use"  # some servers say "stop" after tool calls
        out.append(MessageStop(stop_reason=stop, usage=self._usage or Usage()))
        return self._with_start(out)

    def _with_start(self, out: list[StreamEvent]) -> list[StreamEvent]:
        if out and not self._start_sent:
            self._start_sent = True
            out.insert(0, self._start or MessageStart())
        return out

    def _allocate(self) -> int:
        index = self._next_index
        self._next_index += 1
        return index

    def _add_thinking(self, piece: str) -> list[StreamEvent]:
        out: list[StreamEvent] = []
        if self._thinking is None:
            out = self._close_text() + self._close_call()
            self._thinking = (self._allocate(), [])
        index, parts = self._thinking
        parts.append(piece)
        out.append(ThinkingDelta(index=index, thinking=piece))
        return out

    def _add_text(self, piece: str) -> list[StreamEvent]:
        out: list[StreamEvent] = []
        if self._text is None:
            out = self._close_thinking() + self._close_call()
            self._text = (self._allocate(), [])
        index, parts = self._text
        parts.append(piece)
        out.append(build_text_delta(index, piece))
        return out

    def _add_call(self, delta: Mapping[str, Any]) -> list[StreamEvent]:
        out: list[StreamEvent] = []
        raw_index = delta.get("index")
        wire_index = raw_index if isinstance(raw_index, int) else None
        call_id = str(delta.get("id") or "")
        current = self._call
        is_new = current is None or (
            (wire_index is not None and wire_index != current.wire_index)
            or (bool(call_id) and call_id != current.id)
        )
        if is_new:
            if wire_index is not None and wire_index in self._closed_calls:
                raise _malformed(f"tool call {wire_index} got more arguments after it ended")
            out = self._close_thinking() + self._close_text() + self._close_call()
            self._calls_seen += 1
            current = _Call(
                index=self._allocate(),
                wire_index=wire_index,
                id=call_id or f"call_{self._calls_seen}",
            )
            self._call = current
        assert current is not None
        function = _map(delta.get("function"))
        name = function.get("name")
        if isinstance(name, str) and name and not current.started:
            current.name += name
        if current.name and not current.started:
            current.started = True
            out.append(build_tool_use_start(current.index, current.id, current.name))
        arguments = function.get("arguments")
        if isinstance(arguments, Mapping):  # a few servers send the object itself
            arguments = json.dumps(arguments)
        if isinstance(arguments, str) and arguments:
            current.arguments.append(arguments)
            if current.started:
                out.append(build_input_json_delta(current.index, arguments))
        return out

    def _close_text(self) -> list[StreamEvent]:
        if self._text is None:
            return []
        index, parts = self._text
        self._text = None
        return [BlockComplete(index=index, block=TextBlock(text="".join(parts)))]

    def _close_thinking(self) -> list[StreamEvent]:
        if self._thinking is None:
            return []
        index, parts = self._thinking
        self._thinking = None
        return [BlockComplete(index=index, block=ThinkingBlock(thinking="".join(parts)))]

    def _close_call(self) -> list[StreamEvent]:
        call = self._call
        if call is None:
            return []
        self._call = None
        if call.wire_index is not None:
            self._closed_calls.add(call.wire_index)
        if not call.name:
            raise _malformed(f"tool call {call.id} has no function name")
        out: list[StreamEvent] = []
        raw = "".join(call.arguments)
        if not call.started:
            out.append(build_tool_use_start(call.index, call.id, call.name))
            if raw:
                out.append(build_input_json_delta(call.index, raw))
        try:
            parsed: Any = json.loads(raw) if raw.strip() else {}
        except json.JSONDecodeError:
            if self._finish_reason == "length":
                raise _malformed(
                    f"the model reached its output limit in the middle of the input of tool "
                    f"{call.name!r}; raise max_tokens or ask for smaller steps",
                    retryable=False,
                ) from None
            raise _malformed(
                f"the input of tool {call.name!r} is not valid JSON: {raw[:200]!r}"
            ) from None
        if not isinstance(parsed, dict):
            raise _malformed(f"the input of tool {call.name!r} is JSON but not an object")
        tool = ToolUseBlock(id=call.id, name=call.name, input=cast(dict[str, Any], parsed))
        out.append(BlockComplete(index=call.index, block=tool))
        return out


def _usage(usage: Mapping[str, Any]) -> Usage:
    prompt = _int(usage.get("prompt_tokens"))
    cached = _int(_map(usage.get("prompt_tokens_details")).get("cached_tokens"))
    return Usage(
        input_tokens=max(prompt - cached, 0),
        output_tokens=_int(usage.get("completion_tokens")),
        cache_read_input_tokens=cached,
    )


def _int(value: object) -> int:
    return value if isinstance(value, int) and not isinstance(value, bool) else 0


def _map(value: object) -> Mapping[str, Any]:
    return cast(Mapping[str, Any], value) if isinstance(value, Mapping) else {}


def _list(value: object) -> list[Mapping[str, Any]]:
    if not isinstance(value, list):
        return []
    return [cast(Mapping[str, Any], v) for v in cast(list[object], value) if isinstance(v, Mapping)]


def _malformed(message: str, *, retryable: bool = True) -> MalformedStreamError:
    return MalformedStreamError(f"malformed model stream: {message}", retryable=retryable)


# -- errors ---------------------------------------------------------------------------


def _error_message(exc: Exception) -> tuple[str, str]:
    body = _map(getattr(exc, "body", None))
    error = _map(body.get("error")) or body
    code = str(error.get("code") or error.get("type") or "")
    return code, str(error.get("message") or getattr(exc, "message", "") or exc)


def _request_failure(exc: Exception, model: str, base_url: str | None) -> Exception:
    where = base_url or "the OpenAI API"
    if isinstance(exc, ApiStatusError):
        status = exc.status
        code, message = _error_message(exc)
        if code == "insufficient_quota":
            return ModelAPIError(
                f"{where} answered 429 insufficient_quota: {message}; add credit to the "
                "account or use another key",
                status=status,
            )
        if status in _RETRYABLE_STATUS or status >= 500:
            return RetryBeforeOutput(
                f"{where} answered {status}: {message}",
                status=status,
                retry_after=retry_after_seconds(exc.headers),
            )
        hint = {
            401: "check OPENAI_API_KEY",
            403: "the key is not allowed to use this model; check its permissions",
            404: f"check the model name {model!r} (for Ollama: `ollama pull {model}`) and "
            "OPENAI_BASE_URL, which usually ends in /v1",
        }.get(status, "fix the request as the message says")
        return ModelAPIError(
            f"{where} refused the request ({status}): {message}; {hint}", status=status
        )
    if isinstance(exc, ApiConnectionError):
        return RetryBeforeOutput(f"cannot reach {where}: {exc}; is the server running?")
    return ModelAPIError(f"the request to {where} failed: {type(exc).__name__}: {exc}")


def _stream_failure(exc: Exception, *, emitted: bool) -> Exception:
    invalid = isinstance(exc, (json.JSONDecodeError, InvalidEventError))
    if isinstance(exc, ApiStatusError):  # an ``error`` object inside the stream
        _, message = _error_message(exc)
        what = f"the stream reported an error: {message}"
    elif invalid:
        what = f"a chunk is not valid JSON ({exc})"
    else:
        what = f"the connection failed mid-stream ({type(exc).__name__}: {exc})"
    if not emitted:
        return RetryBeforeOutput(what)
    if invalid:
        return _malformed(what)
    return StreamInterruptedError(what + "; send the request again", retryable=True)
