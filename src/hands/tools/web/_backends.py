"""Search backends behind one Protocol: Brave, Tavily, SearXNG and DuckDuckGo (ddgs)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol, cast

from hands.errors import ToolError

if TYPE_CHECKING:
    import httpx

BRAVE_URL = "https://api.search.brave.com/res/v1/web/search"
TAVILY_URL = "https://api.tavily.com/search"
PAGE_SIZE = 10
MAX_SEARCHES_PER_CALL = 8
"""Backend searches one WebSearch call may make (pages asked for, or the API's searches)."""
_TIMEOUT_S = 20.0


@dataclass(frozen=True, kw_only=True, slots=True)
class Hit:
    """One search result."""

    title: str
    url: str
    snippet: str = ""


@dataclass(frozen=True, kw_only=True, slots=True)
class Query:
    """One backend request: the text, the domain filters and which page of results."""

    text: str
    allowed: tuple[str, ...] = ()
    blocked: tuple[str, ...] = ()
    page: int = 0
    """0 for the first page of results."""


class SearchBackend(Protocol):
    """Anything that answers a query with hits; raises ToolError with what went wrong."""

    @property
    def name(self) -> str:
        """What the backend is called in results and errors."""
        ...

    @property
    def pages(self) -> bool:
        """Whether asking for the next page can give more results."""
        ...

    async def search(self, query: Query) -> Sequence[Hit]:
        """The hits of one page."""
        ...


@dataclass(frozen=True, kw_only=True, slots=True)
class BraveBackend:
    """The Brave Search API (``X-Subscription-Token``; ``web.results``)."""

    key: str
    url: str = BRAVE_URL
    name: str = "Brave Search"
    pages: bool = True

    async def search(self, query: Query) -> Sequence[Hit]:
        params = {"q": query.text, "count": str(PAGE_SIZE), "offset": str(query.page)}
        headers = {"X-Subscription-Token": self.key, "Accept": "application/json"}
        data = await _request(self.name, "GET", self.url, params=params, headers=headers)
        web = _field(data, "web", self.name)
        results = [] if web is None else _list(_field(web, "results", self.name), self.name)
        return [_hit(r, "title", "url", "description") for r in results]


@dataclass(frozen=True, kw_only=True, slots=True)
class TavilyBackend:
    """Tavily's search API (bearer key; ``include_domains``/``exclude_domains``)."""

    key: str
    url: str = TAVILY_URL
    name: str = "Tavily"
    pages: bool = False

    async def search(self, query: Query) -> Sequence[Hit]:
        body: dict[str, Any] = {"query": query.text, "max_results": PAGE_SIZE}
        if query.allowed:
            body["include_domains"] = list(query.allowed)
        if query.blocked:
            body["exclude_domains"] = list(query.blocked)
        headers = {"Authorization": f"Bearer {self.key}"}
        data = await _request(self.name, "POST", self.url, json=body, headers=headers)
        results = _list(_field(data, "results", self.name), self.name)
        return [_hit(r, "title", "url", "content") for r in results]


@dataclass(frozen=True, kw_only=True, slots=True)
class SearxngBackend:
    """A SearXNG instance's JSON API (``/search?format=json``)."""

    url: str
    name: str = "SearXNG"
    pages: bool = True

    async def search(self, query: Query) -> Sequence[Hit]:
        params = {"q": query.text, "format": "json", "pageno": str(query.page + 1)}
        endpoint = self.url.rstrip("/") + "/search"
        data = await _request(self.name, "GET", endpoint, params=params, headers={})
        results = _list(_field(data, "results", self.name), self.name)
        return [_hit(r, "title", "url", "content") for r in results]


@dataclass(frozen=True, kw_only=True, slots=True)
class DdgsBackend:
    """DuckDuckGo through the ``ddgs`` package: no key needed."""

    name: str = "DuckDuckGo"
    pages: bool = True

    async def search(self, query: Query) -> Sequence[Hit]:
        import anyio.to_thread

        return await anyio.to_thread.run_sync(lambda: self._search(query))

    def _search(self, query: Query) -> Sequence[Hit]:
        from ddgs.ddgs import DDGS
        from ddgs.exceptions import DDGSException

        try:
            found = DDGS().text(
                query.text, max_results=PAGE_SIZE, page=query.page + 1, backend="duckduckgo"
            )
        except DDGSException as exc:
            if "no results" in str(exc).lower():
                return []
            raise ToolError(f"{self.name} search failed ({exc}). Try again later.") from None
        return [_hit(r, "title", "href", "body") for r in found]


async def _request(
    name: str,
    method: str,
    url: str,
    *,
    headers: Mapping[str, str],
    params: Mapping[str, str] | None = None,
    json: object = None,
) -> object:
    import httpx

    try:
        async with httpx.AsyncClient(timeout=_TIMEOUT_S) as client:
            response = await client.request(method, url, params=params, json=json, headers=headers)
    except httpx.HTTPError as exc:
        raise ToolError(
            f"Could not reach {name} ({type(exc).__name__}: {exc or 'no answer'}). Try again later."
        ) from None
    _check_status(name, response)
    try:
        return response.json()
    except ValueError:
        raise ToolError(
            f"{name} answered with something that is not JSON (HTTP {response.status_code}, "
            f"{len(response.content):,} bytes). Try again later."
        ) from None


def _check_status(name: str, response: httpx.Response) -> None:
    status = response.status_code
    if status < 400:
        return
    detail = response.text.strip()[:300]
    if status in (401, 403):
        raise ToolError(
            f"{name} refused the API key (HTTP {status}: {detail}). Tell the user to check it."
        )
    if status == 429:
        raise ToolError(
            f"{name} is limiting requests (HTTP 429). Wait before searching again, or continue "
            "with what you have."
        )
    raise ToolError(f"{name} failed (HTTP {status}: {detail}). Try again later.")


def _field(data: object, key: str, name: str) -> object:
    if not isinstance(data, Mapping):
        raise ToolError(f"{name} answered with JSON of an unexpected shape (not an object).")
    return cast(Mapping[str, object], data).get(key)


def _list(value: object, name: str) -> list[Mapping[str, object]]:
    if value is None:
        return []
    if not isinstance(value, list):
        raise ToolError(f"{name} answered with JSON of an unexpected shape (results not a list).")
    items = cast(list[object], value)
    return [cast(Mapping[str, object], v) for v in items if isinstance(v, Mapping)]


def _hit(item: Mapping[str, object], title: str, url: str, snippet: str) -> Hit:
    def text(key: str) -> str:
        value = item.get(key)
        return value.strip() if isinstance(value, str) else ""

    return Hit(title=text(title) or text(url), url=text(url), snippet=text(snippet))
