"""An agent's ``model`` (``sonnet``, ``opus``, ``haiku``, ``inherit`` or an id) → a model.

The names are read by :func:`hands.models.aliases.agent_model_spec`.
``inherit`` (the default) is the caller's model, and so is an alias of Claude Code's
list that no provider here has a model for (``fable``). An alias maps to a model of the
caller's provider; a provider without a table (a scripted model, a local server) keeps
the caller's model. ``PROVIDER:NAME`` or a bare id is used as given, on the caller's
provider. The settings' ``agentModels`` (alias → ``PROVIDER:NAME``) override the table.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from hands.models.aliases import agent_model_spec
from hands.models.base import Model

Resolver = Callable[[str], Model]


def _default_resolver(spec: str) -> Model:
    from hands.models.resolve import resolve_model

    return resolve_model(spec)


def model_spec(
    wanted: str | None, parent: Model, overrides: Mapping[str, str] | None = None
) -> str | None:
    """The ``PROVIDER:NAME`` to build for ``wanted``; ``None``: the caller's model."""
    return agent_model_spec(wanted, parent.name, overrides)


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
