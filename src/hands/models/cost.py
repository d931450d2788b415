"""What a session's requests cost, per model: the numbers ``-p`` results and ``/cost`` show.

Each request is priced on its own (a long-context tier applies per request, not to a
sum) from the ``genai-prices`` table, which knows Anthropic's, OpenAI's and many other
providers' models, cache reads and writes included; a Claude model it does not know yet
gets :mod:`hands.models.pricing`'s family price. A model with no price at all (a local
server, a script) costs 0 and is marked unpriced.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from hands.models.aliases import ONE_MILLION
from hands.models.base import Usage
from hands.models.pricing import estimate_cost


def model_id(name: str) -> str:
    """The provider's id of a hands model name (``anthropic:claude-x[1m]`` → ``claude-x``)."""
    return (name.partition(":")[2] or name).removesuffix(ONE_MILLION)


def request_cost(name: str, usage: Usage) -> float | None:
    """USD for one request's ``usage`` on the model ``name`` (``PROVIDER:ID``); None: no price."""
    provider, sep, _ = name.partition(":")
    ident = model_id(name)
    if not sep or provider == "scripted":
        return None
    price = _genai_price(ident, provider, usage)
    if price is None and provider == "anthropic":
        price = estimate_cost(ident, usage)
    return price


def _genai_price(ident: str, provider: str, usage: Usage) -> float | None:
    calc = _calculator()
    if calc is None:
        return None
    from genai_prices import Usage as PriceUsage

    counted = PriceUsage(
        input_tokens=usage.input_tokens
        + usage.cache_read_input_tokens
        + usage.cache_creation_input_tokens,
        cache_read_tokens=usage.cache_read_input_tokens,
        cache_write_tokens=usage.cache_creation_input_tokens,
        output_tokens=usage.output_tokens,
    )
    try:
        return float(calc(counted, model_ref=ident, provider_id=provider).total_price)
    except (LookupError, ValueError):
        return None


@functools.cache
def _calculator() -> Any:
    try:
        from genai_prices import calc_price
    except ImportError:  # the table is a dependency; a broken install still runs
        return None
    return calc_price


@dataclass(frozen=True, kw_only=True, slots=True)
class ModelUsage:
    """One model's share of a session: tokens, requests and what they cost."""

    usage: Usage = field(default_factory=Usage)
    cost_usd: float = 0.0
    requests: int = 0
    priced: bool = True
    """False when a request had no price (its cost counted as 0)."""

    def plus(self, usage: Usage, cost: float | None) -> ModelUsage:
        """The share with one more request counted."""
        return ModelUsage(
            usage=self.usage + usage,
            cost_usd=self.cost_usd + (cost or 0.0),
            requests=self.requests + 1,
            priced=self.priced and cost is not None,
        )

    def merged(self, other: ModelUsage) -> ModelUsage:
        """The share with ``other`` added."""
        return ModelUsage(
            usage=self.usage + other.usage,
            cost_usd=self.cost_usd + other.cost_usd,
            requests=self.requests + other.requests,
            priced=self.priced and other.priced,
        )

    def to_wire(self, *, context_window: int) -> dict[str, Any]:
        """The ``modelUsage`` entry of a ``-p`` result."""
        return {
            "inputTokens": self.usage.input_tokens,
            "outputTokens": self.usage.output_tokens,
            "cacheReadInputTokens": self.usage.cache_read_input_tokens,
            "cacheCreationInputTokens": self.usage.cache_creation_input_tokens,
            "costUSD": self.cost_usd,
            "contextWindow": context_window,
        }


@dataclass(kw_only=True, slots=True)
class UsageLedger:
    """Usage and cost per model (``PROVIDER:ID``), request by request."""

    by_model: dict[str, ModelUsage] = field(default_factory=lambda: dict[str, ModelUsage]())

    def add(self, model: str, usage: Usage) -> None:
        """Count one request of ``model``."""
        share = self.by_model.get(model, ModelUsage())
        self.by_model[model] = share.plus(usage, request_cost(model, usage))

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
