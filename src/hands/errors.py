"""Exceptions raised to developers embedding hands.

Errors meant for the *model* never escape as exceptions: the pipeline turns them into
``is_error`` tool results. These types are for code that calls hands::

    HandsError
    ├── ToolError            raised by a tool; its message becomes the is_error result text
    ├── ToolDefinitionError  a tool or @tool function cannot be built (bad signature, name)
    ├── ConfigError          a settings, script or config file is unusable
    └── ModelError           a model stream failed or was malformed
        └── ScriptExhaustedError   a ScriptedModel was asked for more turns than it holds
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
