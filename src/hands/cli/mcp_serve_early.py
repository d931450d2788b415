"""``hands mcp serve`` answering a host's first requests before the MCP SDK is loaded.

An MCP host waits for its servers' ``initialize`` and ``tools/list`` answers before it
starts work, and importing the SDK takes most of a second. So hands reads the host's lines
itself from the start (:class:`hands.cli.mcp_stdio.StdioWire`), and while the SDK loads it
answers, from the answers kept by an earlier start with the same inputs
(:mod:`hands.cli.mcp_serve_kept`):

- the opening request (``initialize``, or ``server/discover`` from a host of the
  2026-07-28 protocol, as Claude Code sends first), when it is the host's first message
  and exactly the request kept;
- ``tools/list``, when it is the host's second request (the opening one answered early)
  and exactly the request kept.

Anything else waits, in order, for the SDK. Once the SDK's server is built, the session is
handed over: the SDK reads every line in the order the host sent it, except that each
request answered early comes with an id of hands' own, so the SDK's session goes through
the same opening (the same protocol era, the same handshake) and builds the same tool
list, and its answers to those ids are compared with what was sent instead of being
written. An answer that differs drops the
entry and keeps the SDK's for the next start. Requests the SDK answers itself (the opening
request, the ``tools/list`` after it) are kept the same way, so a start that could
not answer early lets the next one.
"""

from __future__ import annotations

import json
import logging
import queue
import secrets
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, cast

import anyio

from hands.cli.mcp_serve_kept import (
    OPENING_METHODS,
    AnswerStore,
    KeptAnswer,
    KeptAnswers,
    canonical,
    request_text,
)
from hands.cli.mcp_stdio import StdioWire

log = logging.getLogger(__name__)

WATCHED_REQUESTS = 2
"""Only the host's first two requests can be answered early or kept."""


def _request(line: str) -> dict[str, Any] | None:
    """The JSON-RPC request on ``line`` when it plainly is one; None leaves it to the SDK."""
    try:
        message: object = json.loads(line)
    except ValueError:
        return None
    if not isinstance(message, dict):
        return None
    request = cast(dict[str, Any], message)
    ident = request.get("id")
    if (
        set(request) - {"jsonrpc", "id", "method", "params"}
        or request.get("jsonrpc") != "2.0"
        or not isinstance(request.get("method"), str)
        or isinstance(ident, bool)
        or not isinstance(ident, int | str)
    ):
        return None
    return request


def _is_notification(line: str) -> bool:
    """Whether ``line`` is a notification (no answer comes of it, so none waits on it)."""
    try:
        message: object = json.loads(line)
    except ValueError:
        return False
    return isinstance(message, dict) and "id" not in message and "method" in message


def _id_key(ident: object) -> tuple[str, str]:
    return (type(ident).__name__, repr(ident))


@dataclass(kw_only=True)
class _Watched:
    """A request whose answer from the SDK is looked at before it goes out (or not)."""

    method: str
    request: str
    sent: Any = None
    """The result already sent to the host, for a request replayed to the SDK."""
    replayed: bool = False


@dataclass(kw_only=True)
class EarlyAnswers:
    """The host's lines until the SDK takes them: answered early, or queued in order."""

    wire: StdioWire
    store: AnswerStore | None
    kept: KeptAnswers | None
    lines: queue.SimpleQueue[str | None] = field(default_factory=queue.SimpleQueue[str | None])
    _lock: threading.Lock = field(default_factory=threading.Lock)
    _handed_over: bool = False
    _seen: int = 0
    _requests: int = 0
    _blocked: bool = False
    """A message the SDK must answer first is queued: nothing more is answered early."""
    _session_init: KeptAnswer | None = None
    _answered: list[str] = field(default_factory=list[str])
    _watched: dict[tuple[str, str], _Watched] = field(
        default_factory=dict[tuple[str, str], _Watched]
    )

    # -- the reading thread ----------------------------------------------------------

    def on_line(self, line: str | None) -> None:
        """One line from the host (None: the end of its input)."""
        with self._lock:
            if line is None:
                self.lines.put(None)
                return
            self._seen += 1
            if self._blocked or self._requests >= WATCHED_REQUESTS:
                self.lines.put(line)  # nothing more is answered early nor kept
                return
            request = _request(line)
            if request is not None:
                self._requests += 1
                replay = None if self._handed_over else self._answer(request)
                if replay is not None:
                    self.lines.put(replay)
                    return
                self._watch(request)
                if not self._opening(request):
                    self._blocked = True
            elif not _is_notification(line):
                self._blocked = True
            self.lines.put(line)

    def _opening(self, request: dict[str, Any]) -> bool:
        """Whether ``request`` opens the session (see above) and is the host's first line."""
        return request["method"] in OPENING_METHODS and self._seen == 1

    def _answer(self, request: dict[str, Any]) -> str | None:
        """Answer ``request`` from the kept answers if it may be; the line the SDK gets."""
        kept = self.kept
        if kept is None or self._blocked:
            return None
        method, asked = request["method"], request_text(request)
        opening = self._opening(request)
        if opening and asked == kept.opening.request:
            answer = kept.opening
        elif (
            method == "tools/list"
            and self._requests == 2
            and self._session_init is not None
            and kept.tools is not None
            and asked == kept.tools.request
        ):
            answer = kept.tools
        else:
            return None
        reply = {"jsonrpc": "2.0", "id": request["id"], "result": answer.result}
        try:
            self.wire.write(json.dumps(reply, ensure_ascii=False, separators=(",", ":")) + "\n")
        except OSError:
            return None  # the host is gone; the SDK sees its request and finds that out
        if opening:
            self._session_init = answer
        self._answered.append(method)
        log.info("answered %s from the kept answers, before the MCP SDK took over", method)
        replay_id = f"hands-replay-{len(self._answered)}-{secrets.token_hex(6)}"
        self._watched[_id_key(replay_id)] = _Watched(
            method=method, request=asked, sent=answer.result, replayed=True
        )
        return json.dumps({**request, "id": replay_id}, ensure_ascii=False)

    def _watch(self, request: dict[str, Any]) -> None:
        """Keep the SDK's answer to the host's opening request and the list after it."""
        if self.store is None:
            return
        method = request["method"]
        first_init = self._opening(request)
        next_list = method == "tools/list" and self._requests == 2 and not self._blocked
        if first_init or next_list:
            self._watched[_id_key(request["id"])] = _Watched(
                method=method, request=request_text(request)
            )

    # -- the SDK's side ----------------------------------------------------------------

    def hand_over(self) -> None:
        """From now on every line waits for the SDK."""
        with self._lock:
            self._handed_over = True

    def passes(self, text: str) -> bool:
        """Whether the SDK's line ``text`` goes to the host (its answers to replays do not)."""
        if not self._watched:
            return True
        try:
            message: object = json.loads(text)
        except ValueError:
            return True
        if not isinstance(message, dict) or "method" in message:
            return True
        answer = cast(dict[str, Any], message)
        with self._lock:
            watched = self._watched.pop(_id_key(answer.get("id")), None)
        if watched is None:
            return True
        result = answer.get("result") if "error" not in answer else None
        if watched.replayed:
            if result is None or canonical(result) != canonical(watched.sent):
                log.warning(
                    "the kept answer to %s was not the MCP SDK's: it is dropped", watched.method
                )
                self._keep(watched, result, replace=True)
            return False
        if isinstance(result, dict):
            self._keep(watched, result, replace=False)
        return True

    def _keep(self, watched: _Watched, result: Any, *, replace: bool) -> None:
        """Keep the SDK's ``result`` to ``watched`` for the next start."""
        store = self.store
        if store is None:
            return
        answer = (
            KeptAnswer(request=watched.request, result=result) if isinstance(result, dict) else None
        )
        if watched.method in OPENING_METHODS:
            self._session_init = answer
            if answer is None:
                store.drop()
            else:
                store.save(KeptAnswers(opening=answer))
        elif self._session_init is not None and answer is not None:
            store.save(KeptAnswers(opening=self._session_init, tools=answer))
        elif replace:
            store.drop()


@dataclass(kw_only=True)
class HostLines:
    """The host's lines as the SDK's ``stdio_server`` reads them (``async for``)."""

    early: EarlyAnswers

    def __aiter__(self) -> HostLines:
        return self

    async def __anext__(self) -> str:
        line = await anyio.to_thread.run_sync(self.early.lines.get, abandon_on_cancel=True)
        if line is None:
            self.early.lines.put(None)  # whoever reads again finds the end too
            raise StopAsyncIteration
        return line


@dataclass(kw_only=True)
class HostWriter:
    """Where the SDK's ``stdio_server`` writes: the wire, less the answers to replays."""

    early: EarlyAnswers

    async def write(self, text: str) -> None:
        """One line of the SDK's, written unless it answers a replayed request."""
        if self.early.passes(text):
            await anyio.to_thread.run_sync(self.early.wire.write, text)

    async def flush(self) -> None:
        """Nothing to flush: every line is written whole."""
        return None


def start(wire: StdioWire, store: AnswerStore | None) -> EarlyAnswers:
    """Read the host's lines from now on, answering early from ``store``'s entry."""
    early = EarlyAnswers(wire=wire, store=store, kept=None if store is None else store.load())
    wire.read_lines(early.on_line)
    return early


async def serve(early: EarlyAnswers, build: Callable[[], Any]) -> None:
    """Build the SDK's server (``build``: it imports the SDK), then hand the session over."""
    from mcp.server.stdio import stdio_server

    server = build()
    early.hand_over()
    try:
        async with stdio_server(
            cast(Any, HostLines(early=early)), cast(Any, HostWriter(early=early))
        ) as (read, write):
            await server.run(read, write, server.create_initialization_options())
    finally:
        early.lines.put(None)  # a read still waiting ends
