"""Exceptions raised to developers embedding hands.

Errors meant for the *model* never escape as exceptions: the pipeline turns them into
``is_error`` tool results. These types are for code that calls hands::

    HandsError
    ├── ToolError            raised by a tool; its message becomes the is_error result text
    ├── ToolDefinitionError  a tool or @tool function cannot be built (bad signature, name)
    ├── ConfigError          a settings, script or config file is unusable
    └── ModelError           a model stream failed or was malformed
        ├── ScriptExhaustedError   a ScriptedModel was asked for more turns than it holds
        ├── ModelAPIError          the API refused the request, or kept failing it, before any
        │                          event was streamed (``status``, ``retryable``)
        └── StreamInterruptedError a stream broke after some of its events were delivered;
            │                      ``retryable``: sending the same request again may succeed
            └── MalformedStreamError   the stream carried something unusable (invalid tool
                                       input JSON, an unknown block type, max_tokens in the
                                       middle of a tool's input)
"""

from __future__ import annotations


class HandsError(Exception):
    """Base class of every exception hands raises on purpose."""


class ToolError(HandsError):
    """A failure a tool reports to the model; the message is what the model reads."""


class ToolDefinitionError(HandsError):
    """A tool cannot be built from what was given."""


class ConfigError(HandsError):
    """A configuration or script file is missing, unreadable or malformed."""


class ModelError(HandsError):
    """A model stream failed, was cut off or carried something unparseable."""


class ScriptExhaustedError(ModelError):
    """A scripted model was asked for a turn beyond the end of its script."""


class ModelAPIError(ModelError):
    """The model API refused a request, or kept failing it, before anything was streamed.

    ``status`` is the HTTP status when there was one; ``retryable`` is True when the same
    request may succeed later (rate limits, overload, connection failures) and the
    provider's own retries were used up.
    """

    def __init__(self, message: str, *, status: int | None = None, retryable: bool = False) -> None:
        super().__init__(message)
        self.status = status
        self.retryable = retryable


class StreamInterruptedError(ModelError):
    """A model stream broke after some of its events had already been delivered.

    The consumer has seen a partial turn: tools started from it must be abandoned. When
    ``retryable`` is True, sending the same request again may succeed (a cut connection,
    an overloaded server); when False, it would fail the same way.
    """

    def __init__(self, message: str, *, retryable: bool) -> None:
        super().__init__(message)
        self.retryable = retryable


class MalformedStreamError(StreamInterruptedError):
    """A model stream carried something unusable.

    Invalid tool input JSON, an unknown content block type, or ``max_tokens`` reached in
    the middle of a tool's input.
    """
