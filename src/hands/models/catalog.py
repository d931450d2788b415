"""What hands knows about a model: its provider, its context window, its API's abilities.

The one place these facts live. Each model object carries its own as
:class:`~hands.models.facts.ModelFacts` (``model.facts``), made from these tables; the
rest of hands asks the object.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

DEFAULT_WINDOW = 200_000
"""The window of a model the table does not know."""

WINDOWS: dict[str, int] = {
    "claude": 200_000,
    "gpt-4o": 128_000,
    "gpt-4-turbo": 128_000,
    "gpt-4.1": 1_047_576,
    "gpt-5": 400_000,
    "o1": 200_000,
    "o3": 200_000,
    "o4": 200_000,
    "gemini": 1_048_576,
    "llama": 128_000,
    "qwen": 131_072,
    "deepseek": 128_000,
    "mistral": 128_000,
}
"""Context windows by model name prefix (the provider's ``PROVIDER:`` left off); the
longest matching prefix wins."""

ONE_MILLION = ("[1m]", "-1m")
"""A model name ending so (``claude-sonnet-4-5[1m]``) has a 1,000,000-token window."""


@dataclass(frozen=True, kw_only=True, slots=True)
class Capabilities:
    """What a provider's API does beyond streaming a turn with tools."""

    tool_references: bool = False
    """It expands ``tool_reference`` items, so deferred tools are sent flagged."""
    server_web_search: bool = False
    """It runs a web search tool of its own."""
    bare_ids: bool = False
    """Its model ids are shown without the provider (``claude-sonnet-4-5``), as Claude
    Code shows them."""
    key_variables: tuple[str, ...] = ()
    """The environment variables its API key is read from, first found wins."""
    base_url_variable: str = ""
    """The environment variable that points its client at another address."""
    api_address: str = ""
    """Its HTTP API's own address; empty: none (a script)."""


_CAPABILITIES: dict[str, Capabilities] = {
    "anthropic": Capabilities(
        tool_references=True,
        server_web_search=True,
        bare_ids=True,
        key_variables=("ANTHROPIC_API_KEY", "ANTHROPIC_AUTH_TOKEN"),
        base_url_variable="ANTHROPIC_BASE_URL",
        api_address="https://api.anthropic.com",
    ),
    "openai": Capabilities(
        key_variables=("OPENAI_API_KEY",),
        base_url_variable="OPENAI_BASE_URL",
        api_address="https://api.openai.com/v1",
    ),
}

HTTP_PROVIDERS: Mapping[str, Capabilities] = {
    name: found for name, found in _CAPABILITIES.items() if found.api_address
}
"""The providers hands reaches over HTTP, by name (a batch's gateway forwards to them)."""


def context_window(model: str | None, overrides: Mapping[str, int] | None = None) -> int:
    """The window of ``model`` (``provider:name`` or ``name``), in tokens.

    ``overrides`` (the settings' ``contextWindows``: a name or prefix → tokens) win over
    the table.
    """
    model = model or ""
    found = window_override(model, overrides)
    if found is not None:
        return found
    name = model.partition(":")[2] or model
    if name.lower().endswith(ONE_MILLION):
        return 1_000_000
    return _longest_prefix(name, WINDOWS) or DEFAULT_WINDOW


def window_override(model: str, overrides: Mapping[str, int] | None) -> int | None:
    """The window ``overrides`` (a name or prefix → tokens) give ``model``; None: none."""
    if not overrides:
        return None
    name = model.partition(":")[2] or model
    return _longest_prefix(name, overrides) or _longest_prefix(model, overrides)


def provider_of(model: object) -> str:
    """The provider of a model object (its ``provider``) or of a ``provider:name`` spec."""
    declared = getattr(model, "provider", None)
    if isinstance(declared, str) and declared:
        return declared
    name = model if isinstance(model, str) else getattr(model, "name", "")
    provider, sep, _rest = str(name).partition(":")
    return provider.lower() if sep else ""


def capabilities(provider: str) -> Capabilities:
    """What the API of ``provider`` (``anthropic``, ``openai``...) can do."""
    return _CAPABILITIES.get(provider, Capabilities())


def _longest_prefix(name: str, table: Mapping[str, int]) -> int | None:
    if name in table:
        return table[name]
    matches = [p for p in table if name.lower().startswith(p.lower())]
    return table[max(matches, key=len)] if matches else None


__all__ = [
    "DEFAULT_WINDOW",
    "HTTP_PROVIDERS",
    "WINDOWS",
    "Capabilities",
    "capabilities",
    "context_window",
    "provider_of",
    "window_override",
]
