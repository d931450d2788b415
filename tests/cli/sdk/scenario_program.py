#!/usr/bin/env python3
"""An Agent SDK program with a fake Anthropic API of its own, run in the oracle's sandbox.

Started in place of the oracle's agent with ``--target PATH`` (Claude Code or hands).
The scenario is JSON in ``SDK_SCENARIO``:

* ``main`` / ``sub``: the turns (lists of content blocks) the fake API plays for the main
  conversation (its first message holds ``MAIN``) and for a sub-agent (``SUBTASK``);
  any other request (titles, probes) gets a short text;
* ``hold_sub``: the sub-agent's first reply waits until the program has its first result;
* ``go_file``: a file the program creates when it has its first result (a background
  command can wait for it);
* ``results``: how many results to wait for (a ``ClaudeSDKClient`` session);
* ``options``: more ``ClaudeAgentOptions`` fields (``model``, ``extra_args``, ``plugins``,
  ``allowed_tools`` …); ``hands_extra_args``: extra flags for hands only;
* ``files``: files to write under the working directory first.

It prints one JSON line per SDK message (``sdk_message``: the type, the subtype, the
system data), one per request the fake API served (``api``: who, turn, the
``anthropic-beta`` header, ``output_config``, ``thinking``, the last message's text),
then the oracle's ``result`` line last.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import threading
import time
import uuid
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import anyio
from claude_agent_sdk import (
    AssistantMessage,
    ClaudeAgentOptions,
    ClaudeSDKClient,
    ResultMessage,
    SystemMessage,
    UserMessage,
)

FIRST_RESULT = threading.Event()


def _text(content: Any) -> str:
    if isinstance(content, str):
        return content
    parts: list[str] = []
    blocks: list[dict[str, Any]] = content or []
    for block in blocks:
        if block.get("type") == "text":
            parts.append(block.get("text", ""))
        elif block.get("type") == "tool_result":
            parts.append(_text(block.get("content")))
    return "\n".join(parts)


def _sse(blocks: list[dict[str, Any]], model: str) -> bytes:
    stop = "tool_use" if any(b["type"] == "tool_use" for b in blocks) else "end_turn"
    usage = {"input_tokens": 100, "output_tokens": 10}
    start: dict[str, Any] = {
        "id": f"msg_{uuid.uuid4().hex[:20]}",
        "type": "message",
        "role": "assistant",
        "model": model,
        "content": [],
        "stop_reason": None,
        "usage": usage,
    }
    events: list[tuple[str, dict[str, Any]]] = [("message_start", {"message": start})]
    for i, block in enumerate(blocks):
        opened: dict[str, Any]
        if block["type"] == "tool_use":
            opened = {"type": "tool_use", "id": block.get("id") or f"toolu_{uuid.uuid4().hex[:20]}",
                      "name": block["name"], "input": {}}  # fmt: skip
            delta = {"type": "input_json_delta", "partial_json": json.dumps(block["input"])}
        else:
            opened = {"type": "text", "text": ""}
            delta = {"type": "text_delta", "text": block["text"]}
        events += [
            ("content_block_start", {"index": i, "content_block": opened}),
            ("content_block_delta", {"index": i, "delta": delta}),
            ("content_block_stop", {"index": i}),
        ]
    events += [
        ("message_delta", {"delta": {"stop_reason": stop}, "usage": {"output_tokens": 10}}),
        ("message_stop", {}),
    ]
    return "".join(
        f"event: {name}\ndata: {json.dumps({'type': name, **data})}\n\n" for name, data in events
    ).encode()


class Api(ThreadingHTTPServer):
    daemon_threads = True

    def __init__(self, scenario: dict[str, Any]) -> None:
        super().__init__(("127.0.0.1", 0), Handler)
        self.scenario = scenario
        self.log: list[dict[str, Any]] = []
        self.lock = threading.Lock()


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server: Api  # pyright: ignore[reportIncompatibleVariableOverride]

    def log_message(self, format: str, *args: Any) -> None:
        pass

    def do_POST(self) -> None:
        size = int(self.headers.get("Content-Length") or 0)
        body: dict[str, Any] = json.loads(self.rfile.read(size) or b"{}")
        if self.path.split("?")[0].endswith("/count_tokens"):
            self._send("application/json", json.dumps({"input_tokens": 100}).encode())
            return
        messages: list[dict[str, Any]] = body.get("messages") or []
        first = next((_text(m["content"]) for m in messages if m.get("role") == "user"), "")
        who = "side"
        if body.get("tools") and "SUBTASK" in first:
            who = "sub"
        elif body.get("tools") and "MAIN" in first:
            who = "main"
        turn = sum(1 for m in messages if m.get("role") == "assistant")
        with self.server.lock:
            self.server.log.append(
                {"type": "api", "who": who, "turn": turn,
                 "beta": self.headers.get("anthropic-beta"),
                 "output_config": body.get("output_config"), "thinking": body.get("thinking"),
                 "last": _text(messages[-1]["content"]) if messages else ""}
            )  # fmt: skip
        script: list[list[dict[str, Any]]] = self.server.scenario.get(who, [])
        if who == "side":
            blocks = [{"type": "text", "text": "ok"}]
        elif turn < len(script):
            blocks = script[turn]
        else:
            blocks = [{"type": "text", "text": f"{who} done"}]
        if who == "sub" and turn == 0 and self.server.scenario.get("hold_sub"):
            FIRST_RESULT.wait(60)
        self._send("text/event-stream", _sse(blocks, body.get("model") or "claude"))

    def _send(self, kind: str, payload: bytes) -> None:
        self.send_response(200)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(payload)))
        self.send_header("request-id", f"req_{uuid.uuid4().hex[:12]}")
        self.end_headers()
        self.wfile.write(payload)
        self.wfile.flush()


def _line(message: Any) -> dict[str, Any]:
    line: dict[str, Any] = {"type": "sdk_message", "kind": type(message).__name__}
    if isinstance(message, SystemMessage):
        line["subtype"] = message.subtype
        line["data"] = message.data
    elif isinstance(message, ResultMessage):
        line |= {"subtype": message.subtype, "result": message.result}
    elif isinstance(message, AssistantMessage | UserMessage):
        line["parent"] = message.parent_tool_use_id
    return line


async def run(target: str, text: str) -> None:
    scenario: dict[str, Any] = json.loads(os.environ.get("SDK_SCENARIO", "{}"))
    for name, content in scenario.get("files", {}).items():
        path = Path.cwd() / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(content)
    api = Api(scenario)
    threading.Thread(target=api.serve_forever, daemon=True).start()
    more: dict[str, Any] = dict(scenario.get("options", {}))
    if "hands" in Path(target).name:
        more["extra_args"] = {**more.get("extra_args", {}), **scenario.get("hands_extra_args", {})}
    if "plugins" in more:
        more["plugins"] = [{"type": "local", "path": str(Path.cwd() / p)} for p in more["plugins"]]
    fields: dict[str, Any] = {"model": "claude-sonnet-4-5", **more}
    options = ClaudeAgentOptions(
        cli_path=target,
        cwd=os.getcwd(),
        env={
            "HOME": os.environ.get("HOME", "/tmp"),
            "ANTHROPIC_BASE_URL": f"http://127.0.0.1:{api.server_address[1]}",
        },
        **fields,
    )
    go = scenario.get("go_file")
    lines: list[dict[str, Any]] = []
    results = 0
    with anyio.move_on_after(90):
        async with ClaudeSDKClient(options) as client:
            await client.query(f"MAIN {text}")
            async for message in client.receive_messages():
                lines.append(_line(message))
                if isinstance(message, ResultMessage):
                    results += 1
                    FIRST_RESULT.set()
                    if go:
                        Path(go).touch()
                    if results >= scenario.get("results", 1):
                        break
    time.sleep(0.2)
    for line in [*lines, *api.log]:
        print(json.dumps(line), flush=True)
    print(json.dumps({"type": "result", "is_error": results == 0, "result": f"{results} results"}))


def main() -> None:
    parser = argparse.ArgumentParser(add_help=False)
    parser.add_argument("--target", required=True)
    parser.add_argument("-p", "--print", dest="prompt", default="go")
    args, _ = parser.parse_known_args()
    sys.exit(anyio.run(run, args.target, args.prompt))


if __name__ == "__main__":
    main()
