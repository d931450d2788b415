"""An agent's ``model`` (``sonnet``, ``opus``, ``haiku``, ``inherit`` or an id) → a model.

The aliases are :data:`hands.models.aliases.ALIASES`.
``inherit`` (the default) is the caller's model, and so is an alias of Claude Code's
list that no provider here has a model for (``fable``). An alias maps to a model of the
caller's provider; a provider without a table (a scripted model, a local server) keeps
the caller's model. ``PROVIDER:NAME`` or a bare id is used as given, on the caller's
provider. The settings' ``agentModels`` (alias → ``PROVIDER:NAME``) override the table.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from hands.models.aliases import ALIASES
from hands.models.base import Model

UNMAPPED_ALIASES = frozenset({"fable"})
"""Aliases Claude Code offers that name no model here: the caller's model is used."""

Resolver = Callable[[str], Model]


def _default_resolver(spec: str) -> Model:
    from hands.models.resolve import resolve_model

    return resolve_model(spec)


def model_spec(
    wanted: str | None, parent: Model, overrides: Mapping[str, str] | None = None
) -> str | None:
    """The ``PROVIDER:NAME`` to build for ``wanted``; ``None``: the caller's model."""
    choice = (wanted or "inherit").strip()
    if not choice or choice.lower() == "inherit" or choice.lower() in UNMAPPED_ALIASES:
        return None
    provider, _, current = parent.name.partition(":")
    alias = choice.lower()
    if overrides and alias in overrides:
        return overrides[alias]
    table = ALIASES.get(provider)
    if alias in ALIASES["anthropic"]:
        if table is None:
            return None
        choice = table[alias]
    if ":" in choice:
        return choice
    if table is None:
        return None
    return None if choice == current else f"{provider}:{choice}"


def model_for(
    wanted: str | None,
    parent: Model,
    *,
    overrides: Mapping[str, str] | None = None,
    resolve: Resolver = _default_resolver,
) -> Model:
    """The model a sub-agent runs on (raises ConfigError when that one cannot be built)."""
    spec = model_spec(wanted, parent, overrides)
    return parent if spec is None or spec == parent.name else resolve(spec)
