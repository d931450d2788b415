"""Cost estimates from token usage, per model family (USD, list prices)."""

from __future__ import annotations

import re
from dataclasses import dataclass

from hands.models.usage import Usage


@dataclass(frozen=True, kw_only=True, slots=True)
class Price:
    """USD per million tokens."""

    input: float
    output: float
    cache_write: float
    """Writing a 5-minute prompt-cache entry (1.25 x input)."""
    cache_read: float
    """Reading from the prompt cache (0.1 x input)."""

    @classmethod
    def of(cls, input: float, output: float) -> Price:
        """The price with Anthropic's standard cache multipliers."""
        return cls(input=input, output=output, cache_write=input * 1.25, cache_read=input * 0.1)

    def cost(self, usage: Usage) -> float:
        """The cost of ``usage`` in USD."""
        return (
            usage.input_tokens * self.input
            + usage.output_tokens * self.output
            + usage.cache_creation_input_tokens * self.cache_write
            + usage.cache_read_input_tokens * self.cache_read
        ) / 1_000_000


_OLD_OPUS = re.compile(r"claude-3-opus|opus-4(-[01])?(-\d{8}|$|@|-v)")


def price_for(model: str) -> Price | None:
    """The list price of an Anthropic model family, or None when it is not known."""
    name = model.lower()
    if "haiku" in name:
        if "claude-3-haiku" in name:
            return Price.of(0.25, 1.25)
        if "3-5-haiku" in name or "3.5-haiku" in name:
            return Price.of(0.80, 4.0)
        return Price.of(1.0, 5.0)
    if "sonnet" in name:
        return Price.of(3.0, 15.0)
    if "opus" in name:
        return Price.of(15.0, 75.0) if _OLD_OPUS.search(name) else Price.of(5.0, 25.0)
    return None


def estimate_cost(model: str, usage: Usage) -> float | None:
    """USD for ``usage`` on ``model``; None when the model's price is not known."""
    price = price_for(model)
    return None if price is None else price.cost(usage)
