"""What a model object says of itself: :class:`ModelFacts`, made by :func:`facts_for`.

Compaction, tool deferral, ``/context``, the cost ledger and the server tools ask the
model they run with (``model.facts``) rather than look its name up; a model client
makes its facts from :mod:`hands.models.catalog`'s tables and the price table.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from hands.models.catalog import Capabilities, capabilities, context_window, provider_of
from hands.models.cost import request_cost
from hands.models.usage import Usage


@dataclass(frozen=True, kw_only=True, slots=True)
class ModelFacts:
    """What hands knows about one model, carried by the model object (``model.facts``)."""

    name: str
    """The model's hands name (``PROVIDER:ID``), which its price is looked up by."""
    provider: str
    """``anthropic``, ``openai``...; empty: none placed (a script named without one)."""
    context_window: int
    """Its context window in tokens, before the settings' or the environment's override."""
    capabilities: Capabilities = field(default_factory=lambda: Capabilities())
    """What its API does beyond streaming a turn with tools."""

    def cost(self, usage: Usage) -> float | None:
        """USD for one request's ``usage``; None when the model has no known price."""
        return request_cost(self.name, usage)

    def with_window(self, tokens: int) -> ModelFacts:
        """The same facts with another context window."""
        return replace(self, context_window=tokens)


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


__all__ = ["ModelFacts", "facts_for"]
