"""An agent's model: aliases mapped to the session's provider, ids kept, settings first."""

from __future__ import annotations

from hands.agent.subagents.models import model_for, model_spec
from hands.agent.subagents.setup import model_overrides
from hands.testing import ScriptedModel


def Named(name: str) -> ScriptedModel:
    return ScriptedModel({"turns": []}, name=name)


def test_aliases_map_to_a_model_of_the_callers_provider() -> None:
    claude = Named("anthropic:claude-sonnet-4-6")
    gpt = Named("openai:gpt-4.1")
    assert model_spec("haiku", claude) == "anthropic:claude-haiku-4-5"
    assert model_spec("OPUS", claude) == "anthropic:claude-opus-4-6"
    assert model_spec("sonnet", claude) is None  # the caller's own model
    assert model_spec("haiku", gpt) == "openai:gpt-4.1-mini"
    assert model_spec("inherit", gpt) is None and model_spec(None, gpt) is None
    assert model_spec("claude-opus-4-1", claude) == "anthropic:claude-opus-4-1"
    assert model_spec("openai:o4-mini", claude) == "openai:o4-mini"
    # a provider without a table (a scripted model, a local server) keeps its model
    assert model_spec("haiku", Named("scripted:demo")) is None
    # an alias of Claude Code's list that names no model here is the caller's model
    assert model_spec("fable", claude) is None and model_spec("Fable", gpt) is None
    # settings' agentModels come first
    assert model_spec("haiku", claude, {"haiku": "openai:gpt-4.1-nano"}) == "openai:gpt-4.1-nano"


def test_the_model_is_built_only_when_it_differs() -> None:
    built: list[str] = []

    def resolve(spec: str) -> ScriptedModel:
        built.append(spec)
        return ScriptedModel.from_turns()

    parent = Named("anthropic:claude-sonnet-4-6")
    assert model_for("inherit", parent, resolve=resolve) is parent
    model_for("haiku", parent, resolve=resolve)
    assert built == ["anthropic:claude-haiku-4-5"]


def test_agent_models_in_settings_are_read_leniently() -> None:
    values = {"agentModels": {"Haiku": "openai:gpt-4.1-nano", "opus": 3, "sonnet": " "}}
    assert model_overrides(values.get) == {"haiku": "openai:gpt-4.1-nano"}
    assert model_overrides({"agentModels": ["x"]}.get) == {}
