"""How large each model's context window is, and when a session compacts.

A model's window is what the model object says of itself (its facts, from
:mod:`hands.models.catalog`); the settings' ``contextWindows`` (``{"model or prefix":
tokens}``) and ``HANDS_CONTEXT_WINDOW`` / ``CLAUDE_CODE_AUTO_COMPACT_WINDOW`` override
it. Auto-compaction starts at ``autoCompactPercent`` of the window (default 92;
``HANDS_AUTOCOMPACT_PCT`` / ``CLAUDE_AUTOCOMPACT_PCT_OVERRIDE``) and is off with
``autoCompactEnabled: false`` or
``HANDS_DISABLE_AUTO_COMPACT`` / ``DISABLE_AUTO_COMPACT``.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, cast

from hands.core.env import EnvError, count, number, source, switch
from hands.errors import ConfigError

if TYPE_CHECKING:
    from hands.models.base import Model
    from hands.models.facts import ModelFacts

__all__ = ["CompactionSettings"]

DEFAULT_PERCENT = 92.0


@dataclass(frozen=True, kw_only=True, slots=True)
class CompactionSettings:
    """When and how a session compacts."""

    window_tokens: int | None = None
    """The model's context window; None: from the table for the session's model."""
    percent: float = DEFAULT_PERCENT
    """Auto-compaction starts when a request would reach this share of the window."""
    auto: bool = True
    """Compact automatically; False: only when asked (``/compact``)."""
    keep_results: int = 3
    """How many of the newest tool results keep their bodies when old ones are cleared."""
    recent_share: float = 0.1
    """At most this share of the window is kept verbatim after a summary (recent turns)."""
    reattach_files: int = 5
    """How many recently read files are re-attached, briefly, after a summary."""
    windows: Mapping[str, int] = field(default_factory=lambda: dict[str, int]())
    """Context windows by model name or prefix, over the built-in table."""

    def window_for(self, model: Model) -> int:
        """The window of ``model``: the environment's, the settings' or the model's own.

        ``HANDS_CONTEXT_WINDOW`` first, then the settings' ``contextWindows`` entry for
        its name, then what the model says of itself (``model.facts``).
        """
        from hands.models.facts import facts_of

        return self.window_of(facts_of(model))

    def window_of(self, facts: ModelFacts) -> int:
        """The window of the model whose facts are ``facts`` (as :meth:`window_for`)."""
        return self.window_tokens or facts.window(self.windows)

    def limit_for(self, model: Model) -> int:
        """The token count at which auto-compaction starts for ``model``."""
        return int(self.window_for(model) * self.percent / 100)

    @classmethod
    def from_env(
        cls,
        env: Mapping[str, str] | None = None,
        setting: Callable[[str], Any] | None = None,
    ) -> CompactionSettings:
        """The settings from ``setting(key)`` (a settings file) and the environment."""
        env = os.environ if env is None else env
        value: Callable[[str], Any] = setting or (lambda key: None)
        percent = _percent(value("autoCompactPercent"), "autoCompactPercent")
        given_percent = number("HANDS_AUTOCOMPACT_PCT", env)
        if given_percent is not None:
            percent = _percent(given_percent, source("HANDS_AUTOCOMPACT_PCT", env), EnvError)
        given_window = count("HANDS_CONTEXT_WINDOW", env)
        window = None
        if given_window is not None:
            window = _tokens(given_window, source("HANDS_CONTEXT_WINDOW", env), EnvError)
        auto = value("autoCompactEnabled") is not False
        if switch("HANDS_DISABLE_AUTO_COMPACT", env):
            auto = False
        windows = value("contextWindows")
        table: dict[str, int] = {}
        if isinstance(windows, dict):
            for key, tokens in cast(dict[str, Any], windows).items():
                table[str(key)] = _tokens(tokens, f"contextWindows.{key}")
        return cls(
            window_tokens=window,
            percent=DEFAULT_PERCENT if percent is None else percent,
            auto=auto,
            windows=table,
        )


def _percent(raw: object, where: str, error: type[ConfigError] = ConfigError) -> float | None:
    if raw is None:
        return None
    try:
        value = float(cast(Any, raw))
    except (TypeError, ValueError):
        raise error(f"{where} must be a number from 1 to 100, not {raw!r}") from None
    if not 1 <= value <= 100:
        raise error(f"{where} must be from 1 to 100, not {value:g}")
    return value


def _tokens(raw: object, where: str, error: type[ConfigError] = ConfigError) -> int:
    try:
        value = int(cast(Any, raw))
    except (TypeError, ValueError):
        raise error(f"{where} must be a whole number of tokens, not {raw!r}") from None
    if value < 1000:
        raise error(f"{where} must be at least 1000 tokens, not {value}")
    return value
