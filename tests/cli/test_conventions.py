"""The command line a Claude Code user expects: version, help, flags, stream-json input."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from models.loopback import LoopbackServer, sse_reply
from models.wire import a_end, a_start, a_text

DEMO_SERVER = Path(__file__).parents[1] / "mcp" / "servers" / "demo.py"


def hands(
    *args: str, stdin: str = "", env: dict[str, str] | None = None, cwd: Path | None = None
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "hands", *args],
        capture_output=True,
        text=True,
        input=stdin,
        env={**os.environ, **(env or {})},
        cwd=cwd,
        timeout=60,
    )


def scripted(path: Path, *texts: str) -> str:
    path.write_text(
        json.dumps({"turns": [{"blocks": [{"type": "text", "text": t}]} for t in texts]})
    )
    return f"scripted:{path}"


@pytest.mark.parametrize("flag", ["--version", "-V"])
def test_version(flag: str) -> None:
    proc = hands(flag)
    assert proc.returncode == 0
    assert proc.stdout.startswith("hands ") and proc.stdout.split()[1][0].isdigit()


@pytest.mark.parametrize("words", [["-h"], ["--help"], ["help"]])
def test_help(words: list[str]) -> None:
    proc = hands(*words)
    assert proc.returncode == 0, proc.stderr
    assert "Usage:" in proc.stdout and "--print" in proc.stdout


def test_simple_given_a_value_is_read_as_the_flag() -> None:
    on = hands("tools", "--simple", "true", "--json")
    assert on.returncode == 0, on.stderr
    assert [t["name"] for t in json.loads(on.stdout)] == ["Bash", "Edit", "Read"]
    off = hands("tools", "--simple=false", "--json")
    assert off.returncode == 0, off.stderr
    assert len(json.loads(off.stdout)) > 3


def test_max_turns_zero_is_refused(tmp_path: Path) -> None:
    proc = hands("-p", "x", "--max-turns", "0", "--model", scripted(tmp_path / "s.json", "hi"))
    assert proc.returncode == 2
    assert "--max-turns" in proc.stderr
    assert "Traceback" not in proc.stderr


def test_invalid_hands_variables_stop_with_one_line_naming_them(tmp_path: Path) -> None:
    env = {"HANDS_MAX_TOOL_CONCURRENCY": "lots", "HANDS_TOOL_SEARCH": "maybe"}
    proc = hands("-p", "x", "--model", scripted(tmp_path / "s.json", "hi"), env=env)
    assert proc.returncode == 2, proc.stderr
    (line,) = proc.stderr.strip().splitlines()
    assert "HANDS_MAX_TOOL_CONCURRENCY='lots'" in line
    assert "HANDS_TOOL_SEARCH='maybe'" in line
    one = hands("tool", "Glob", '{"pattern": "*"}', "--cwd", str(tmp_path), env=env)
    assert one.returncode == 2
    assert "HANDS_MAX_TOOL_CONCURRENCY='lots'" in one.stderr and "Traceback" not in one.stderr


def test_dangerously_skip_permissions_is_bypass_mode(tmp_path: Path) -> None:
    proc = hands(
        "-p", "x", "--dangerously-skip-permissions", "--output-format", "stream-json",
        "--model", scripted(tmp_path / "s.json", "hi"),
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    init = json.loads(proc.stdout.splitlines()[0])
    assert init["permissionMode"] == "bypassPermissions"


def test_stream_json_input_runs_each_user_message_in_one_conversation(tmp_path: Path) -> None:
    lines = [
        {"type": "user", "message": {"role": "user", "content": "first"}},
        {"type": "user", "message": {"role": "user", "content": [{"type": "text", "text": "2nd"}]}},
    ]
    proc = hands(
        "--input-format", "stream-json", "--output-format", "stream-json",
        "--model", scripted(tmp_path / "s.json", "one", "two"),
        stdin="".join(json.dumps(line) + "\n" for line in lines),
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    out = [json.loads(line) for line in proc.stdout.splitlines()]
    results = [o["result"] for o in out if o["type"] == "result"]
    assert results == ["one", "two"]
    assert len({o["session_id"] for o in out}) == 1
    bad = hands(
        "--input-format", "stream-json", "--output-format", "stream-json",
        "--model", scripted(tmp_path / "s.json", "one"), stdin="not json\n",
    )  # fmt: skip
    # a malformed line is an error result naming it; the session goes on to the next line
    assert bad.returncode == 1 and "input line 1 is not valid JSON" in bad.stderr
    bad_out = [json.loads(line) for line in bad.stdout.splitlines()]
    assert bad_out[0]["type"] == "result" and bad_out[0]["is_error"] is True
    assert "input line 1 is not valid JSON" in bad_out[0]["result"]


def test_mcp_config_adds_servers(tmp_path: Path) -> None:
    config = tmp_path / "servers.json"
    config.write_text(
        json.dumps(
            {"mcpServers": {"demo": {"command": sys.executable, "args": [str(DEMO_SERVER)]}}}
        )
    )
    script = tmp_path / "s.json"
    script.write_text(
        json.dumps(
            {
                "turns": [
                    {
                        "blocks": [
                            {
                                "type": "tool_use",
                                "name": "mcp__demo__echo",
                                "input": {"text": "through the server"},
                            }
                        ]
                    },
                    {"blocks": [{"type": "text", "text": "done"}]},
                ]
            }
        )
    )
    proc = hands(
        "-p", "x", "--mcp-config", str(config), "--allowedTools", "mcp__demo__echo",
        "--output-format", "stream-json", "--model", f"scripted:{script}", cwd=tmp_path,
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    assert "through the server" in proc.stdout
    missing = hands("-p", "x", "--mcp-config", str(tmp_path / "none.json"))
    assert missing.returncode == 2 and "--mcp-config" in missing.stderr


def test_system_prompt_replaces_hands_own(tmp_path: Path, server: LoopbackServer) -> None:
    server.queue(sse_reply(a_start(), *a_text(0, "ok"), *a_end()))
    env = {
        "ANTHROPIC_API_KEY": "test-key",
        "ANTHROPIC_BASE_URL": server.url,
        "NO_PROXY": "127.0.0.1",
        "HTTP_PROXY": "",
        "HTTPS_PROXY": "",
    }
    proc = hands(
        "-p", "x", "--system-prompt", "You are a terse helper.", "--model", "anthropic:claude-x",
        "--verbose", "--debug", env=env, cwd=tmp_path,
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == "ok"
    system = server.requests[0].body["system"]
    text = system if isinstance(system, str) else " ".join(b["text"] for b in system)
    assert text.startswith("You are a terse helper.")
    assert "hands: DEBUG" in proc.stderr  # --debug logs to stderr
