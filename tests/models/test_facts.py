"""Each model object carries its facts (provider, window, capabilities, price), and the
session's window reaches compaction and tool deferral through the object."""

from __future__ import annotations

from pathlib import Path

import pytest

from hands.cli.sdk.tap import ModelTally, TappedModel
from hands.discovery.deferral import DeferringSource
from hands.harness import Harness
from hands.models.anthropic import AnthropicModel
from hands.models.base import Model, Usage
from hands.models.openai import OpenAIModel
from hands.models.plan_mode import PlanModeModel
from hands.models.scripted import ScriptedAgents
from hands.testing import ScriptedModel
from hands.tools.web._anthropic_search import is_anthropic

UNUSED = "http://127.0.0.1:9"
"""No request is sent: the facts need none."""
MILLION_IN = Usage(input_tokens=1_000_000)


def _said(text: str = "ok", **kwargs: object) -> ScriptedModel:
    return ScriptedModel({"turns": [{"blocks": [{"type": "text", "text": text}]}]}, **kwargs)  # type: ignore[arg-type]


def test_an_anthropic_model_says_whose_it_is_its_window_abilities_and_price() -> None:
    sonnet = AnthropicModel("claude-sonnet-4-6", api_key="k", base_url=UNUSED)
    facts = sonnet.facts
    assert (facts.provider, facts.name, facts.context_window) == (
        "anthropic",
        "anthropic:claude-sonnet-4-6",
        200_000,
    )
    assert facts.capabilities.tool_references and facts.capabilities.server_web_search
    assert facts.capabilities.bare_ids and "ANTHROPIC_API_KEY" in facts.capabilities.key_variables
    assert facts.cost(MILLION_IN) == pytest.approx(3.0)  # $3 per million input tokens
    wide = AnthropicModel("claude-sonnet-4-6[1m]", api_key="k", base_url=UNUSED)
    assert wide.facts.context_window == 1_000_000


def test_an_openai_model_says_its_own_and_a_local_one_has_no_price() -> None:
    gpt = OpenAIModel("gpt-4.1", api_key="k", base_url=UNUSED)
    assert (gpt.facts.provider, gpt.facts.context_window) == ("openai", 1_047_576)
    assert not gpt.facts.capabilities.tool_references
    assert not gpt.facts.capabilities.server_web_search
    assert gpt.facts.cost(MILLION_IN) == pytest.approx(2.0)
    local = OpenAIModel("qwen3", api_key="k", base_url=UNUSED)
    assert local.facts.context_window == 131_072 and local.facts.cost(MILLION_IN) is None


def test_scripted_models_and_wrappers_carry_facts_too() -> None:
    plain = _said()
    assert (plain.facts.provider, plain.facts.context_window) == ("", 200_000)
    assert plain.facts.cost(MILLION_IN) is None
    placed = _said(name="anthropic:claude-sonnet-4-6", context_window=50_000)
    assert placed.facts.provider == "anthropic" and placed.facts.context_window == 50_000
    assert placed.facts.capabilities.server_web_search
    agents = ScriptedAgents(placed, {"sub-agent": plain})
    assert agents.facts == placed.facts  # the main conversation's model
    opusplan = PlanModeModel(label="opusplan", plan=plain, other=placed)
    assert opusplan.facts == placed.facts  # the model for the rest of the session
    tapped = TappedModel(placed, ModelTally())
    assert tapped.facts == placed.facts


def test_the_web_search_backend_asks_the_model_object() -> None:
    models: list[Model] = [
        AnthropicModel("claude-x", api_key="k", base_url=UNUSED),
        _said(name="anthropic:claude-x"),
    ]
    assert all(is_anthropic(m) for m in models)
    assert not is_anthropic(OpenAIModel("gpt-4.1", api_key="k", base_url=UNUSED))
    assert not is_anthropic(_said())


def test_the_cost_ledger_prices_each_request_by_the_facts_of_its_model() -> None:
    from hands.models.ledger import UsageLedger

    ledger = UsageLedger()
    ledger.add(AnthropicModel("claude-sonnet-4-6", api_key="k", base_url=UNUSED).facts, MILLION_IN)
    ledger.add(_said().facts, MILLION_IN)
    assert ledger.by_model["anthropic:claude-sonnet-4-6"].cost_usd == pytest.approx(3.0)
    assert not ledger.by_model["scripted"].priced and not ledger.priced


def _opened(tmp_path: Path, model: Model) -> tuple[int, int, int]:
    """(compaction's window, compaction's limit, deferral's window) of a harness."""
    harness = Harness.open(tmp_path, model=model)
    source = harness.source
    assert isinstance(source, DeferringSource)
    compaction = harness.compaction
    return compaction.window_for(model), compaction.limit_for(model), source.window


def test_the_window_reaches_compaction_and_deferral_from_the_model_object(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    for name in ("HANDS_CONTEXT_WINDOW", "CLAUDE_CODE_AUTO_COMPACT_WINDOW"):
        monkeypatch.delenv(name, raising=False)
    model = _said(context_window=60_000)
    assert _opened(tmp_path, model) == (60_000, 55_200, 60_000)  # 92% compacts

    monkeypatch.setenv("HANDS_CONTEXT_WINDOW", "50000")
    assert _opened(tmp_path, model) == (50_000, 46_000, 50_000)


def test_deferral_sends_tool_references_when_the_model_object_says_its_api_expands_them(
    tmp_path: Path,
) -> None:
    placed = Harness.open(tmp_path, model=_said(name="anthropic:claude-sonnet-4-6")).source
    plain = Harness.open(tmp_path, model=_said()).source
    assert isinstance(placed, DeferringSource) and isinstance(plain, DeferringSource)
    assert placed.references and not plain.references


def test_the_facts_say_how_the_front_ends_show_and_key_the_model() -> None:
    sonnet = AnthropicModel("claude-sonnet-4-6[1m]", api_key="k", base_url=UNUSED).facts
    assert (sonnet.id, sonnet.shown_name) == ("claude-sonnet-4-6", "claude-sonnet-4-6[1m]")
    gpt = OpenAIModel("gpt-4.1", api_key="k", base_url=UNUSED).facts
    assert (gpt.id, gpt.shown_name) == ("gpt-4.1", "openai:gpt-4.1")  # Claude ids go bare
    env = {"ANTHROPIC_AUTH_TOKEN": "t", "OPENAI_API_KEY": "o"}
    assert (sonnet.key_source(env), gpt.key_source(env)) == (
        "ANTHROPIC_AUTH_TOKEN",
        "OPENAI_API_KEY",
    )
    assert sonnet.key_source({}) == "none" and _said().facts.key_source(env) == "none"
    assert gpt.window({"gpt-4": 64_000}) == 64_000 and gpt.window({"claude": 1}) == 1_047_576
