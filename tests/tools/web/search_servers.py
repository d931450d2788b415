"""Loopback servers speaking the search APIs' HTTP: Brave, Tavily, SearXNG (their JSON
APIs as documented) and DuckDuckGo's HTML results page (the markup ``ddgs`` reads)."""

from __future__ import annotations

import html
import json
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, cast
from urllib.parse import parse_qs, urlsplit


@dataclass
class Seen:
    method: str
    path: str
    query: dict[str, str]
    headers: dict[str, str]
    body: Any


@dataclass
class SearchApi:
    """What the fake answers: ``results`` per page, or a fault."""

    pages: list[list[dict[str, str]]] = field(default_factory=lambda: [])
    fault: str = ""
    """"": answer; "malformed": broken JSON; "auth": 401; "ratelimit": 429; "shape": a list."""
    key: str = "secret-key"
    seen: list[Seen] = field(default_factory=lambda: [])


def _results(kind: str, api: SearchApi, page: int) -> Any:
    items = api.pages[page] if page < len(api.pages) else []
    if kind == "brave":
        return {
            "type": "search",
            "query": {"original": "q"},
            "web": {
                "type": "search",
                "results": [
                    {"title": i["title"], "url": i["url"], "description": i["snippet"]}
                    for i in items
                ],
            },
        }
    if kind == "tavily":
        return {
            "query": "q",
            "results": [
                {"title": i["title"], "url": i["url"], "content": i["snippet"], "score": 0.9}
                for i in items
            ],
            "response_time": 0.5,
        }
    return {
        "query": "q",
        "number_of_results": len(items),
        "results": [
            {"title": i["title"], "url": i["url"], "content": i["snippet"], "engine": "x"}
            for i in items
        ],
    }


def _duckduckgo_html(items: list[dict[str, str]]) -> str:
    """A results page in the markup of html.duckduckgo.com/html/, with one ad first."""
    ad = (
        '<div class="result results_links results_links_deep result--ad">'
        '<div class="links_main links_deep result__body">'
        '<h2 class="result__title"><a class="result__a" href="https://duckduckgo.com/y.js?ad=1">'
        "Sponsored</a></h2>"
        '<a class="result__snippet" href="https://duckduckgo.com/y.js?ad=1">Buy now</a>'
        "</div></div>"
    )
    rows = [
        '<div class="result results_links results_links_deep web-result">'
        '<div class="links_main links_deep result__body">'
        f'<h2 class="result__title"><a rel="nofollow" class="result__a" href="{i["url"]}">'
        f"{html.escape(i['title'])}</a></h2>"
        f'<div class="result__extras"><a class="result__url" href="{i["url"]}">{i["url"]}</a></div>'
        f'<a class="result__snippet" href="{i["url"]}">{html.escape(i["snippet"])}</a>'
        '<div class="clear"></div></div></div>'
        for i in items
    ]
    body = "".join([ad, *rows]) if items else '<div class="no-results">No results.</div>'
    return (
        '<!DOCTYPE html><html><head><meta charset="utf-8"><title>q at DuckDuckGo</title>'
        f'</head><body><div id="links" class="results">{body}</div></body></html>'
    )


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, format: str, *args: Any) -> None:
        pass

    @property
    def fake(self) -> _Server:
        return cast(_Server, self.server)

    def do_GET(self) -> None:
        self._answer(None)

    def do_POST(self) -> None:
        length = int(self.headers.get("Content-Length", "0"))
        raw = self.rfile.read(length) if length else b""
        if "json" in self.headers.get("Content-Type", ""):
            self._answer(json.loads(raw))
        else:  # a form, as DuckDuckGo's HTML page is sent
            form = parse_qs(raw.decode(), keep_blank_values=True)
            self._answer({k: v[0] for k, v in form.items()})

    def _answer(self, body: Any) -> None:
        parts = urlsplit(self.path)
        query = {k: v[0] for k, v in parse_qs(parts.query).items()}
        headers = {k.lower(): v for k, v in self.headers.items()}
        api, kind = self.fake.api, self.fake.kind
        api.seen.append(Seen(self.command, parts.path, query, headers, body))
        if api.fault == "malformed":
            return self._send(200, b'{"web": {"results": [', "application/json")
        if api.fault == "ratelimit":
            return self._send(429, b'{"error": "rate limited"}', "application/json")
        authorised = {
            "brave": headers.get("x-subscription-token") == api.key,
            "tavily": headers.get("authorization") == f"Bearer {api.key}",
        }.get(kind, True)
        if api.fault == "auth" or not authorised:
            return self._send(
                401, b'{"detail": {"error": "Unauthorized: invalid key"}}', "application/json"
            )
        if api.fault == "shape":
            return self._send(200, b"[1, 2, 3]", "application/json")
        if kind == "duckduckgo":
            # ddgs asks for page n > 1 with s = 10 + (n - 2) * 15
            start = int(body.get("s", "0") or "0")
            page = 0 if start == 0 else (start - 10) // 15 + 1
            items = api.pages[page] if page < len(api.pages) else []
            return self._send(200, _duckduckgo_html(items).encode(), "text/html; charset=utf-8")
        if kind == "brave":
            page = int(query.get("offset", "0"))
        elif kind == "searxng":
            page = int(query.get("pageno", "1")) - 1
        else:
            page = 0
        data = json.dumps(_results(kind, api, page)).encode()
        self._send(200, data, "application/json")

    def _send(self, status: int, body: bytes, ctype: str) -> None:
        self.send_response(status)
        self.send_header("Content-Type", ctype)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)


class _Server(ThreadingHTTPServer):
    daemon_threads = True

    def __init__(self, kind: str, api: SearchApi) -> None:
        super().__init__(("127.0.0.1", 0), _Handler)
        self.kind = kind
        self.api = api


@contextmanager
def search_api(kind: str, api: SearchApi) -> Iterator[str]:
    """Serve ``api`` as ``kind`` (brave, tavily, searxng, duckduckgo); yields the base URL."""
    server = _Server(kind, api)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()
