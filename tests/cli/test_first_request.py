"""``hands -p``'s first request from the kept tool list: the same bytes as without it, and
a changed input never sends a wrong list unnoticed (nothing of a wrong answer runs)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from models.loopback import LoopbackServer, Recorded, Reply, sse_reply
from models.wire import a_end, a_start, a_text, a_tool

DEMO_SERVER = Path(__file__).parents[1] / "mcp" / "servers" / "demo.py"
EARLY = "the first request went out early, from the kept tool list"
AGAIN = "the kept tool list was not the session's: the first request was sent again"


def _done() -> Reply:
    return sse_reply(a_start(), *a_text(0, "Done."), *a_end())


@dataclass(kw_only=True)
class Session:
    """One folder, home and hands home; runs ``hands -p`` in them against ``server``."""

    root: Path
    server: LoopbackServer
    args: list[str] = field(default_factory=lambda: list[str]())
    env: dict[str, str] = field(default_factory=lambda: dict[str, str]())

    @property
    def project(self) -> Path:
        return self.root / "project"

    @property
    def home(self) -> Path:
        return self.root / "home"

    @property
    def hands_home(self) -> Path:
        return self.root / "hands-home"

    def kept(self) -> list[Path]:
        return sorted((self.hands_home / "first-request").glob("*.json"))

    def run(
        self, *extra: str, reply: Reply | None = None
    ) -> tuple[subprocess.CompletedProcess[str], list[Recorded]]:
        """Run ``hands -p go``; the process and the model requests it sent."""
        before = len(self.server.requests)
        self.server.queue(reply or _done())
        env = {
            k: v
            for k, v in os.environ.items()
            if not k.startswith(("ANTHROPIC_", "OPENAI_", "HANDS_", "CLAUDE_"))
        }
        env.update(
            HOME=str(self.home),
            HANDS_HOME=str(self.hands_home),
            ANTHROPIC_API_KEY="k",
            ANTHROPIC_BASE_URL=self.server.url,
            NO_PROXY="127.0.0.1",
            **self.env,
        )
        argv = [sys.executable, "-m", "hands", "-p", "go", "--model", "sonnet"]
        argv += ["--output-format", "stream-json", "--verbose", *self.args, *extra]
        proc = subprocess.run(
            argv, capture_output=True, text=True, cwd=self.project, env=env, timeout=120
        )
        assert proc.returncode == 0, proc.stderr
        assert "Traceback" not in proc.stderr
        sent = [
            r for r in self.server.requests[before:] if r.path.partition("?")[0] == "/v1/messages"
        ]
        return proc, sent


def _session(tmp_path: Path, server: LoopbackServer, name: str) -> Session:
    session = Session(root=tmp_path / name, server=server)
    for folder in (session.project, session.home, session.hands_home):
        folder.mkdir(parents=True)
    return session


def _agent(folder: Path) -> None:
    agents = folder / ".claude" / "agents"
    agents.mkdir(parents=True, exist_ok=True)
    (agents / "reviewer.md").write_text(
        "---\nname: reviewer\ndescription: Reviews a change for mistakes.\n---\nReview it.\n"
    )


def _skill(folder: Path) -> None:
    skill = folder / ".claude" / "skills" / "notes"
    skill.mkdir(parents=True)
    (skill / "SKILL.md").write_text(
        "---\nname: notes\ndescription: Keeps meeting notes tidy.\n---\nTidy the notes.\n"
    )


def _settings(session: Session, data: dict[str, Any]) -> None:
    folder = session.home / ".claude"
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "settings.json").write_text(json.dumps(data))


def _mcp(session: Session) -> None:
    config = session.root / "mcp.json"
    server = {"command": sys.executable, "args": [str(DEMO_SERVER)]}
    config.write_text(json.dumps({"mcpServers": {"demo": server}}))
    session.args += ["--mcp-config", str(config)]


def _tool_names(request: Recorded) -> list[str]:
    return [t["name"] for t in request.body.get("tools", [])]


VARIANTS = {
    "plain": lambda s: None,
    "a deny rule": lambda s: _settings(s, {"permissions": {"deny": ["WebFetch"]}}),
    "allowed and disallowed tools": lambda s: s.args.extend(
        ["--disallowedTools", "WebSearch", "--allowedTools", "Bash(ls)"]
    ),
    "an MCP server": _mcp,
    "a custom agent": lambda s: _agent(s.home),
    "a skill": lambda s: _skill(s.home),
    "deferral on": lambda s: s.env.update(HANDS_TOOL_SEARCH="true"),
}


@pytest.mark.parametrize("variant", VARIANTS)
def test_the_first_request_is_the_same_bytes_from_the_kept_tool_list(
    tmp_path: Path, server: LoopbackServer, variant: str
) -> None:
    session = _session(tmp_path, server, "s")
    VARIANTS[variant](session)
    # a new home: the key is computed once the request is out, so with an MCP server it
    # has the server's tool list the run kept, as the next run's key has
    cold, (plain,) = session.run()
    assert EARLY not in cold.stderr and session.kept()
    warm, (early,) = session.run()
    assert EARLY in warm.stderr, warm.stderr
    assert early.raw == plain.raw  # byte for byte
    assert json.loads(warm.stdout.splitlines()[-1])["result"] == "Done."
    if variant == "a deny rule":
        assert "WebFetch" not in _tool_names(early) and "Read" in _tool_names(early)
    if variant == "allowed and disallowed tools":
        assert "WebSearch" not in _tool_names(early)
    if variant == "a custom agent":
        agent = next(t for t in early.body["tools"] if t["name"] == "Agent")
        assert "reviewer" in agent["description"]
    if variant == "a skill":
        skill = next(t for t in early.body["tools"] if t["name"] == "Skill")
        assert "notes" in skill["description"]
    if variant == "deferral on":
        assert "ToolSearch" in _tool_names(early)
    if variant == "an MCP server":
        assert "mcp__demo__echo" in json.dumps(early.body)


def test_a_changed_input_is_a_miss_and_the_request_follows_it(
    tmp_path: Path, server: LoopbackServer
) -> None:
    session = _session(tmp_path, server, "s")
    _, (first,) = session.run()
    assert "WebFetch" in _tool_names(first)

    _settings(session, {"permissions": {"deny": ["WebFetch"]}})  # a deny rule added
    denied, (second,) = session.run()
    assert EARLY not in denied.stderr
    assert "WebFetch" not in _tool_names(second)

    _agent(session.home)  # an agent file added
    agent, (third,) = session.run()
    assert EARLY not in agent.stderr
    assert "reviewer" in next(t for t in third.body["tools"] if t["name"] == "Agent")["description"]

    again, (fourth,) = session.run()  # nothing changed since: kept
    assert EARLY in again.stderr and fourth.raw == third.raw


def test_a_kept_list_that_differs_is_sent_again_and_nothing_of_its_answer_runs(
    tmp_path: Path, server: LoopbackServer
) -> None:
    session = _session(tmp_path, server, "s")
    session.args += ["--allowedTools", "Bash(touch:*)"]  # the call would run if it were read
    _, (real,) = session.run()
    (entry,) = session.kept()
    data = json.loads(entry.read_text())
    data["tools"][0]["description"] = "STALE " + data["tools"][0]["description"]
    entry.write_text(json.dumps(data))  # what a key that missed an input would keep

    marker = session.root / "ran"
    command = json.dumps({"command": f"touch {marker}"})
    server.route = lambda body: "stale" if "STALE " in json.dumps(body) else None
    server.queue_for(
        "stale",
        sse_reply(a_start(), *a_tool(0, "toolu_1", "Bash", command), *a_end("tool_use")),
    )
    proc, sent = session.run()

    assert AGAIN in proc.stderr, proc.stderr
    assert not marker.exists()  # the stale request's answer was never read
    stale = [r for r in sent if "STALE " in r.raw.decode()]
    assert len(stale) == 1  # it did go out, and was answered with the call
    assert sent[-1].raw == real.raw  # the real request, as without a kept list
    assert json.loads(proc.stdout.splitlines()[-1])["result"] == "Done."
    assert "STALE" not in entry.read_text()  # the right list is kept instead
    _, (kept,) = session.run()
    assert kept.raw == real.raw


@pytest.mark.parametrize("content", [b"", b"{not json", b'{"version": 1, "key": "other"}'])
def test_an_unreadable_or_foreign_entry_is_a_miss(
    tmp_path: Path, server: LoopbackServer, content: bytes
) -> None:
    session = _session(tmp_path, server, "s")
    _, (real,) = session.run()
    (entry,) = session.kept()
    entry.write_bytes(content)
    proc, (again,) = session.run()
    assert EARLY not in proc.stderr and again.raw == real.raw
    assert json.loads(entry.read_text())["tools"]  # kept again, whole


def test_an_untrusted_folder_and_a_trusted_one_keep_apart(
    tmp_path: Path, server: LoopbackServer
) -> None:
    session = _session(tmp_path, server, "s")
    _agent(session.project)  # a project agent: inert until the folder is trusted
    _, (first,) = session.run()
    assert "reviewer" not in json.dumps(first.body["tools"])
    trusted, (second,) = session.run("--trust")
    assert EARLY not in trusted.stderr  # the untrusted session's list is not used
    assert "reviewer" in json.dumps(second.body["tools"])
    assert len(session.kept()) == 2
    again, (third,) = session.run()
    assert EARLY in again.stderr and third.raw == first.raw
