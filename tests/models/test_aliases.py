"""Claude Code's model names: aliases, ``[1m]``, bare ids placed by prefix, the variables."""

from __future__ import annotations

import json
from pathlib import Path

import anyio
import pytest

from hands.core.messages import user_text
from hands.errors import ConfigError
from hands.models.base import ModelRequest
from hands.models.plan_mode import PlanModeModel, model_in_mode
from hands.models.resolve import resolve_model
from models.loopback import LoopbackServer, sse_reply
from models.wire import a_end, a_start, a_text

CLAUDE = {"ANTHROPIC_API_KEY": "a"}
BOTH = {"ANTHROPIC_API_KEY": "a", "OPENAI_API_KEY": "o"}


@pytest.mark.parametrize(
    ("spec", "env", "expected"),
    [
        ("sonnet", CLAUDE, "anthropic:claude-sonnet-4-6"),
        ("opus", CLAUDE, "anthropic:claude-opus-4-6"),
        ("haiku", CLAUDE, "anthropic:claude-haiku-4-5"),
        ("OPUS", CLAUDE, "anthropic:claude-opus-4-6"),
        ("default", CLAUDE, "anthropic:claude-sonnet-4-6"),
        ("sonnet[1m]", CLAUDE, "anthropic:claude-sonnet-4-6[1m]"),
        ("anthropic:opus", CLAUDE, "anthropic:claude-opus-4-6"),
        (
            "opus",
            {**CLAUDE, "ANTHROPIC_DEFAULT_OPUS_MODEL": "claude-opus-4-1"},
            "anthropic:claude-opus-4-1",
        ),
        ("haiku", {**CLAUDE, "ANTHROPIC_DEFAULT_HAIKU_MODEL": "my-haiku"}, "anthropic:my-haiku"),
        ("opus", {"OPENAI_API_KEY": "o"}, "openai:o3"),
        ("claude-opus-4-1", BOTH, "anthropic:claude-opus-4-1"),
        ("gpt-5", BOTH, "openai:gpt-5"),
        ("o3-mini", BOTH, "openai:o3-mini"),
        ("o4", BOTH, "openai:o4"),
        ("qwen3", {"OPENAI_BASE_URL": "http://127.0.0.1:9/v1"}, "openai:qwen3"),
        ("qwen3:8b", {"OPENAI_BASE_URL": "http://127.0.0.1:9/v1"}, "openai:qwen3:8b"),
    ],
)
def test_a_name_resolves_to_a_provider_and_model(
    spec: str, env: dict[str, str], expected: str
) -> None:
    assert resolve_model(spec, env).name == expected


def test_the_model_variables_take_ids_and_aliases() -> None:
    assert resolve_model(None, {**CLAUDE, "ANTHROPIC_MODEL": "opus"}).name == (
        "anthropic:claude-opus-4-6"
    )
    overridden = {
        **CLAUDE,
        "ANTHROPIC_MODEL": "sonnet",
        "ANTHROPIC_DEFAULT_SONNET_MODEL": "claude-sonnet-4-5",
    }
    assert resolve_model(None, overridden).name == "anthropic:claude-sonnet-4-5"
    assert resolve_model(None, CLAUDE, settings_model="opus").name == "anthropic:claude-opus-4-6"
    # a Claude id in the settings does not pull an OpenAI-only session onto Anthropic
    only_openai = {"OPENAI_API_KEY": "o"}
    assert resolve_model(None, only_openai, settings_model="claude-opus-4-1").name == (
        "openai:gpt-4.1"
    )
    assert resolve_model("anthropic:", {**CLAUDE, "ANTHROPIC_MODEL": "haiku"}).name == (
        "anthropic:claude-haiku-4-5"
    )


def test_names_that_cannot_be_served_are_clear_errors(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="unknown model 'mystery'"):
        resolve_model("mystery", {})
    with pytest.raises(ConfigError, match="anthropic models need an API key"):
        resolve_model("claude-opus-4-1", {"OPENAI_API_KEY": "o"})
    with pytest.raises(ConfigError, match="unknown model 'opus'"):
        resolve_model("opus", {}, provider="scripted")  # an alias needs a real provider
    script = tmp_path / "s.json"
    script.write_text(json.dumps({"turns": [{"blocks": [{"type": "text", "text": "hi"}]}]}))
    # /model in a scripted session: a file name stays on the scripted provider
    assert resolve_model(str(script), {}, provider="scripted").name.startswith("scripted:")


def test_opusplan_plans_on_opus_and_works_on_sonnet() -> None:
    model = resolve_model("opusplan", CLAUDE)
    assert isinstance(model, PlanModeModel) and model.name == "anthropic:opusplan"
    assert model_in_mode(model, "plan").name == "anthropic:claude-opus-4-6"
    assert model_in_mode(model, "default").name == "anthropic:claude-sonnet-4-6"
    assert model_in_mode(model, "acceptEdits").name == "anthropic:claude-sonnet-4-6"


def test_one_million_sends_the_plain_id_and_the_beta_header(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    server = LoopbackServer()
    server.start()
    try:
        server.queue(sse_reply(a_start(), *a_text(0, "hi"), *a_end()))
        model = resolve_model("sonnet[1m]", {**CLAUDE, "ANTHROPIC_BASE_URL": server.url})

        async def go() -> None:
            async for _ in model.stream(ModelRequest(messages=[user_text("hi")])):
                pass

        anyio.run(go)
        request = server.requests[0]
        assert request.body["model"] == "claude-sonnet-4-6"
        assert "context-1m-2025-08-07" in request.headers.get("anthropic-beta", "")
    finally:
        server.stop()
