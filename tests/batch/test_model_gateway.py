"""The batch's model gateway: one limit on model requests across every session.

The upstream is a loopback server speaking the Anthropic Messages API (SSE) that answers
slowly and counts how many requests it holds at once; the sessions are real
``hands -p`` processes started by ``hands batch``.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import httpx
import pytest
from batch_helpers import read_results, write_tasks

from hands.batch.gateway import ModelGateway
from models.wire import a_end, a_start, a_text


class SlowMessagesAPI:
    """Answers every Messages request after ``delay`` s; the first ``limited`` get a 429."""

    def __init__(self, *, delay: float = 0.4, limited: int = 0, retry_after: str = "0.3") -> None:
        self.delay = delay
        self.limited = limited
        self.retry_after = retry_after
        self.active = 0
        self.peak = 0
        self.arrivals: list[tuple[float, int]] = []
        self.keys: list[str] = []
        self._lock = threading.Lock()
        outer = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, format: str, *args: Any) -> None:
                pass

            def do_POST(self) -> None:
                self.rfile.read(int(self.headers.get("content-length", "0")))
                with outer._lock:
                    outer.keys.append(self.headers.get("x-api-key", ""))
                    limited = outer.limited > 0
                    outer.limited -= 1 if limited else 0
                    outer.arrivals.append((time.monotonic(), 429 if limited else 200))
                    outer.active += 1
                    outer.peak = max(outer.peak, outer.active)
                try:
                    if limited:
                        error = b'{"type":"error","error":{"type":"rate_limit_error"}}'
                        retry = {"retry-after": outer.retry_after}
                        self._send(429, error, "application/json", retry)
                        return
                    time.sleep(outer.delay)
                    body = b"".join([a_start(), *a_text(0, "all done"), *a_end()])
                    self._send(200, body, "text/event-stream", {})
                finally:
                    with outer._lock:
                        outer.active -= 1

            def _send(self, status: int, body: bytes, kind: str, extra: dict[str, str]) -> None:
                self.send_response(status)
                self.send_header("content-type", kind)
                self.send_header("content-length", str(len(body)))
                for key, value in extra.items():
                    self.send_header(key, value)
                self.end_headers()
                self.wfile.write(body)

        class Server(ThreadingHTTPServer):
            daemon_threads = True

        self.server = Server(("127.0.0.1", 0), Handler)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.server.server_address[1]}"


@pytest.fixture
def upstream() -> Iterator[SlowMessagesAPI]:
    api = SlowMessagesAPI()
    thread = threading.Thread(target=api.server.serve_forever, args=(0.05,), daemon=True)
    thread.start()
    yield api
    api.server.shutdown()
    api.server.server_close()


def anthropic_env(api: SlowMessagesAPI) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if "PROXY" not in k.upper()}
    return {**env, "ANTHROPIC_API_KEY": "sk-test-key", "ANTHROPIC_BASE_URL": api.url,
            "NO_PROXY": "127.0.0.1,localhost"}  # fmt: skip


def post_messages(base: str, count: int) -> list[int]:
    """``count`` Messages requests at once through the gateway; their status codes."""
    codes: list[int] = []

    def one() -> None:
        body = {"model": "m", "max_tokens": 5, "messages": [], "stream": True}
        headers = {"x-api-key": "sk-test-key"}
        with httpx.Client(trust_env=False, timeout=30) as client:
            answer = client.post(f"{base}/v1/messages", json=body, headers=headers)
            assert b"all done" in answer.content
            codes.append(answer.status_code)

    threads = [threading.Thread(target=one) for _ in range(count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    return codes


def test_no_more_requests_reach_the_api_at_once_than_the_limit(
    upstream: SlowMessagesAPI,
) -> None:
    gateway = ModelGateway(limit=2, env=anthropic_env(upstream))
    gateway.start()
    try:
        assert gateway.providers == ("anthropic",)
        base = gateway.session_env()["ANTHROPIC_BASE_URL"]
        assert post_messages(base, 6) == [200] * 6
    finally:
        gateway.stop()
    assert upstream.peak == 2  # held to the limit, and the limit was used
    assert gateway.stats.peak_in_flight == 2
    assert gateway.stats.requests == 6
    assert upstream.keys == ["sk-test-key"] * 6  # the session's own key, passed on


def test_a_rate_limited_answer_holds_every_request_for_the_delay_asked(
    upstream: SlowMessagesAPI,
) -> None:
    upstream.limited = 1
    gateway = ModelGateway(limit=4, env=anthropic_env(upstream))
    gateway.start()
    try:
        base = gateway.session_env()["ANTHROPIC_BASE_URL"]
        codes = post_messages(base, 1)
        later = post_messages(base, 2)
    finally:
        gateway.stop()
    assert codes == [200] and later == [200, 200]  # the 429 was waited out, not passed on
    assert gateway.stats.rate_limited == 1
    (limited_at, status), (retried_at, _) = upstream.arrivals[:2]
    assert status == 429 and retried_at - limited_at >= 0.3  # the retry-after was honoured


def test_only_configured_providers_are_routed() -> None:
    assert ModelGateway(limit=1, env={}).providers == ()
    gateway = ModelGateway(limit=1, env={"OPENAI_API_KEY": "k"})
    assert gateway.providers == ("openai",)
    assert set(gateway.session_env()) == {"OPENAI_BASE_URL"}
    with pytest.raises(ValueError, match="at least 1"):
        ModelGateway(limit=0, env={})


def test_hands_batch_limits_model_requests_across_its_sessions(
    upstream: SlowMessagesAPI, tmp_path: Path
) -> None:
    tasks = write_tasks(
        tmp_path / "tasks.jsonl",
        [{"id": f"t{i}", "prompt": "say done", "files": {"a.txt": "a\n"}} for i in range(5)],
    )
    out = tmp_path / "results.jsonl"
    argv = [sys.executable, "-m", "hands", "batch", str(tasks), "--out", str(out),
            "--concurrency", "5", "--model-concurrency", "2", "--sandbox", "bwrap",
            "--model", "anthropic:claude-sonnet-4-6"]  # fmt: skip
    done = subprocess.run(
        argv, env=anthropic_env(upstream), capture_output=True, text=True, timeout=240
    )
    assert done.returncode == 0, done.stderr
    results = read_results(out)
    assert sorted(r["id"] for r in results) == [f"t{i}" for i in range(5)]
    assert {r["status"] for r in results} == {"completed"}, json.dumps(results)[:2000]
    assert {r["final_text"] for r in results} == {"all done"}
    assert upstream.peak <= 2 and len(upstream.arrivals) == 5
    assert "5 model requests, at most 2 at once (limit 2)" in done.stderr


def test_a_limit_with_no_model_api_configured_is_a_usage_error(tmp_path: Path) -> None:
    tasks = write_tasks(tmp_path / "tasks.jsonl", [{"id": "a", "prompt": "p"}])
    env = {k: v for k, v in os.environ.items() if not k.startswith(("ANTHROPIC_", "OPENAI_"))}
    argv = [sys.executable, "-m", "hands", "batch", str(tasks), "--model-concurrency", "2",
            "--sandbox", "none", "--quiet"]  # fmt: skip
    done = subprocess.run(argv, env=env, capture_output=True, text=True, timeout=60)
    assert done.returncode == 2
    assert "--model-concurrency" in done.stderr and "Traceback" not in done.stderr
