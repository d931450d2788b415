"""Asking about a project's MCP servers: every server is listed before "use all"."""

from __future__ import annotations

import json
from pathlib import Path

import anyio

from hands.mcp.approval import ask_about
from hands.mcp.config import parse_config


def test_use_all_comes_after_every_server_and_approves_the_listed_ones(tmp_path: Path) -> None:
    entries = {
        "files": {"command": "npx", "args": ["-y", "files-server", "/data"]},
        "search": {"type": "http", "url": "https://search.example/mcp"},
        "db": {"command": "db-mcp", "args": ["--read-only"]},
    }
    servers, _ = parse_config({"mcpServers": entries}, env={}, scope="project", source="x")
    asked: list[str] = []

    async def ask(text: str) -> str:
        asked.append(text)
        return "2"

    answers = anyio.run(lambda: ask_about(servers, project_dir=tmp_path, ask=ask))
    assert answers == {"files": True, "search": True, "db": True}
    (question,) = asked  # one answer covered the rest
    use_all = question.index("2. Use all 3 servers listed above")
    for shown in ("npx -y files-server /data", "search: http https://search.example/mcp",
                  "db: db-mcp --read-only"):  # fmt: skip
        assert -1 < question.index(shown) < use_all, question
    saved = json.loads((tmp_path / ".claude" / "settings.local.json").read_text())
    assert saved["enabledMcpjsonServers"] == ["files", "search", "db"]


def test_one_server_left_is_asked_about_alone(tmp_path: Path) -> None:
    servers, _ = parse_config(
        {"mcpServers": {"a": {"command": "a-server"}, "b": {"command": "b-server"}}},
        env={}, scope="project", source="x",
    )  # fmt: skip
    asked: list[str] = []
    replies = ["3", "1"]

    async def ask(text: str) -> str:
        asked.append(text)
        return replies.pop(0)

    answers = anyio.run(lambda: ask_about(servers, project_dir=tmp_path, ask=ask))
    assert answers == {"a": False, "b": True}
    assert "b: b-server" in asked[0] and "and 1 more" in asked[0]
    assert "more:" not in asked[1] and "2. Use this project's servers" in asked[1]
