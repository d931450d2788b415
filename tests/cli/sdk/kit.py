"""What the Agent SDK tests share: hands as the SDK's CLI, a project, models to drive it."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from claude_agent_sdk import ClaudeAgentOptions, Message, ResultError, ResultMessage, query

from models.loopback import LoopbackServer, Reply, sse_reply
from models.wire import a_end, a_start, a_text, a_tool

HANDS = str(Path(sys.executable).parent / "hands")
"""The ``hands`` script of the environment running the tests."""


def project(tmp_path: Path) -> tuple[Path, Path]:
    """A project directory and a HOME of its own (no user settings of the machine)."""
    root, home = tmp_path / "project", tmp_path / "home"
    root.mkdir(exist_ok=True)
    home.mkdir(exist_ok=True)
    return root, home


def scripted(tmp_path: Path, *turns: Sequence[dict[str, Any]]) -> str:
    """A scripted model: each turn a list of blocks (``{"type": "text", ...}``...)."""
    path = tmp_path / f"script-{len(list(tmp_path.glob('script-*.json')))}.json"
    path.write_text(json.dumps({"turns": [{"blocks": list(blocks)} for blocks in turns]}))
    return f"scripted:{path}"


def text(value: str, delay_ms: float = 0) -> dict[str, Any]:
    return {"type": "text", "text": value, "delay_ms": delay_ms}


def tool_use(name: str, **input: Any) -> dict[str, Any]:
    return {"type": "tool_use", "name": name, "input": input}


def options(tmp_path: Path, model: str, **kw: Any) -> ClaudeAgentOptions:
    """SDK options that start hands in a fresh project with ``model``."""
    root, home = project(tmp_path)
    env = {"HOME": str(home), **kw.pop("env", {})}
    return ClaudeAgentOptions(cli_path=HANDS, cwd=str(root), model=model, env=env, **kw)


async def run(prompt: str, opts: ClaudeAgentOptions) -> list[Message]:
    """Every message of a one-shot ``query()``.

    After an error result the CLI exits 1 (as Claude Code does) and the SDK raises
    ``ResultError`` once the messages are out; that error is expected here.
    """
    messages: list[Message] = []
    try:
        async for message in query(prompt=prompt, options=opts):
            messages.append(message)
    except ResultError:
        last = messages[-1] if messages else None
        if not (isinstance(last, ResultMessage) and last.is_error):
            raise
    return messages


def anthropic_env(server: LoopbackServer) -> dict[str, str]:
    """The environment that sends hands' Anthropic requests to the loopback server."""
    return {
        "ANTHROPIC_API_KEY": "test-key",
        "ANTHROPIC_BASE_URL": server.url,
        "NO_PROXY": "127.0.0.1",
        "HTTP_PROXY": "",
        "HTTPS_PROXY": "",
    }


def said(words: str, *, id: str = "msg_t", input_tokens: int = 1000) -> Reply:
    """An Anthropic streamed reply of one text block."""
    return sse_reply(a_start(id=id, input_tokens=input_tokens), *a_text(0, words), *a_end())


def calls(name: str, input: dict[str, Any], *, id: str = "toolu_1") -> Reply:
    """An Anthropic streamed reply of one tool_use block."""
    return sse_reply(
        a_start(id=f"msg_{id}"), *a_tool(0, id, name, json.dumps(input)), *a_end("tool_use")
    )


def tool_results(body: dict[str, Any]) -> list[dict[str, Any]]:
    """The tool_result blocks of a recorded request's last message."""
    content = body["messages"][-1]["content"]
    return [b for b in content if isinstance(b, dict) and b.get("type") == "tool_result"]


def result_text(block: dict[str, Any]) -> str:
    content = block["content"]
    if isinstance(content, str):
        return content
    return "".join(part.get("text", "") for part in content)


def refused_line(tmp_path: Path, flags: Sequence[str]) -> str:
    """The one stderr line of a hands that refuses ``flags`` with exit 2 and no output."""
    proc = subprocess.run(
        [HANDS, "--output-format", "stream-json", "--input-format", "stream-json", *flags],
        input="", capture_output=True, text=True, cwd=tmp_path, timeout=60,
        env={**os.environ, "HOME": str(tmp_path)},
    )  # fmt: skip
    assert proc.returncode == 2 and proc.stdout == "", (proc.returncode, proc.stdout)
    [line] = proc.stderr.splitlines()
    assert line.startswith("hands: ")
    return line
