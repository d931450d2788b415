"""Pick a model from ``--model``, ``/model``, the settings or the environment.

``anthropic:NAME``
    The Anthropic Messages API. Needs ``ANTHROPIC_API_KEY`` (or ``ANTHROPIC_AUTH_TOKEN``);
    ``ANTHROPIC_BASE_URL`` points it at a proxy or a compatible server.
``openai:NAME``
    OpenAI Chat Completions, or any compatible server (Ollama, vLLM, llama.cpp, LM Studio,
    OpenRouter) when ``OPENAI_BASE_URL`` (or ``base_url``) is set; ``OPENAI_API_KEY`` is
    needed only by servers that check it.
``scripted:FILE``
    Replays a JSON script (see :mod:`hands.models.scripted`), offline.
``sonnet``, ``opus``, ``haiku``, ``default``, ``opusplan``, ``sonnet[1m]``
    Claude Code's aliases (:mod:`hands.models.aliases`), on the environment's provider.
``claude-opus-4-1``, ``gpt-5``, …
    A bare id, on the provider its prefix names; any other name on the environment's
    provider (a local server's ``qwen3``).

Without a spec: ``HANDS_MODEL`` if set, else Anthropic when ``ANTHROPIC_API_KEY`` (or
``ANTHROPIC_AUTH_TOKEN``) is set, else OpenAI when ``OPENAI_API_KEY`` or
``OPENAI_BASE_URL`` is. ``ANTHROPIC_MODEL`` / ``OPENAI_MODEL`` (an id or an alias), else
the settings' ``model``, name the model then.

The SDKs are imported only when a provider is built.
"""

from __future__ import annotations

import os
from collections.abc import Mapping

from hands.core.env import text as env_text
from hands.errors import ConfigError
from hands.models.aliases import FAMILY_ENV, ONE_MILLION, family_model, is_alias, provider_of
from hands.models.base import Model

NO_MODEL = (
    "No model is configured. Set ANTHROPIC_API_KEY to use Claude, OPENAI_API_KEY to use "
    "OpenAI, or OPENAI_BASE_URL and OPENAI_MODEL for a local OpenAI-compatible server "
    "(e.g. OPENAI_BASE_URL=http://localhost:11434/v1 OPENAI_MODEL=qwen3 for Ollama); or "
    "pass --model anthropic:NAME, openai:NAME or scripted:FILE. `hands demo` runs offline "
    "without any model."
)

PROVIDERS = ("anthropic", "openai", "scripted")

_MODEL_VARIABLE = {"anthropic": "ANTHROPIC_MODEL", "openai": "OPENAI_MODEL"}


def resolve_model(
    spec: str | None,
    env: Mapping[str, str] | None = None,
    *,
    base_url: str | None = None,
    settings_model: str | None = None,
    provider: str | None = None,
) -> Model:
    """The model named by ``spec``, or the one the environment offers.

    ``base_url`` overrides the provider's base-URL variable. ``settings_model`` is the
    settings files' ``model`` (an alias or an id), used when neither ``spec``,
    ``HANDS_MODEL`` nor the provider's model variable names one. ``provider`` serves a
    name no prefix places (``/model`` passes the session's). Raises ConfigError with what
    to set when nothing usable is configured.
    """
    env = os.environ if env is None else env
    text = (spec or env_text("HANDS_MODEL", env) or "").strip()
    if text:
        return _from_text(text, env, base_url, provider)
    offered = _environment_provider(env)
    if offered is None:
        raise ConfigError(NO_MODEL)
    named = env.get(_MODEL_VARIABLE[offered], "").strip()
    if not named and settings_model and usable_settings_model(settings_model, offered):
        named = settings_model.strip()
    return _build(named, offered, env, base_url)


def _from_text(text: str, env: Mapping[str, str], base_url: str | None, hint: str | None) -> Model:
    head, sep, rest = text.partition(":")
    if sep and head.strip().lower() in PROVIDERS:
        return _build(rest.strip(), head.strip().lower(), env, base_url)
    offered = _environment_provider(env)
    if is_alias(text):
        target = hint if hint in ("anthropic", "openai") else offered
    else:
        target = provider_of(text) or hint or offered
    if target is None and is_alias(text):
        raise ConfigError(
            f"{text!r} names a Claude model: set ANTHROPIC_API_KEY (or ANTHROPIC_AUTH_TOKEN), "
            "or OPENAI_API_KEY for its OpenAI counterpart"
        )
    if target is None:
        raise ConfigError(
            f"unknown model {text!r}: expected an alias (sonnet, opus, haiku, default, "
            "opusplan), a model id (claude-…, gpt-…), or anthropic:NAME, openai:NAME or "
            "scripted:FILE"
        )
    return _build(text, target, env, base_url)


def _build(name: str, provider: str, env: Mapping[str, str], base_url: str | None) -> Model:
    if provider == "scripted":
        if not name:
            raise ConfigError("--model scripted:FILE needs the path of a script file")
        from hands.models.scripted import ScriptedModel

        return ScriptedModel.from_file(name)
    if not name:
        name = env.get(_MODEL_VARIABLE[provider], "").strip()
    lowered = name.lower()
    if lowered == "default":
        name = ""
    elif lowered == "opusplan":
        from hands.models.plan_mode import PlanModeModel

        return PlanModeModel(
            label="opusplan",
            plan=_build("opus", provider, env, base_url),
            other=_build("sonnet", provider, env, base_url),
        )
    elif is_alias(name):
        chosen = family_model(name, provider, env)
        if chosen is None:
            raise ConfigError(f"the alias {name!r} names no {provider} model; use {provider}:NAME")
        name = chosen
    if provider == "anthropic":
        return _anthropic(name, env, base_url)
    return _openai(name, env, base_url)


def _environment_provider(env: Mapping[str, str]) -> str | None:
    if env.get("ANTHROPIC_API_KEY") or env.get("ANTHROPIC_AUTH_TOKEN"):
        return "anthropic"
    if env.get("OPENAI_API_KEY") or env.get("OPENAI_BASE_URL"):
        return "openai"
    return None


def usable_settings_model(name: str, provider: str) -> bool:
    """Whether the settings' ``model`` can name a model of ``provider``.

    An alias can; an id whose prefix names another provider cannot (a Claude Code
    setting ``claude-opus-4-1`` while hands runs on OpenAI); an unplaced id can on a
    local OpenAI-compatible server.
    """
    if is_alias(name):
        return True
    placed = provider_of(name)
    return placed == provider or (placed is None and provider == "openai")


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
        name or DEFAULT_MODEL,
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

    model = name
    if not model:
        if url is not None:
            raise ConfigError(
                f"which model should the server at {url} run? Pass --model openai:NAME or "
                "set OPENAI_MODEL"
            )
        model = DEFAULT_MODEL

    return OpenAIModel(model, api_key=api_key, base_url=url)


def settings_model_note(settings_model: object, model: Model) -> str | None:
    """A notice for a settings ``model`` that names no provider hands knows, or None.

    ``model`` is the one the session runs on: only on Anthropic is such a name left
    unused (an OpenAI-compatible server may serve it).
    """
    from hands.models.facts import facts_of

    if not isinstance(settings_model, str) or not settings_model:
        return None
    if facts_of(model).provider != "anthropic":
        return None
    if is_alias(settings_model) or provider_of(settings_model) is not None:
        return None
    return (
        f"the settings' model {settings_model!r} names no provider hands knows; set it to "
        "an alias (sonnet, opus, haiku) or a model id, or pass --model PROVIDER:NAME"
    )


def sdk_model_spec(name: str | None, env: Mapping[str, str] | None = None) -> str | None:
    """The ``PROVIDER:NAME`` spec for the Agent SDKs' ``model`` (None: hands' own choice).

    ``provider:name`` is taken as written; a Claude id or one of Claude Code's aliases
    goes to Anthropic (an alias means the model ``--model`` gives it); any other name to
    the OpenAI-compatible server the environment names when no Anthropic key is set,
    else to Anthropic.
    """
    if name is None or not name.strip():
        return None
    env = os.environ if env is None else env
    name = name.strip()
    head, sep, _ = name.partition(":")
    if sep and head.lower() in PROVIDERS:
        return name
    family = name.lower().removesuffix(ONE_MILLION) in FAMILY_ENV
    if family or name.lower().startswith("claude"):
        return f"anthropic:{name}"
    return f"{_environment_provider(env) or 'anthropic'}:{name}"
