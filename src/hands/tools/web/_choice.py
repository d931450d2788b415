"""Which search backend WebSearch uses: the one named, the one with a key, or a default."""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import TYPE_CHECKING

from hands.core.env import text
from hands.errors import ToolError
from hands.tools.web._anthropic_search import AnthropicSearchBackend, is_anthropic
from hands.tools.web._backends import (
    BRAVE_URL,
    TAVILY_URL,
    BraveBackend,
    DdgsBackend,
    SearchBackend,
    SearxngBackend,
    TavilyBackend,
)

if TYPE_CHECKING:
    from hands.models.base import Model

BACKEND_VARIABLE = "HANDS_WEBSEARCH_BACKEND"


def backend_from_env(
    env: Mapping[str, str] | None = None, *, model: Model | None = None
) -> SearchBackend:
    """The backend the environment configures; ToolError when none can work.

    ``HANDS_WEBSEARCH_BACKEND`` names one; else the first of Brave, Tavily and SearXNG
    with a key or URL set, else the API's own web search when the session's ``model`` is
    an Anthropic one, else DuckDuckGo.
    """
    env = os.environ if env is None else env
    chosen = (text(BACKEND_VARIABLE, env) or "").lower()
    brave = env.get("BRAVE_API_KEY") or env.get("BRAVE_SEARCH_API_KEY") or ""
    tavily = env.get("TAVILY_API_KEY", "")
    searxng = env.get("SEARXNG_URL", "")
    if not chosen:
        chosen = "brave" if brave else "tavily" if tavily else "searxng" if searxng else ""
        chosen = chosen or ("anthropic" if is_anthropic(model) else "ddgs")
    if chosen == "anthropic":
        if model is None or not is_anthropic(model):
            raise ToolError(
                f"{BACKEND_VARIABLE}=anthropic searches with the Anthropic API's own web "
                "search, which needs the session to run on an Anthropic model; this one does "
                "not. Tell the user to choose brave, tavily, searxng or ddgs instead."
            )
        return AnthropicSearchBackend(model=model)
    if chosen == "brave":
        if not brave:
            raise ToolError(_unset("Brave Search", "BRAVE_API_KEY"))
        return BraveBackend(key=brave, url=text("HANDS_BRAVE_URL", env) or BRAVE_URL)
    if chosen == "tavily":
        if not tavily:
            raise ToolError(_unset("Tavily", "TAVILY_API_KEY"))
        return TavilyBackend(key=tavily, url=text("HANDS_TAVILY_URL", env) or TAVILY_URL)
    if chosen == "searxng":
        if not searxng:
            raise ToolError(_unset("SearXNG", "SEARXNG_URL (the instance's base URL)"))
        return SearxngBackend(url=searxng)
    if chosen in ("ddgs", "duckduckgo"):
        try:
            import ddgs  # noqa: F401  # pyright: ignore[reportUnusedImport]
        except ImportError:
            raise ToolError(
                "Web search is not available: the keyless DuckDuckGo backend needs the ddgs "
                "package (pip install ddgs), or set BRAVE_API_KEY, TAVILY_API_KEY or "
                "SEARXNG_URL. Tell the user."
            ) from None
        return DdgsBackend()
    raise ToolError(
        f"{BACKEND_VARIABLE}={chosen!r} names no search backend; use anthropic, brave, "
        "tavily, searxng or ddgs. Tell the user."
    )


def _unset(name: str, variable: str) -> str:
    return (
        f"Web search is set to use {name}, but {variable} is not set. Tell the user to set "
        f"it, or to choose another backend with {BACKEND_VARIABLE}."
    )
