"""Loopback servers speaking the search APIs' documented HTTP: Brave, Tavily, SearXNG."""

from __future__ import annotations

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
        self._answer(json.loads(self.rfile.read(length)) if length else None)

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
    """Serve ``api`` as ``kind`` (brave, tavily, searxng); yields the base URL."""
    server = _Server(kind, api)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()
