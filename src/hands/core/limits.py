"""Limits and locations read from the environment when asked, never at import."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from hands.core.env import given

DEFAULT_MAX_CONCURRENCY = 10
DEFAULT_TOOL_TIMEOUT_S = 600.0
DEFAULT_RESULT_CHARS = 50_000
DEFAULT_MESSAGE_BUDGET_CHARS = 200_000
PREVIEW_BYTES = 2_000


def hands_home(env: Mapping[str, str] | None = None) -> Path:
    """The user's hands directory: ``$HANDS_HOME`` or ``~/.hands``."""
    home = given("HANDS_HOME", env)
    return Path(home).expanduser() if home else Path.home() / ".hands"


@dataclass(frozen=True, kw_only=True, slots=True)
class Limits:
    """Caps on parallelism, time and result size for one session."""

    max_concurrency: int = DEFAULT_MAX_CONCURRENCY
    """Concurrency-safe calls of one batch run at most this many at a time
    (``HANDS_MAX_TOOL_CONCURRENCY``)."""
    tool_timeout_s: float = DEFAULT_TOOL_TIMEOUT_S
    """Per-call time limit for tools that do not enforce their own
    (``HANDS_TOOL_TIMEOUT_MS``, in milliseconds)."""
    result_chars: int = DEFAULT_RESULT_CHARS
    """A result longer than this (or than the tool's ``max_result_chars``, if smaller) is
    spilled to a file and the model gets a preview and the path."""
    message_budget_chars: int = DEFAULT_MESSAGE_BUDGET_CHARS
    """The results of one turn together stay under this; the largest are spilled first."""
    cascade_bash_errors: bool = True
    """A failing Bash call cancels its running siblings (``HANDS_CASCADE_BASH_ERRORS=0``
    turns it off)."""
    simple: bool = False
    """Offer only Bash, Read and Edit (``HANDS_SIMPLE=1``)."""

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None) -> Limits:
        """Read ``HANDS_MAX_TOOL_CONCURRENCY``, ``HANDS_TOOL_TIMEOUT_MS`` and friends.

        A value that cannot be used is a :class:`hands.core.env.EnvError` naming it.
        """
        from hands.core.env import count, switch

        timeout_ms = count("HANDS_TOOL_TIMEOUT_MS", env) or DEFAULT_TOOL_TIMEOUT_S * 1000
        return cls(
            max_concurrency=count("HANDS_MAX_TOOL_CONCURRENCY", env) or DEFAULT_MAX_CONCURRENCY,
            tool_timeout_s=timeout_ms / 1000,
            cascade_bash_errors=switch("HANDS_CASCADE_BASH_ERRORS", env) is not False,
            simple=switch("HANDS_SIMPLE", env) is True,
        )
