"""What a model object says of itself: :class:`ModelFacts`, made by :func:`facts_for`.

Compaction, tool deferral, ``/context``, the cost ledger, the server tools and the
front ends' wire shapes ask the model they run with (:func:`facts_of`) rather than look
its name up; a model client makes its facts from :mod:`hands.models.catalog`'s tables
and the price table.

A model object of the library user's own need not carry any: hands then takes it for a
model of an unknown provider with a :data:`~hands.models.catalog.DEFAULT_WINDOW` of
200,000 tokens, no abilities beyond a turn with tools, and no price (its requests cost
0 and are reported unpriced), and says so once with a :class:`ModelFactsWarning`.
"""

from __future__ import annotations

import os
import warnings
import weakref
from collections.abc import Mapping
from dataclasses import dataclass, field, replace

from hands.errors import ConfigError
from hands.models.catalog import (
    DEFAULT_WINDOW,
    Capabilities,
    capabilities,
    context_window,
    provider_of,
    window_override,
)
from hands.models.cost import model_id, request_cost
from hands.models.usage import Usage


@dataclass(frozen=True, kw_only=True, slots=True)
class ModelFacts:
    """What hands knows about one model, carried by the model object (``model.facts``)."""

    name: str
    """The model's hands name (``PROVIDER:ID``), which its price is looked up by."""
    provider: str
    """``anthropic``, ``openai``...; empty: none placed (a script named without one, or a
    model object that carries no facts)."""
    context_window: int
    """Its context window in tokens, before the settings' or the environment's override."""
    capabilities: Capabilities = field(default_factory=lambda: Capabilities())
    """What its API does beyond streaming a turn with tools."""
    priced: bool = True
    """False: hands knows no price for it, whatever its name says (a model object that
    carries no facts); each request costs 0 and is counted unpriced."""

    def cost(self, usage: Usage) -> float | None:
        """USD for one request's ``usage``; None when the model has no known price."""
        return request_cost(self.name, usage) if self.priced else None

    def with_window(self, tokens: int) -> ModelFacts:
        """The same facts with another context window."""
        return replace(self, context_window=tokens)

    def window(self, overrides: Mapping[str, int] | None = None) -> int:
        """Its window with the settings' ``contextWindows`` (a name or prefix → tokens)."""
        return window_override(self.name, overrides) or self.context_window

    @property
    def id(self) -> str:
        """The provider's id of it (``claude-sonnet-4-6``: no provider, no ``[1m]``)."""
        return model_id(self.name)

    @property
    def shown_name(self) -> str:
        """Its name as Claude Code shows it: a Claude model by its id alone."""
        _provider, sep, rest = self.name.partition(":")
        return rest if sep and self.capabilities.bare_ids else self.name

    def key_source(self, env: Mapping[str, str] | None = None) -> str:
        """The variable its API key comes from (``ANTHROPIC_API_KEY``), or ``none``."""
        env = os.environ if env is None else env
        return next((v for v in self.capabilities.key_variables if env.get(v)), "none")


class ModelFactsWarning(UserWarning):
    """A model object carries no ``facts``: hands assumed them (see :func:`facts_of`)."""


_WARNED: weakref.WeakSet[type] = weakref.WeakSet()


def facts_of(model: object) -> ModelFacts:
    """The facts ``model`` carries (``model.facts``), or those hands assumes for it.

    A model without ``facts`` is taken for one of an unknown provider, with a window of
    :data:`~hands.models.catalog.DEFAULT_WINDOW` tokens and no price; a
    :class:`ModelFactsWarning` says so once per class. ``facts`` of another type is a
    ConfigError.
    """
    found: object = getattr(model, "facts", None)
    if isinstance(found, ModelFacts):
        return found
    kind = type(model)
    if found is not None:
        raise ConfigError(
            f"{kind.__qualname__}.facts is a {type(found).__name__}; a model's facts must be "
            "a hands.models.facts.ModelFacts (or leave the attribute out)"
        )
    name = str(getattr(model, "name", "") or kind.__qualname__)
    if kind not in _WARNED:
        _WARNED.add(kind)
        warnings.warn(
            ModelFactsWarning(
                f"the model {name!r} ({kind.__qualname__}) has no `facts`, so hands takes it "
                f"for a model of an unknown provider with a {DEFAULT_WINDOW:,}-token context "
                "window and no price (its cost is reported as 0, unpriced). Give "
                f"{kind.__qualname__} a `facts` property returning "
                "hands.models.facts.ModelFacts to say otherwise."
            ),
            stacklevel=2,
        )
    return ModelFacts(name=name, provider="", context_window=DEFAULT_WINDOW, priced=False)


def facts_for(name: str, *, provider: str = "", window: int | None = None) -> ModelFacts:
    """The facts of the model ``name`` (``provider:id``).

    ``provider`` when the model declares one, else the name's prefix; ``window`` when
    given, else the table's.
    """
    placed = provider or provider_of(name)
    return ModelFacts(
        name=name,
        provider=placed,
        context_window=window or context_window(name),
        capabilities=capabilities(placed),
    )


__all__ = ["ModelFacts", "ModelFactsWarning", "facts_for", "facts_of"]
