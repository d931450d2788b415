"""Pick a model from ``--model PROVIDER:NAME`` or the environment.

``anthropic:NAME``
    The Anthropic Messages API. Needs ``ANTHROPIC_API_KEY`` (or ``ANTHROPIC_AUTH_TOKEN``);
    ``ANTHROPIC_BASE_URL`` points it at a proxy or a compatible server.
``openai:NAME``
    OpenAI Chat Completions, or any compatible server (Ollama, vLLM, llama.cpp, LM Studio,
    OpenRouter) when ``OPENAI_BASE_URL`` (or ``base_url``) is set; ``OPENAI_API_KEY`` is
    needed only by servers that check it.
``scripted:FILE``
    Replays a JSON script (see :mod:`hands.models.scripted`), offline.

Without a spec: ``HANDS_MODEL`` if set, else Anthropic when ``ANTHROPIC_API_KEY`` (or
``ANTHROPIC_AUTH_TOKEN``) is set, else OpenAI when ``OPENAI_API_KEY`` or
``OPENAI_BASE_URL`` is. ``ANTHROPIC_MODEL`` / ``OPENAI_MODEL`` name the model then.

The SDKs are imported only when a provider is built.
"""

from __future__ import annotations

import os
from collections.abc import Mapping

from hands.errors import ConfigError
from hands.models.base import Model

NO_MODEL = (
    "No model is configured. Set ANTHROPIC_API_KEY to use Claude, OPENAI_API_KEY to use "
    "OpenAI, or OPENAI_BASE_URL and OPENAI_MODEL for a local OpenAI-compatible server "
    "(e.g. OPENAI_BASE_URL=http://localhost:11434/v1 OPENAI_MODEL=qwen3 for Ollama); or "
    "pass --model anthropic:NAME, openai:NAME or scripted:FILE. `hands demo` runs offline "
    "without any model."
)


def resolve_model(
    spec: str | None,
    env: Mapping[str, str] | None = None,
    *,
    base_url: str | None = None,
    settings_model: str | None = None,
) -> Model:
    """The model named by ``spec`` (``PROVIDER:NAME``), or the one the environment offers.

    ``base_url`` overrides the provider's base-URL variable. ``settings_model`` is the
    settings files' ``model``: a full Claude model id (``claude-...``) names the Anthropic
    model when neither ``spec`` nor ``ANTHROPIC_MODEL`` does (Claude Code's aliases such
    as ``opus`` are not resolved: see :func:`settings_model_note`). Raises ConfigError
    with what to set when nothing usable is configured.
    """
    env = os.environ if env is None else env
    if settings_model and settings_model.startswith("claude-") and not env.get("ANTHROPIC_MODEL"):
        env = {**env, "ANTHROPIC_MODEL": settings_model}
    spec = (spec or env.get("HANDS_MODEL") or "").strip() or _from_environment(env)
    provider, sep, name = spec.partition(":")
    provider = provider.strip().lower()
    if provider == "scripted":
        if not name:
            raise ConfigError("--model scripted:FILE needs the path of a script file")
        from hands.models.scripted import ScriptedModel

        return ScriptedModel.from_file(name)
    if provider == "anthropic":
        return _anthropic(name.strip() if sep else "", env, base_url)
    if provider == "openai":
        return _openai(name.strip() if sep else "", env, base_url)
    raise ConfigError(
        f"unknown model {spec!r}: expected anthropic:NAME, openai:NAME or scripted:FILE"
    )


def _from_environment(env: Mapping[str, str]) -> str:
    if env.get("ANTHROPIC_API_KEY") or env.get("ANTHROPIC_AUTH_TOKEN"):
        return "anthropic:"
    if env.get("OPENAI_API_KEY") or env.get("OPENAI_BASE_URL"):
        return "openai:"
    raise ConfigError(NO_MODEL)


def _anthropic(name: str, env: Mapping[str, str], base_url: str | None) -> Model:
    api_key = env.get("ANTHROPIC_API_KEY") or None
    auth_token = env.get("ANTHROPIC_AUTH_TOKEN") or None
    url = base_url or env.get("ANTHROPIC_BASE_URL") or None
    if api_key is None and auth_token is None:
        raise ConfigError(
            "anthropic models need an API key: set ANTHROPIC_API_KEY (or ANTHROPIC_AUTH_TOKEN "
            "for a bearer token); `hands demo` runs offline without one"
        )
    from hands.models.anthropic import DEFAULT_MODEL, AnthropicModel

    return AnthropicModel(
        name or env.get("ANTHROPIC_MODEL") or DEFAULT_MODEL,
        api_key=api_key,
        auth_token=auth_token,
        base_url=url,
    )


def _openai(name: str, env: Mapping[str, str], base_url: str | None) -> Model:
    api_key = env.get("OPENAI_API_KEY") or None
    url = base_url or env.get("OPENAI_BASE_URL") or None
    if api_key is None and url is None:
        raise ConfigError(
            "openai models need OPENAI_API_KEY, or OPENAI_BASE_URL for a local "
            "OpenAI-compatible server (e.g. http://localhost:11434/v1 for Ollama); "
            "`hands demo` runs offline without either"
        )
    from hands.models.openai import DEFAULT_MODEL, OpenAIModel

    model = name or env.get("OPENAI_MODEL") or ""
    if not model:
        if url is not None:
            raise ConfigError(
                f"which model should the server at {url} run? Pass --model openai:NAME or "
                "set OPENAI_MODEL"
            )
        model = DEFAULT_MODEL

    return OpenAIModel(model, api_key=api_key, base_url=url)


def settings_model_note(settings_model: object) -> str | None:
    """A notice for a settings ``model`` that hands does not use, or None."""
    if not isinstance(settings_model, str) or not settings_model:
        return None
    if settings_model.startswith("claude-"):
        return None
    return (
        f"the settings' model {settings_model!r} is a Claude Code alias that hands does not "
        'resolve; set ANTHROPIC_MODEL (or "model" in the settings) to a full model id, '
        "or pass --model anthropic:NAME"
    )
