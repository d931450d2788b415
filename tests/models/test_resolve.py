"""``resolve_model``: from ``--model`` or the environment, with clear errors."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from hands.errors import ConfigError
from hands.models.anthropic import AnthropicModel
from hands.models.openai import OpenAIModel
from hands.models.resolve import resolve_model
from hands.models.scripted import ScriptedModel


def test_nothing_configured_says_what_to_set() -> None:
    with pytest.raises(ConfigError) as info:
        resolve_model(None, {})
    message = str(info.value)
    for needed in ("No model is configured", "ANTHROPIC_API_KEY", "OPENAI_API_KEY"):
        assert needed in message
    assert "OPENAI_BASE_URL" in message and "hands demo" in message


def test_environment_prefers_anthropic() -> None:
    model = resolve_model(None, {"ANTHROPIC_API_KEY": "a", "OPENAI_API_KEY": "o"})
    assert isinstance(model, AnthropicModel) and model.name == "anthropic:claude-sonnet-4-6"
    model = resolve_model(None, {"ANTHROPIC_API_KEY": "a", "ANTHROPIC_MODEL": "claude-opus-4-7"})
    assert model.name == "anthropic:claude-opus-4-7"


def test_environment_openai_and_local_servers() -> None:
    model = resolve_model(None, {"OPENAI_API_KEY": "o"})
    assert isinstance(model, OpenAIModel) and model.name == "openai:gpt-4.1"
    assert model.max_tokens_param == "max_completion_tokens"
    local = {"OPENAI_BASE_URL": "http://localhost:11434/v1", "OPENAI_MODEL": "qwen3"}
    model = resolve_model(None, local)
    assert isinstance(model, OpenAIModel) and model.name == "openai:qwen3"
    assert model.base_url == "http://localhost:11434/v1" and model.max_tokens_param == "max_tokens"
    with pytest.raises(ConfigError, match="OPENAI_MODEL"):
        resolve_model(None, {"OPENAI_BASE_URL": "http://localhost:8000/v1"})


def test_explicit_specs() -> None:
    model = resolve_model("anthropic:claude-haiku-4-5", {"ANTHROPIC_AUTH_TOKEN": "t"})
    assert model.name == "anthropic:claude-haiku-4-5"
    model = resolve_model("openai:llama3.1", {}, base_url="http://127.0.0.1:8080/v1")
    assert isinstance(model, OpenAIModel) and model.base_url == "http://127.0.0.1:8080/v1"
    model = resolve_model(None, {"HANDS_MODEL": "openai:gpt-4.1-mini", "OPENAI_API_KEY": "o"})
    assert model.name == "openai:gpt-4.1-mini"


def test_missing_credentials_per_provider() -> None:
    with pytest.raises(ConfigError, match="ANTHROPIC_API_KEY"):
        resolve_model("anthropic:claude-sonnet-4-6", {"OPENAI_API_KEY": "o"})
    with pytest.raises(ConfigError, match="OPENAI_API_KEY, or OPENAI_BASE_URL"):
        resolve_model("openai:gpt-4.1", {"ANTHROPIC_API_KEY": "a"})


def test_scripted_and_unknown(tmp_path: Path) -> None:
    script = tmp_path / "s.json"
    script.write_text(json.dumps({"turns": [{"blocks": [{"type": "text", "text": "hi"}]}]}))
    assert isinstance(resolve_model(f"scripted:{script}", {}), ScriptedModel)
    with pytest.raises(ConfigError, match="unknown model"):
        resolve_model("llama:7b", {})
    with pytest.raises(ConfigError, match="path of a script"):
        resolve_model("scripted:", {})


def test_sdks_load_only_when_a_provider_is_built() -> None:
    # the providers speak HTTP themselves: an SDK is loaded only for a client passed in
    code = (
        "import sys\n"
        "import hands, hands.models.resolve, hands.models.anthropic, hands.models.openai\n"
        "print(sorted(m for m in ('anthropic', 'openai') if m in sys.modules))\n"
        "from hands.models.resolve import resolve_model\n"
        "resolve_model('anthropic:claude-sonnet-4-6', {'ANTHROPIC_API_KEY': 'k'})\n"
        "print(sorted(m for m in ('anthropic', 'openai') if m in sys.modules))\n"
        "resolve_model('openai:gpt-4o', {'OPENAI_API_KEY': 'k'})\n"
        "print(sorted(m for m in ('anthropic', 'openai') if m in sys.modules))\n"
    )
    proc = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=60
    )
    assert proc.stdout.split("\n")[:3] == ["[]", "[]", "[]"]


def test_the_settings_model_names_the_claude_model_after_flags_and_env() -> None:
    from hands.models.resolve import settings_model_note

    env = {"ANTHROPIC_API_KEY": "a"}
    chosen = resolve_model(None, env, settings_model="claude-opus-4-7")
    assert chosen.name == "anthropic:claude-opus-4-7"
    overridden = {**env, "ANTHROPIC_MODEL": "claude-haiku-4-5"}
    assert resolve_model(None, overridden, settings_model="claude-opus-4-7").name == (
        "anthropic:claude-haiku-4-5"
    )
    flag = resolve_model("anthropic:claude-x", env, settings_model="claude-opus-4-7")
    assert flag.name == "anthropic:claude-x"
    alias = resolve_model(None, env, settings_model="haiku")
    assert alias.name == "anthropic:claude-haiku-4-5"  # Claude Code's alias, resolved
    note = settings_model_note("mystery-model", chosen)
    assert note is not None and "'mystery-model'" in note
    assert settings_model_note("opusplan", chosen) is None
    assert settings_model_note("claude-opus-4-7", chosen) is None
    assert settings_model_note(None, chosen) is None
    local = resolve_model(
        None, {"OPENAI_BASE_URL": "http://127.0.0.1:9/v1"}, settings_model="qwen3"
    )
    assert local.name == "openai:qwen3"  # a local server may serve the name: no notice
    assert settings_model_note("mystery-model", local) is None


def test_the_sdks_model_option_names_the_models_the_command_line_does() -> None:
    from hands.models.resolve import sdk_model_spec

    env = {"ANTHROPIC_API_KEY": "a"}
    assert sdk_model_spec("opus", env) == "anthropic:opus"
    same = resolve_model(sdk_model_spec("opus", env), env).name
    assert same == resolve_model("opus", env).name == "anthropic:claude-opus-4-6"
    pinned = {**env, "ANTHROPIC_DEFAULT_OPUS_MODEL": "claude-opus-4-1"}
    assert resolve_model(sdk_model_spec("opus", pinned), pinned).name == "anthropic:claude-opus-4-1"
    openai = {"OPENAI_API_KEY": "o"}
    assert sdk_model_spec("sonnet[1m]", openai) == "anthropic:sonnet[1m]"  # a Claude family
    assert sdk_model_spec("claude-x", openai) == "anthropic:claude-x"
    assert sdk_model_spec("opusplan", openai) == "openai:opusplan"  # not a family: the server's
    local = {"OPENAI_BASE_URL": "http://127.0.0.1:9/v1"}
    assert sdk_model_spec("qwen3", local) == "openai:qwen3"
    assert sdk_model_spec("qwen3", {**local, **env}) == "anthropic:qwen3"
    assert sdk_model_spec("qwen3", {}) == "anthropic:qwen3"
    assert sdk_model_spec(" scripted:/tmp/s.json ", env) == "scripted:/tmp/s.json"
    assert sdk_model_spec("  ", env) is None and sdk_model_spec(None, env) is None
