"""What one model request costs: the price lookup behind ``model.facts.cost``.

Each request is priced on its own (a long-context tier applies per request, not to a
sum) from the ``genai-prices`` table, which knows Anthropic's, OpenAI's and many other
providers' models, cache reads and writes included; a Claude model it does not know yet
gets :mod:`hands.models.pricing`'s family price. A model with no price at all (a local
server, a script) costs 0 and is marked unpriced.
"""

from __future__ import annotations

import functools
from typing import Any

from hands.models.aliases import ONE_MILLION
from hands.models.pricing import estimate_cost
from hands.models.usage import Usage


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
