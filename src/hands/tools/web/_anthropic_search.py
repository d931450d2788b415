"""WebSearch through the Messages API's own web search, for sessions on an Anthropic model.

One request to the session's model carries the server tool (``web_search_20250305``, at
most 8 searches, the call's domain filters); the API runs the searches and answers with
``server_tool_use`` and ``web_search_tool_result`` blocks, which become the hits. The
sentences the model cites give each page its snippet. The call itself went through
hands' permissions and hooks like any other WebSearch.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from hands.core.messages import TextBlock, WebSearchToolResultBlock, user_text
from hands.errors import ModelError, ToolError
from hands.models.base import BlockComplete, ModelRequest
from hands.tools.web._backends import MAX_SEARCHES_PER_CALL, Hit, Query

if TYPE_CHECKING:
    from hands.models.base import Model

SEARCH_TOOL_TYPE = "web_search_20250305"
MAX_TOKENS = 2_048

_SYSTEM = (
    "You run web searches for another assistant. Search for what the user message asks, "
    "then say in a few sentences what the results show, citing them."
)
_ERRORS = {
    "max_uses_exceeded": "it reached its limit of searches for one call",
    "too_many_requests": "it is limiting requests; wait before searching again",
    "invalid_tool_input": "the query was not accepted; rephrase it",
    "query_too_long": "the query is too long; shorten it",
    "request_too_large": "the request was too large; shorten the query",
    "unavailable": "the search service is unavailable; try again later",
}


def is_anthropic(model: Model | None) -> bool:
    """Whether ``model`` talks to the Anthropic Messages API (which has the web search)."""
    if model is None:
        return False
    from hands.models.facts import facts_of

    return facts_of(model).capabilities.server_web_search


def search_tool(query: Query, *, max_uses: int = MAX_SEARCHES_PER_CALL) -> dict[str, Any]:
    """The server tool's definition for one call, with the call's domain filters."""
    tool: dict[str, Any] = {"type": SEARCH_TOOL_TYPE, "name": "web_search", "max_uses": max_uses}
    if query.allowed:
        tool["allowed_domains"] = list(query.allowed)
    elif query.blocked:
        tool["blocked_domains"] = list(query.blocked)
    return tool


@dataclass(frozen=True, kw_only=True, slots=True)
class AnthropicSearchBackend:
    """Searches with the API's web search through the session's Anthropic model."""

    model: Model
    max_uses: int = MAX_SEARCHES_PER_CALL
    name: str = "Anthropic web search"
    pages: bool = False

    async def search(self, query: Query) -> Sequence[Hit]:
        request = ModelRequest(
            messages=(user_text(f"Search the web for: {query.text}"),),
            system=_SYSTEM,
            max_tokens=MAX_TOKENS,
            server_tools=(search_tool(query, max_uses=self.max_uses),),
        )
        results: list[WebSearchToolResultBlock] = []
        cited: dict[str, str] = {}
        try:
            async for event in self.model.stream(request):
                if not isinstance(event, BlockComplete):
                    continue
                if isinstance(event.block, WebSearchToolResultBlock):
                    results.append(event.block)
                elif isinstance(event.block, TextBlock):
                    _note_citations(event.block.citations, cited)
        except ModelError as exc:
            raise ToolError(
                f"{self.name} failed ({exc}). If the API key's organization does not have "
                "web search turned on, tell the user to turn it on in the Anthropic Console "
                "or to choose another backend with HANDS_WEBSEARCH_BACKEND (ddgs needs no key)."
            ) from None
        return _hits(results, cited)


def _note_citations(citations: Sequence[Mapping[str, Any]], cited: dict[str, str]) -> None:
    for citation in citations:
        url, text = citation.get("url"), citation.get("cited_text")
        if isinstance(url, str) and isinstance(text, str) and url not in cited:
            cited[url] = text


def _hits(results: Sequence[WebSearchToolResultBlock], cited: Mapping[str, str]) -> list[Hit]:
    hits = [
        Hit(title=page.title or page.url, url=page.url, snippet=cited.get(page.url, ""))
        for block in results
        for page in block.results
    ]
    errors = [b.error_code for b in results if b.error_code is not None]
    if not hits and errors:
        why = _ERRORS.get(errors[0], errors[0])
        raise ToolError(f"Anthropic web search failed: {why} ({errors[0]}).")
    return hits
