"""WebSearch: ask the configured search backend, filter by domain, list the results."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING

from pydantic import Field

from hands.core.context import ToolContext
from hands.core.schema import ToolInput
from hands.core.tool import Progress, ReadOnlyTool, ToolResult
from hands.core.words import plural

if TYPE_CHECKING:
    from rich.console import RenderableType

    from hands.tools.web._backends import Hit, SearchBackend

DEFAULT_SESSION_CAP = 200
CAP_VARIABLES = ("HANDS_MAX_WEB_SEARCHES_PER_SESSION", "CLAUDE_CODE_MAX_WEB_SEARCHES_PER_SESSION")

DESCRIPTION = """Search the web and get back result titles, URLs and snippets.

- Use it for anything past your knowledge or likely to have changed: current versions,
  recent events, documentation you need to check.
- allowed_domains keeps only results from those domains (and their subdomains);
  blocked_domains drops results from them. Give one of the two, not both.
- It does not open the pages: fetch a result with WebFetch to read it.
- When you use the results in your answer, cite them: list the URLs you relied on as
  Markdown links under a "Sources:" heading."""


class WebSearchInput(ToolInput):
    """Input of WebSearch."""

    query: str = Field(min_length=2, description="What to search the web for")
    allowed_domains: list[str] | None = Field(
        default=None, description="Keep only results on these domains"
    )
    blocked_domains: list[str] | None = Field(
        default=None, description="Drop every result on these domains"
    )


@dataclass(frozen=True, kw_only=True, slots=True)
class SearchResults:
    """What a search found."""

    query: str
    backend: str
    hits: tuple[Hit, ...] = ()
    searches: int = 0
    """Backend requests made for this call."""
    dropped: int = 0
    """Results the domain filters removed."""
    capped: int | None = None
    """Set to the session's limit when it was reached and nothing was searched."""


class SearchBudget:
    """Searches made in this session (the main agent's and sub-agents' alike)."""

    def __init__(self, *, limit: int | None = None) -> None:
        self.limit = cap_from_env() if limit is None else limit
        self.used = 0

    def take(self) -> bool:
        """Count one search; False when the limit is already reached."""
        if self.used >= self.limit:
            return False
        self.used += 1
        return True


def cap_from_env(env: Mapping[str, str] | None = None) -> int:
    """The per-session search limit: the first cap variable set to a number ≥ 0."""
    from hands.core.env import whole

    value = whole("HANDS_MAX_WEB_SEARCHES_PER_SESSION", env)
    return DEFAULT_SESSION_CAP if value is None else value


class WebSearchTool(ReadOnlyTool[WebSearchInput, SearchResults]):
    """Search the web with the configured backend."""

    name = "WebSearch"
    in_background_agents = True
    asks_when_read_only = True
    description = DESCRIPTION
    input_model = WebSearchInput
    search_hint = "search the web for current information"

    def __init__(self, *, backend: SearchBackend | None = None) -> None:
        self._backend = backend

    async def validate_input(self, input: WebSearchInput, ctx: ToolContext) -> str | None:
        if input.allowed_domains and input.blocked_domains:
            return (
                "Give allowed_domains or blocked_domains, not both: keep only some domains, "
                "or drop some."
            )
        if not input.query.strip() or len(input.query.strip()) < 2:
            return "The query needs at least 2 characters."
        return None

    async def call(
        self, input: WebSearchInput, ctx: ToolContext, progress: Progress
    ) -> ToolResult[SearchResults]:
        from hands.models.base import SessionModel  # lazy: start-up
        from hands.tools.web._backends import (  # lazy: start-up
            MAX_SEARCHES_PER_CALL,
            PAGE_SIZE,
            Query,
        )
        from hands.tools.web._choice import backend_from_env  # lazy: start-up
        from hands.tools.web._domains import clean_domain, passes  # lazy: start-up

        backend = self._backend or backend_from_env(model=ctx.session.service(SessionModel).model)
        budget = ctx.session.service(SearchBudget)
        if not budget.take():
            out = SearchResults(query=input.query, backend=backend.name, capped=budget.limit)
            return ToolResult(output=out)
        allowed = tuple(d for d in map(clean_domain, input.allowed_domains or ()) if d)
        blocked = tuple(d for d in map(clean_domain, input.blocked_domains or ()) if d)
        hits: list[Hit] = []
        seen: set[str] = set()
        dropped = 0
        searches = 0
        for page in range(MAX_SEARCHES_PER_CALL):
            searches += 1
            query = Query(text=input.query.strip(), allowed=allowed, blocked=blocked, page=page)
            found = await backend.search(query)
            fresh = [h for h in found if h.url and h.url not in seen]
            seen.update(h.url for h in fresh)
            kept = [h for h in fresh if passes(h.url, allowed, blocked)]
            dropped += len(fresh) - len(kept)
            hits.extend(kept)
            progress(
                f"{plural(len(hits), 'result')} after {plural(searches, 'search', 'searches')}"
            )
            if len(hits) >= PAGE_SIZE or not fresh or not backend.pages:
                break
        out = SearchResults(
            query=input.query,
            backend=backend.name,
            hits=tuple(hits[:PAGE_SIZE]),
            searches=searches,
            dropped=dropped,
        )
        return ToolResult(output=out)

    def to_content(self, output: SearchResults) -> str:
        if output.capped is not None:
            return (
                f"No search was made: this session has used its {output.capped} web searches "
                "(HANDS_MAX_WEB_SEARCHES_PER_SESSION). Continue with what you have already "
                "found."
            )
        head = f'Web search for "{output.query}" ({output.backend}):'
        if not output.hits:
            why = (
                f" ({plural(output.dropped, 'result')} left out by the domain filters)"
                if output.dropped
                else ""
            )
            return f"{head} no results{why}. Try other words or fewer filters."
        lines = [head, ""]
        for n, hit in enumerate(output.hits, 1):
            lines.append(f"{n}. {hit.title}")
            lines.append(f"   {hit.url}")
            if hit.snippet:
                lines.append(f"   {_one_line(hit.snippet)}")
        lines.append("")
        lines.append(
            "Cite what you use from these results: end your answer with a Sources: list of "
            "the URLs as Markdown links."
        )
        return "\n".join(lines)

    def render_result(self, output: SearchResults) -> RenderableType:
        from hands.core.render import dim_text

        if output.capped is not None:
            return dim_text(f"Session limit of {output.capped} searches reached")
        return dim_text(
            f"{plural(len(output.hits), 'result')} from {output.backend} "
            f"({plural(output.searches, 'search', 'searches')})"
        )


def _one_line(text: str, limit: int = 300) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= limit else flat[: limit - 1] + "…"


__all__ = ["WebSearchInput", "WebSearchTool"]
