"""Model facts live in one place: one window table, which every model's facts come from;
the provider and its abilities from the model."""

from __future__ import annotations

import re

import pytest

from hands.agent.compaction import CompactionSettings
from hands.models.catalog import capabilities, context_window, provider_of
from hands.models.facts import facts_for
from paths import REPO


@pytest.mark.parametrize(
    ("model", "window"),
    [
        ("openai:qwen3", 131_072),
        ("anthropic:claude-sonnet-4-5-1m", 1_000_000),
        ("anthropic:claude-sonnet-4-5[1m]", 1_000_000),
        ("openai:gemini-2.5-pro", 1_048_576),
        ("openai:deepseek-chat", 128_000),
        ("openai:gpt-4-turbo", 128_000),
        ("ollama:mystery", 200_000),
    ],
)
def test_one_table_gives_the_window_a_model_says_it_has(model: str, window: int) -> None:
    from hands.testing import ScriptedModel

    assert context_window(model) == window
    assert facts_for(model).context_window == window
    assert CompactionSettings().window_for(ScriptedModel({"turns": []}, name=model)) == window


def test_the_provider_comes_from_the_model() -> None:
    from hands.testing import ScriptedModel

    scripted = ScriptedModel.from_turns([{"type": "text", "text": "hi"}])
    assert provider_of("anthropic:claude-sonnet-4-5") == "anthropic"
    assert provider_of("claude-sonnet-4-5") == ""
    assert provider_of(scripted) == scripted.facts.provider == ""
    assert capabilities("anthropic").tool_references
    assert not capabilities("openai").tool_references
    assert not capabilities("").server_web_search


def test_no_provider_name_is_compared_outside_models() -> None:
    src = REPO / "src" / "hands"
    found = [
        f"{path.relative_to(src)}:{n}"
        for path in src.rglob("*.py")
        if path.parent.name != "models"
        for n, line in enumerate(path.read_text().splitlines(), 1)
        if re.search(r"provider[^=\n]*==\s*[\"'](anthropic|openai)", line)
        or re.search(r"[\"'](anthropic|openai)[\"']\s*==\s*\w*provider", line)
    ]
    assert found == []
