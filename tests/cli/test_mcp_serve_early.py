"""``hands mcp serve`` answering a host's first requests before the MCP SDK loads.

Every test runs the real command as a subprocess in a folder of its own, three ways: a
first start in a new hands home (nothing kept: the SDK answers, and its answers are
kept), a second start (answered early from what was kept) and a start with
``HANDS_MCP_SERVE_EARLY=0`` (every line read by the SDK's own ``stdio_server``, as before).
The answers, as JSON values, must be the same all three ways.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from dataclasses import dataclass, field
from itertools import count
from pathlib import Path
from typing import Any

import anyio
import pytest

from hands.cli.mcp_serve_kept import HOST_SESSION_VARIABLES
from hands.config.trust import trust
from paths import REPO

pytestmark = pytest.mark.timeout(600)  # several starts each; the SDK's import is slow when busy

EARLY_INIT = "answered initialize from the kept answers"
EARLY_LIST = "answered tools/list from the kept answers"
NOT_THE_SDKS = "was not the MCP SDK's"
LATEST_HANDSHAKE = "2025-11-25"
LAUNCH = (
    "import logging, sys; logging.basicConfig(level=logging.INFO); "
    "from hands.cli.mcp import mcp_app; sys.argv[0] = 'hands mcp'; mcp_app()"
)
"""``hands mcp serve`` with hands' log lines on standard error."""


def initialize(version: str, ident: int = 1) -> dict[str, Any]:
    return {
        "jsonrpc": "2.0", "id": ident, "method": "initialize",
        "params": {"protocolVersion": version, "capabilities": {"roots": {}},
                   "clientInfo": {"name": "test-host", "version": "1.0"}},
    }  # fmt: skip


INITIALIZED = {"jsonrpc": "2.0", "method": "notifications/initialized"}
LIST = {"jsonrpc": "2.0", "id": 2, "method": "tools/list"}


@dataclass(frozen=True, kw_only=True)
class Started:
    """One start: its answers by request id, and what it wrote to standard error."""

    answers: dict[object, dict[str, Any]]
    stderr: str

    def result(self, ident: object) -> Any:
        answer = self.answers[ident]
        assert "result" in answer, answer
        return answer["result"]


@dataclass(kw_only=True)
class Host:
    """A folder, a home and a hands home; starts ``hands mcp serve`` there."""

    root: Path
    args: list[str] = field(default_factory=lambda: list[str]())
    runs: count[int] = field(default_factory=count)

    def __post_init__(self) -> None:
        self.project.mkdir(parents=True, exist_ok=True)
        (self.project / "notes.txt").write_text("some notes\n")

    @property
    def project(self) -> Path:
        return self.root / "project"

    @property
    def hands_home(self) -> Path:
        return self.root / "hands-home"

    def env(self, *, early: bool = True, **extra: str) -> dict[str, str]:
        env = {
            k: v
            for k, v in os.environ.items()
            if not k.startswith(("ANTHROPIC_", "OPENAI_", "HANDS_", "CLAUDE_"))
        }
        env.update(HOME=str(self.root), HANDS_HOME=str(self.hands_home))
        if not early:
            env["HANDS_MCP_SERVE_EARLY"] = "0"
        return {**env, **extra}

    def kept(self) -> list[Path]:
        return sorted((self.hands_home / "mcp-serve").glob("*.json"))

    def start(self, messages: list[dict[str, Any]], *, early: bool = True, **extra: str) -> Started:
        """Write ``messages`` at once, read until every request is answered, then close."""
        wanted = {m["id"] for m in messages if "id" in m}
        err = self.root / f"serve-stderr-{next(self.runs)}.txt"
        with err.open("w") as errors:
            proc = subprocess.Popen(
                [sys.executable, "-c", LAUNCH, "serve", *self.args],
                cwd=self.project, env=self.env(early=early, **extra), stdin=subprocess.PIPE,
                stdout=subprocess.PIPE, stderr=errors,
            )  # fmt: skip
            assert proc.stdin is not None and proc.stdout is not None
            answers: dict[object, dict[str, Any]] = {}
            try:
                proc.stdin.write(b"".join(json.dumps(m).encode() + b"\n" for m in messages))
                proc.stdin.flush()
                for line in proc.stdout:
                    message = json.loads(line)
                    if "method" not in message:
                        answers[message["id"]] = message
                    if set(answers) >= wanted:
                        break
                proc.stdin.close()
                assert proc.wait(timeout=60) == 0
            finally:
                if proc.poll() is None:
                    proc.kill()
                    proc.wait()
        stderr = err.read_text()
        assert set(answers) >= wanted, stderr
        assert "Traceback" not in stderr, stderr
        return Started(answers=answers, stderr=stderr)

    def three_ways(self, messages: list[dict[str, Any]]) -> tuple[Started, Started, Started]:
        """A first start (nothing kept), a second (answered early), one with the SDK only."""
        first = self.start(messages)
        assert EARLY_INIT not in first.stderr
        assert self.kept(), first.stderr
        second = self.start(messages)
        assert EARLY_INIT in second.stderr, second.stderr
        plain = self.start(messages, early=False)
        assert EARLY_INIT not in plain.stderr
        return first, second, plain


def names(result: Any) -> set[str]:
    return {tool["name"] for tool in result["tools"]}


@pytest.mark.parametrize("version", ["2025-06-18", "2024-11-05", LATEST_HANDSHAKE, "2099-01-01"])
def test_the_early_answers_are_the_sdks_for_each_protocol_version(
    tmp_path: Path, version: str
) -> None:
    host = Host(root=tmp_path)
    first, second, plain = host.three_ways([initialize(version), INITIALIZED, LIST])
    assert EARLY_LIST in second.stderr
    for ident in (1, 2):
        assert second.result(ident) == plain.result(ident) == first.result(ident)
    negotiated = plain.result(1)["protocolVersion"]
    assert negotiated == (LATEST_HANDSHAKE if version == "2099-01-01" else version)
    assert {"Read", "Edit", "Bash", "Grep"} <= names(second.result(2))


ENVELOPE = {
    "io.modelcontextprotocol/protocolVersion": "2026-07-28",
    "io.modelcontextprotocol/clientInfo": {"name": "test-host", "version": "1.0"},
    "io.modelcontextprotocol/clientCapabilities": {"roots": {"listChanged": True}},
}
"""The 2026-07-28 protocol's per-request envelope (no handshake)."""


def test_a_host_of_the_2026_protocol_opens_with_discovery(tmp_path: Path) -> None:
    host = Host(root=tmp_path)
    messages = [
        {"jsonrpc": "2.0", "id": "probe", "method": "server/discover",
         "params": {"_meta": ENVELOPE}},
        {"jsonrpc": "2.0", "id": 2, "method": "tools/list", "params": {"_meta": ENVELOPE}},
    ]  # fmt: skip
    first = host.start(messages)
    assert host.kept(), first.stderr
    second = host.start(messages)
    plain = host.start(messages, early=False)
    assert "answered server/discover from the kept answers" in second.stderr
    assert EARLY_LIST in second.stderr
    for ident in ("probe", 2):
        assert second.result(ident) == plain.result(ident) == first.result(ident)
    assert "2026-07-28" in plain.result("probe")["supportedVersions"]
    assert {"Read", "Bash"} <= names(second.result(2))


def test_what_a_host_sets_afresh_for_each_server_does_not_change_the_key(
    tmp_path: Path,
) -> None:
    host = Host(root=tmp_path)
    messages = [initialize(LATEST_HANDSHAKE), INITIALIZED, LIST]
    host.start(messages, CLAUDE_CODE_SESSION_ID="one", CLAUDE_CODE_MESSAGING_TOKEN="a")
    second = host.start(messages, CLAUDE_CODE_SESSION_ID="two", CLAUDE_CODE_MESSAGING_TOKEN="b")
    assert EARLY_LIST in second.stderr
    (tmp_path / ".claude.json").write_text('{"numStartups": 2}')  # Claude Code's, rewritten
    third = host.start(messages)  # at each of its starts; only MCP clients read it
    assert EARLY_LIST in third.stderr
    other = host.start(messages, CLAUDE_CODE_MAX_WEB_SEARCHES_PER_SESSION="3")  # hands reads it
    assert EARLY_INIT not in other.stderr


def test_hands_reads_none_of_the_variables_left_out_of_the_key() -> None:
    named = {
        path.relative_to(REPO).as_posix(): name
        for path in (REPO / "src" / "hands").rglob("*.py")
        if path.name != "mcp_serve_kept.py"
        for name in HOST_SESSION_VARIABLES
        if name in path.read_text()
    }
    assert named == {}


def test_a_list_before_the_initialized_notification(tmp_path: Path) -> None:
    host = Host(root=tmp_path)
    first, second, plain = host.three_ways([initialize("2025-06-18"), LIST, INITIALIZED])
    assert EARLY_LIST in second.stderr
    assert second.result(2) == plain.result(2) == first.result(2)


def test_a_call_and_a_ping_right_after_initialize_wait_for_the_sdk(tmp_path: Path) -> None:
    host = Host(root=tmp_path)
    host.start([initialize("2025-06-18"), INITIALIZED, LIST])  # keeps the answers
    read = {"file_path": str(host.project / "notes.txt")}
    messages = [
        initialize("2025-06-18"),
        {"jsonrpc": "2.0", "id": 7, "method": "tools/call",
         "params": {"name": "Read", "arguments": read}},
        {"jsonrpc": "2.0", "id": "p", "method": "ping"},
        INITIALIZED,
        LIST,
    ]  # fmt: skip
    early = host.start(messages)
    plain = host.start(messages, early=False)
    assert EARLY_INIT in early.stderr
    assert EARLY_LIST not in early.stderr  # a request the SDK answers came before it
    for ident in (1, 7, "p", 2):
        assert early.result(ident) == plain.result(ident)
    assert "some notes" in json.dumps(early.result(7))
    assert early.result("p") == {}


PROJECT_SETTINGS = {"permissions": {"deny": ["Bash"]}, "env": {"HANDS_ENABLE_TASKS": "0"}}
"""A deny rule (it only tightens: it counts in an untrusted folder too) and an environment
variable (inert until the folder is trusted) that swaps the task tools for TodoWrite."""


def test_an_untrusted_folders_settings_stay_inert_and_trust_changes_the_key(
    tmp_path: Path,
) -> None:
    host = Host(root=tmp_path)
    (host.project / ".claude").mkdir()
    (host.project / ".claude" / "settings.json").write_text(json.dumps(PROJECT_SETTINGS))
    messages = [initialize("2025-06-18"), INITIALIZED, LIST]
    _, untrusted, plain = host.three_ways(messages)
    assert EARLY_LIST in untrusted.stderr
    assert untrusted.result(2) == plain.result(2)
    assert "Bash" not in names(untrusted.result(2)) and "Read" in names(untrusted.result(2))
    assert "TodoWrite" not in names(untrusted.result(2))  # the folder's env is inert

    trust(host.project, host.env())
    trusted = host.start(messages)  # a new key: nothing kept answers it
    assert EARLY_INIT not in trusted.stderr
    assert "TodoWrite" in names(trusted.result(2)) and "Bash" not in names(trusted.result(2))
    again = host.start(messages)
    plain = host.start(messages, early=False)
    assert EARLY_LIST in again.stderr
    assert again.result(2) == plain.result(2) == trusted.result(2)


def test_a_command_line_deny_rule_hides_a_tool_early_too(tmp_path: Path) -> None:
    host = Host(root=tmp_path, args=["--disallowedTools", "Bash"])
    messages = [initialize("2025-06-18"), INITIALIZED, LIST]
    _, second, plain = host.three_ways(messages)
    assert second.result(2) == plain.result(2)
    assert "Bash" not in names(second.result(2)) and "Read" in names(second.result(2))
    host.args = []
    without = host.start(messages)  # another command line, another key
    assert EARLY_INIT not in without.stderr
    assert "Bash" in names(without.result(2))


def test_a_kept_answer_that_is_not_the_sdks_is_replaced(tmp_path: Path) -> None:
    host = Host(root=tmp_path)
    messages = [initialize("2025-06-18"), INITIALIZED, LIST]
    host.start(messages)
    (entry,) = host.kept()
    kept = json.loads(entry.read_text())
    kept["tools/list"]["result"]["tools"] = kept["tools/list"]["result"]["tools"][:1]
    entry.write_text(json.dumps(kept))

    wrong = host.start(messages)
    assert EARLY_LIST in wrong.stderr and NOT_THE_SDKS in wrong.stderr
    assert len(wrong.result(2)["tools"]) == 1  # what was kept went out...
    plain = host.start(messages, early=False)
    right = host.start(messages)  # ...and the SDK's answer replaced it
    assert EARLY_LIST in right.stderr and NOT_THE_SDKS not in right.stderr
    assert right.result(2) == plain.result(2)


def test_the_sdks_client_over_the_early_path(tmp_path: Path) -> None:
    from mcp import ClientSession, StdioServerParameters, stdio_client

    host = Host(root=tmp_path)

    async def session(early: bool, err: Path) -> dict[str, Any]:
        params = StdioServerParameters(
            command=sys.executable,
            args=["-c", LAUNCH, "serve"],
            cwd=str(host.project),
            env=host.env(early=early),
        )
        with err.open("w") as errlog:
            async with (
                stdio_client(params, errlog=errlog) as (read, write),
                ClientSession(read, write) as client,
            ):
                init = await client.initialize()
                listed = await client.list_tools()
                await client.send_ping()
                done = await client.call_tool(
                    "Read", {"file_path": str(host.project / "notes.txt")}
                )
        return {
            "init": init.model_dump(by_alias=True, mode="json", exclude_none=True),
            "tools": listed.model_dump(by_alias=True, mode="json", exclude_none=True),
            "read": done.model_dump(by_alias=True, mode="json", exclude_none=True),
        }

    first = anyio.run(session, True, tmp_path / "first.txt")
    second = anyio.run(session, True, tmp_path / "second.txt")
    plain = anyio.run(session, False, tmp_path / "plain.txt")
    assert EARLY_INIT in (tmp_path / "second.txt").read_text()
    assert EARLY_INIT not in (tmp_path / "first.txt").read_text()
    assert second == plain == first
    assert "some notes" in json.dumps(second["read"])


def test_the_early_modules_load_no_part_of_the_sdk() -> None:
    code = (
        "import sys, hands.cli.mcp_serve_early, hands.cli.mcp_serve_kept, hands.cli.mcp_stdio; "
        "print(sorted(m for m in sys.modules if m == 'mcp' or m.startswith(('mcp.', 'mcp_types'))))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def test_the_answers_go_out_before_the_sdks_server_module_is_imported(tmp_path: Path) -> None:
    host = Host(root=tmp_path)
    messages = [initialize(LATEST_HANDSHAKE), INITIALIZED, LIST]
    host.start(messages)  # keeps the answers
    started = host.start(messages, PYTHONPROFILEIMPORTTIME="1")  # -X importtime, in order
    lines = started.stderr.splitlines()

    def first(text: str) -> int:
        return next(i for i, line in enumerate(lines) if text in line)

    server_module = next(
        i
        for i, line in enumerate(lines)
        if line.startswith("import time:") and line.endswith(" mcp.server.lowlevel.server")
    )
    assert first(EARLY_INIT) < server_module
    assert first(EARLY_LIST) < server_module
