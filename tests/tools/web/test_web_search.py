"""WebSearch against loopback servers that speak each backend's documented API."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from hands.tools.web._backends import BraveBackend, SearxngBackend
from hands.tools.web._choice import backend_from_env
from hands.tools.web.web_search import SearchBudget, WebSearchInput, WebSearchTool, cap_from_env
from tools.web.conftest import Web
from tools.web.search_servers import SearchApi, search_api


def hits(*domains: str, start: int = 0) -> list[dict[str, str]]:
    return [
        {
            "title": f"Result {start + i} on {d}",
            "url": f"https://{d}/page{start + i}",
            "snippet": f"about {d}",
        }
        for i, d in enumerate(domains)
    ]


@pytest.fixture(autouse=True)
def clean_env(monkeypatch: pytest.MonkeyPatch) -> None:
    for var in (
        "HANDS_WEBSEARCH_BACKEND",
        "BRAVE_API_KEY",
        "BRAVE_SEARCH_API_KEY",
        "TAVILY_API_KEY",
        "SEARXNG_URL",
        "HANDS_BRAVE_URL",
        "HANDS_TAVILY_URL",
        "HTTP_PROXY",
        "HTTPS_PROXY",
        "ALL_PROXY",
        "http_proxy",
        "https_proxy",
        "HANDS_MAX_WEB_SEARCHES_PER_SESSION",
        "CLAUDE_CODE_MAX_WEB_SEARCHES_PER_SESSION",
        "DDGS_PROXY",
    ):
        monkeypatch.delenv(var, raising=False)


@pytest.fixture
def search(web: Web) -> Web:
    web.tools = [WebSearchTool()]
    return web


def run(web: Web, **input: Any) -> Any:
    return web.run("WebSearch", engine=web.engine(allow=("WebSearch",)), **input)


@pytest.fixture
def brave(monkeypatch: pytest.MonkeyPatch) -> Iterator[SearchApi]:
    api = SearchApi()
    with search_api("brave", api) as url:
        monkeypatch.setenv("BRAVE_API_KEY", api.key)
        monkeypatch.setenv("HANDS_BRAVE_URL", url + "/res/v1/web/search")
        yield api


def test_brave_results_are_numbered_with_urls_snippets_and_a_citation_reminder(
    search: Web, brave: SearchApi
) -> None:
    brave.pages = [hits("docs.python.org", "example.com") + hits(*["x.org"] * 8, start=2)]
    out = run(search, query="python asyncio")
    text = out.block.text
    assert not out.is_error, text
    assert 'Web search for "python asyncio" (Brave Search)' in text
    assert (
        "1. Result 0 on docs.python.org\n   https://docs.python.org/page0\n   about docs.python.org"
        in text
    )
    assert "Sources:" in text
    (seen,) = brave.seen
    assert seen.path == "/res/v1/web/search" and seen.query["q"] == "python asyncio"
    assert seen.headers["x-subscription-token"] == "secret-key"


def test_allowed_domains_filter_and_page_through_at_most_eight_searches(
    search: Web, brave: SearchApi
) -> None:
    brave.pages = [hits("a.com", "b.com", start=10 * p) for p in range(20)]
    text = run(search, query="anything", allowed_domains=["https://www.A.com/"]).block.text
    assert "b.com" not in text and "a.com/page0" in text and "a.com/page70" in text
    assert len(brave.seen) == 8 and "a.com/page80" not in text


def test_blocked_domains_drop_subdomains_too(search: Web, brave: SearchApi) -> None:
    brave.pages = [hits("docs.evil.com", "evil.com", "good.org", "notevil.com")]
    text = run(search, query="anything", blocked_domains=["evil.com"]).block.text
    assert (
        "good.org" in text
        and "notevil.com" in text
        and "evil.com/page" not in text.replace("notevil.com", "")
    )


def test_both_domain_lists_is_an_error(search: Web, brave: SearchApi) -> None:
    out = run(search, query="q1", allowed_domains=["a.com"], blocked_domains=["b.com"])
    assert out.is_error and "not both" in out.block.text and brave.seen == []


def test_a_one_character_query_is_an_error(search: Web, brave: SearchApi) -> None:
    out = run(search, query="x")
    assert out.is_error and brave.seen == []


@pytest.mark.parametrize(
    ("fault", "says"),
    [
        ("malformed", "not JSON"),
        ("auth", "refused the API key"),
        ("ratelimit", "HTTP 429"),
        ("shape", "unexpected shape"),
    ],
)
def test_backend_faults_are_errors_that_say_what_happened(
    search: Web, brave: SearchApi, fault: str, says: str
) -> None:
    brave.fault = fault
    out = run(search, query="anything")
    assert out.is_error and says in out.block.text and "Traceback" not in out.block.text


def test_tavily_gets_the_domain_filters_and_a_bearer_key(
    search: Web, monkeypatch: pytest.MonkeyPatch
) -> None:
    api = SearchApi(pages=[hits("docs.python.org", "other.org")])
    with search_api("tavily", api) as url:
        monkeypatch.setenv("TAVILY_API_KEY", api.key)
        monkeypatch.setenv("HANDS_TAVILY_URL", url + "/search")
        text = run(search, query="asyncio tasks", allowed_domains=["docs.python.org"]).block.text
    assert "(Tavily)" in text and "docs.python.org/page0" in text and "other.org" not in text
    (seen,) = api.seen
    assert seen.method == "POST" and seen.headers["authorization"] == "Bearer secret-key"
    assert seen.body["query"] == "asyncio tasks" and seen.body["include_domains"] == [
        "docs.python.org"
    ]


def test_tavily_auth_error(search: Web, monkeypatch: pytest.MonkeyPatch) -> None:
    api = SearchApi()
    with search_api("tavily", api) as url:
        monkeypatch.setenv("TAVILY_API_KEY", "wrong")
        monkeypatch.setenv("HANDS_TAVILY_URL", url + "/search")
        out = run(search, query="anything")
    assert out.is_error and "HTTP 401" in out.block.text


def test_searxng_json_api(search: Web, monkeypatch: pytest.MonkeyPatch) -> None:
    api = SearchApi(pages=[hits("one.org"), hits("two.org", start=1)])
    with search_api("searxng", api) as url:
        monkeypatch.setenv("SEARXNG_URL", url + "/")
        text = run(search, query="self hosted").block.text
    assert "(SearXNG)" in text and "one.org/page0" in text and "two.org/page1" in text
    assert [s.query["pageno"] for s in api.seen] == ["1", "2", "3"]
    assert all(s.path == "/search" and s.query["format"] == "json" for s in api.seen)


def test_an_unreachable_backend_is_an_error(search: Web, monkeypatch: pytest.MonkeyPatch) -> None:
    with search_api("searxng", SearchApi()) as url:
        pass  # closed: nothing listens there now
    monkeypatch.setenv("SEARXNG_URL", url)
    out = run(search, query="anything")
    assert out.is_error and "Could not reach SearXNG" in out.block.text


@pytest.fixture
def duckduckgo(monkeypatch: pytest.MonkeyPatch) -> Iterator[SearchApi]:
    """ddgs itself (its HTTP client, its parsing) sent to a loopback results page."""
    from ddgs.engines.duckduckgo import Duckduckgo

    api = SearchApi()
    with search_api("duckduckgo", api) as url:
        monkeypatch.setattr(Duckduckgo, "search_url", url + "/html/")
        yield api


def test_ddgs_is_the_keyless_default_and_its_results_are_mapped(
    search: Web, duckduckgo: SearchApi
) -> None:
    assert backend_from_env({}).name == "DuckDuckGo"
    duckduckgo.pages = [
        [
            {
                "title": "asyncio — Asynchronous I/O",
                "url": "https://docs.python.org/3/library/asyncio.html",
                "snippet": "asyncio is a library to write concurrent code using async/await.",
            }
        ]
    ]
    out = run(search, query="python asyncio")
    text = out.block.text
    assert not out.is_error, text
    assert 'Web search for "python asyncio" (DuckDuckGo)' in text
    assert (
        "1. asyncio — Asynchronous I/O\n   https://docs.python.org/3/library/asyncio.html\n"
        "   asyncio is a library to write concurrent code using async/await." in text
    )
    assert "Sponsored" not in text and "y.js" not in text  # ddgs drops the ads
    first = duckduckgo.seen[0]
    assert first.method == "POST" and first.body["q"] == "python asyncio"


def test_ddgs_pages_and_domain_filters(search: Web, duckduckgo: SearchApi) -> None:
    duckduckgo.pages = [
        hits("example.com", "example.com", "python.org"),
        hits("docs.python.org", "example.com", start=3),
        [],
    ]
    out = run(search, query="python docs", allowed_domains=["python.org"])
    text = out.block.text
    assert "https://python.org/page2" in text and "https://docs.python.org/page3" in text
    assert "example.com" not in text and "left out" not in text
    assert [s.body.get("s", "") for s in duckduckgo.seen] == ["", "10", "25"]


def test_ddgs_without_results_and_its_failure_are_clear(
    search: Web, duckduckgo: SearchApi, monkeypatch: pytest.MonkeyPatch
) -> None:
    out = run(search, query="nothing at all")
    assert not out.is_error and "no results" in out.block.text
    # a proxy where nothing listens: ddgs cannot connect
    with search_api("searxng", SearchApi()) as url:
        pass
    monkeypatch.setenv("DDGS_PROXY", url)
    out = run(search, query="anything")
    assert out.is_error and "DuckDuckGo" in out.block.text


def test_backend_choice_and_messages_when_none_can_work() -> None:
    assert isinstance(backend_from_env({"BRAVE_SEARCH_API_KEY": "k"}), BraveBackend)
    assert isinstance(backend_from_env({"SEARXNG_URL": "http://s"}), SearxngBackend)
    with pytest.raises(Exception, match="TAVILY_API_KEY is not set"):
        backend_from_env({"HANDS_WEBSEARCH_BACKEND": "tavily"})
    with pytest.raises(Exception, match="names no search backend"):
        backend_from_env({"HANDS_WEBSEARCH_BACKEND": "altavista"})


def test_the_session_cap_returns_a_notice_not_an_error(
    search: Web, brave: SearchApi, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("HANDS_MAX_WEB_SEARCHES_PER_SESSION", "1")
    brave.pages = [hits("a.com")]
    assert not run(search, query="first").is_error
    capped = run(search, query="second")
    assert not capped.is_error and "Continue with what you have" in capped.block.text
    assert {s.query["q"] for s in brave.seen} == {"first"}


def test_the_cap_variables() -> None:
    assert cap_from_env({}) == 200
    assert cap_from_env({"CLAUDE_CODE_MAX_WEB_SEARCHES_PER_SESSION": "5"}) == 5
    assert SearchBudget(limit=0).take() is False


def test_no_rule_means_asking_and_rules_take_no_specifier(search: Web, brave: SearchApi) -> None:
    out = search.run("WebSearch", engine=search.engine(allow=()), query="anything")
    assert out.status == "rejected" and brave.seen == []
    tool = WebSearchTool()
    assert tool.subject is None
    data = WebSearchInput(query="qq")
    assert tool.is_read_only(data) and tool.is_concurrency_safe(data)
