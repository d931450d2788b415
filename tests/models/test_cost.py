"""Cost per request and per model, from the price table."""

from __future__ import annotations

import pytest

from hands.models.base import Usage
from hands.models.cost import model_id, request_cost
from hands.models.facts import facts_for
from hands.models.ledger import ModelUsage, UsageLedger


def test_a_claude_request_is_priced_with_its_cache_reads_and_writes() -> None:
    usage = Usage(
        input_tokens=1000,
        cache_read_input_tokens=1000,
        cache_creation_input_tokens=1000,
        output_tokens=100,
    )
    # Sonnet 4.6 list prices per million: $3 in, $0.30 cache read, $3.75 cache write, $15 out
    assert request_cost("anthropic:claude-sonnet-4-6", usage) == pytest.approx(
        (1000 * 3 + 1000 * 0.3 + 1000 * 3.75 + 100 * 15) / 1e6
    )
    assert request_cost("anthropic:claude-sonnet-4-6[1m]", usage) == request_cost(
        "anthropic:claude-sonnet-4-6", usage
    )


def test_other_providers_come_from_the_table_and_unknown_models_have_no_price() -> None:
    million = Usage(input_tokens=1_000_000)
    assert request_cost("openai:gpt-4.1", million) == pytest.approx(2.0)
    assert request_cost("openai:qwen3", million) is None
    assert request_cost("scripted:/tmp/s.json", million) is None
    # a Claude model newer than the table still gets its family's price
    assert request_cost("anthropic:claude-haiku-9-9", million) is not None


def test_each_request_is_priced_alone_so_a_long_context_tier_is_not_misapplied() -> None:
    ledger = UsageLedger()
    half = Usage(input_tokens=150_000)
    ledger.add(facts_for("anthropic:claude-sonnet-4-5"), half)
    ledger.add(facts_for("anthropic:claude-sonnet-4-5"), half)
    whole = request_cost("anthropic:claude-sonnet-4-5", half + half)
    assert whole is not None and ledger.total_cost_usd == pytest.approx(0.9)
    assert whole > ledger.total_cost_usd  # 300,000 in one request costs the higher tier


def test_the_ledger_keeps_models_apart_and_says_when_a_price_was_missing() -> None:
    ledger = UsageLedger()
    ledger.add(facts_for("anthropic:claude-opus-4-6"), Usage(input_tokens=10, output_tokens=5))
    ledger.add(facts_for("anthropic:claude-sonnet-4-6"), Usage(input_tokens=10, output_tokens=5))
    assert set(ledger.by_model) == {"anthropic:claude-opus-4-6", "anthropic:claude-sonnet-4-6"}
    assert ledger.priced
    other = UsageLedger()
    other.add(facts_for("openai:local-model"), Usage(input_tokens=10))
    other.add(facts_for("anthropic:claude-opus-4-6"), Usage(input_tokens=10))
    ledger.merge(other.by_model)
    assert not ledger.priced and ledger.by_model["anthropic:claude-opus-4-6"].requests == 2
    wire = ledger.by_model["anthropic:claude-opus-4-6"].to_wire(context_window=200_000)
    assert wire["inputTokens"] == 20 and wire["outputTokens"] == 5
    assert wire["costUSD"] == ledger.by_model["anthropic:claude-opus-4-6"].cost_usd > 0
    fresh = ModelUsage(facts=facts_for("anthropic:claude-x[1m]"))
    assert fresh.priced and fresh.facts.id == model_id(fresh.facts.name) == "claude-x"
    assert fresh.to_wire()["contextWindow"] == 1_000_000
