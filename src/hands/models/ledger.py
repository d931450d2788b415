"""A session's usage per model: the tokens, requests and cost ``-p`` and ``/cost`` show.

Each request is priced by the facts of the model that served it (``model.facts``).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from hands.models.usage import Usage

if TYPE_CHECKING:
    from hands.models.facts import ModelFacts


@dataclass(frozen=True, kw_only=True, slots=True)
class ModelUsage:
    """One model's share of a session: tokens, requests and what they cost."""

    facts: ModelFacts
    """The facts of the model (its id and window on the wire, its price)."""
    usage: Usage = field(default_factory=Usage)
    cost_usd: float = 0.0
    requests: int = 0
    priced: bool = True
    """False when a request had no price (its cost counted as 0)."""

    def plus(self, usage: Usage, cost: float | None) -> ModelUsage:
        """The share with one more request counted."""
        return ModelUsage(
            facts=self.facts,
            usage=self.usage + usage,
            cost_usd=self.cost_usd + (cost or 0.0),
            requests=self.requests + 1,
            priced=self.priced and cost is not None,
        )

    def merged(self, other: ModelUsage) -> ModelUsage:
        """The share with ``other`` added."""
        return ModelUsage(
            facts=self.facts,
            usage=self.usage + other.usage,
            cost_usd=self.cost_usd + other.cost_usd,
            requests=self.requests + other.requests,
            priced=self.priced and other.priced,
        )

    def to_wire(self, *, context_window: int | None = None) -> dict[str, Any]:
        """The ``modelUsage`` entry of a ``-p`` result (the model's own window if not given)."""
        return {
            "inputTokens": self.usage.input_tokens,
            "outputTokens": self.usage.output_tokens,
            "cacheReadInputTokens": self.usage.cache_read_input_tokens,
            "cacheCreationInputTokens": self.usage.cache_creation_input_tokens,
            "costUSD": self.cost_usd,
            "contextWindow": self.facts.context_window
            if context_window is None
            else context_window,
        }


@dataclass(kw_only=True, slots=True)
class UsageLedger:
    """Usage and cost per model (``PROVIDER:ID``), request by request."""

    by_model: dict[str, ModelUsage] = field(default_factory=lambda: dict[str, ModelUsage]())

    def add(self, model: ModelFacts, usage: Usage) -> None:
        """Count one request of the model whose facts are ``model`` (priced by them)."""
        share = self.by_model.get(model.name) or ModelUsage(facts=model)
        self.by_model[model.name] = share.plus(usage, model.cost(usage))

    def merge(self, other: Mapping[str, ModelUsage]) -> None:
        """Count ``other``'s shares too."""
        for model, share in other.items():
            mine = self.by_model.get(model)
            self.by_model[model] = share if mine is None else mine.merged(share)

    @property
    def total_cost_usd(self) -> float:
        """The cost of every request counted (unpriced ones as 0)."""
        return sum(share.cost_usd for share in self.by_model.values())

    @property
    def priced(self) -> bool:
        """Whether every request counted had a price."""
        return all(share.priced for share in self.by_model.values())
