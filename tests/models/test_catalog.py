"""Model facts live in one place: one window table for compaction and deferral, the
provider and its abilities from the model."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from hands.agent.compaction import context_window as compaction_window
from hands.discovery.deferral import DeferringSource
from hands.discovery.deferral import context_window as deferral_window
from hands.models.catalog import capabilities, context_window, provider_of
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
def test_compaction_and_deferral_read_one_table(model: str, window: int) -> None:
    assert context_window(model) == window
    assert compaction_window(model) == deferral_window(model) == window


def test_the_provider_comes_from_the_model() -> None:
    from hands.testing import ScriptedModel

    scripted = ScriptedModel.from_turns([{"type": "text", "text": "hi"}])
    assert provider_of("anthropic:claude-sonnet-4-5") == "anthropic"
    assert provider_of("claude-sonnet-4-5") == ""
    assert provider_of(scripted) == provider_of(scripted.name)
    assert capabilities("anthropic").tool_references
    assert not capabilities("openai").tool_references
    assert not capabilities("").server_web_search


def test_the_context_window_variable_reaches_deferral_as_it_reaches_compaction(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from hands.harness import Harness

    script = tmp_path / "script.json"
    script.write_text(json.dumps({"turns": [{"blocks": [{"type": "text", "text": "ok"}]}]}))
    monkeypatch.setenv("HANDS_CONTEXT_WINDOW", "50000")
    harness = Harness.open(tmp_path, model=f"scripted:{script}")
    source = harness.source
    assert isinstance(source, DeferringSource)
    assert source.window == harness.compaction.window_for(harness.model.name) == 50_000


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
