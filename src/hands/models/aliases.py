"""Claude Code's model names: aliases, ``[1m]``, and which provider serves a bare id.

| alias      | anthropic (``ANTHROPIC_DEFAULT_*_MODEL`` overrides) | openai        |
|------------|------------------------------------------------------|---------------|
| ``sonnet`` | claude-sonnet-4-6 (``…_SONNET_MODEL``)               | gpt-4.1       |
| ``opus``   | claude-opus-4-6 (``…_OPUS_MODEL``)                   | o3            |
| ``haiku``  | claude-haiku-4-5 (``…_HAIKU_MODEL``)                 | gpt-4.1-mini  |
| ``default``| the provider's default model                         |               |
| ``opusplan``| ``opus`` in plan mode, ``sonnet`` otherwise         |               |

``sonnet[1m]`` (any alias or Claude id with ``[1m]``) asks for the one-million-token
context window. A bare id is served by the provider its prefix names: ``claude-…`` by
Anthropic; ``gpt-…``, ``o1``/``o3``/``o4…``, ``chatgpt-…`` and ``codex-…`` by OpenAI.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

ALIASES: Mapping[str, Mapping[str, str]] = {
    "anthropic": {
        "sonnet": "claude-sonnet-4-6",
        "opus": "claude-opus-4-6",
        "haiku": "claude-haiku-4-5",
    },
    "openai": {"sonnet": "gpt-4.1", "opus": "o3", "haiku": "gpt-4.1-mini"},
}
"""Each family alias's model, per provider."""

FAMILY_ENV: Mapping[str, str] = {
    "sonnet": "ANTHROPIC_DEFAULT_SONNET_MODEL",
    "opus": "ANTHROPIC_DEFAULT_OPUS_MODEL",
    "haiku": "ANTHROPIC_DEFAULT_HAIKU_MODEL",
}
"""The variable that names an Anthropic family's model instead of the table."""

SPECIAL = ("default", "opusplan")
"""Aliases that are not a family: the provider's default, and opus-for-plans."""

ONE_MILLION = "[1m]"
ONE_MILLION_BETA = "context-1m-2025-08-07"
"""The ``anthropic-beta`` value that opens the one-million-token window."""

_OPENAI_IDS = re.compile(r"(gpt-|chatgpt-|codex-|o\d(\b|-|$))", re.IGNORECASE)


def is_alias(name: str) -> bool:
    """Whether ``name`` is one of Claude Code's aliases (with or without ``[1m]``)."""
    bare = name.lower().removesuffix(ONE_MILLION)
    return bare in FAMILY_ENV or bare in SPECIAL


def provider_of(name: str) -> str | None:
    """The provider a bare id's prefix names, or None (an alias, or an unknown name)."""
    lowered = name.lower()
    if lowered.startswith("claude-"):
        return "anthropic"
    if _OPENAI_IDS.match(lowered):
        return "openai"
    return None


def family_model(alias: str, provider: str, env: Mapping[str, str]) -> str | None:
    """The model a family alias (``sonnet``, ``opus``, ``haiku``) means on ``provider``.

    ``[1m]`` carries over to a Claude model. None when ``provider`` has no such family.
    """
    bare = alias.lower().removesuffix(ONE_MILLION)
    table = ALIASES.get(provider, {})
    if bare not in table:
        return None
    chosen = table[bare]
    if provider == "anthropic":
        chosen = env.get(FAMILY_ENV[bare], "").strip() or chosen
        if alias.lower().endswith(ONE_MILLION) and not chosen.endswith(ONE_MILLION):
            chosen += ONE_MILLION
    return chosen


UNMAPPED_ALIASES = frozenset({"fable"})
"""Aliases Claude Code offers that name no model here: the caller's model is used."""


def agent_model_spec(
    wanted: str | None, parent: str, overrides: Mapping[str, str] | None = None
) -> str | None:
    """The ``PROVIDER:NAME`` a sub-agent asking for ``wanted`` runs on; None: ``parent``.

    ``parent`` is the caller's model's name (``PROVIDER:ID``). A family alias maps to the
    caller's provider's model (a provider without a table keeps the caller's model);
    ``overrides`` (the settings' ``agentModels``) win; ``PROVIDER:NAME`` is taken as
    written and a bare id goes to the caller's provider.
    """
    choice = (wanted or "inherit").strip()
    if not choice or choice.lower() == "inherit" or choice.lower() in UNMAPPED_ALIASES:
        return None
    provider, _, current = parent.partition(":")
    alias = choice.lower()
    if overrides and alias in overrides:
        return overrides[alias]
    table = ALIASES.get(provider)
    if alias in FAMILY_ENV:
        if table is None:
            return None
        choice = table[alias]
    if ":" in choice:
        return choice
    if table is None:
        return None
    return None if choice == current else f"{provider}:{choice}"
