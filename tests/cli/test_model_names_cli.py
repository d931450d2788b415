"""``--model`` and ``/model`` take Claude Code's aliases and bare ids; opusplan plans on opus."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from models.loopback import LoopbackServer, Reply, sse_reply
from models.wire import a_end, a_start, a_text
from terminal import Terminal, launch


def _reply() -> Reply:
    return sse_reply(a_start(), *a_text(0, "Done."), *a_end())


def _print(server: LoopbackServer, cwd: Path, *args: str, **env: str) -> list[dict]:
    environ = {
        **os.environ,
        "ANTHROPIC_API_KEY": "test-key",
        "ANTHROPIC_BASE_URL": server.url,
        "NO_PROXY": "127.0.0.1",
        **env,
    }
    for name in ("ANTHROPIC_MODEL", "HANDS_MODEL", "OPENAI_API_KEY", "OPENAI_BASE_URL"):
        if name not in env:
            environ.pop(name, None)
    proc = subprocess.run(
        [sys.executable, "-m", "hands", "-p", "hi", "--output-format", "stream-json", *args],
        capture_output=True,
        text=True,
        cwd=cwd,
        env=environ,
        timeout=60,
    )
    assert proc.returncode == 0, proc.stderr
    return [json.loads(line) for line in proc.stdout.splitlines()]


def test_print_mode_resolves_aliases_variables_and_opusplan(
    tmp_path: Path, hands_home: Path, server: LoopbackServer
) -> None:
    cases = [
        (("--model", "opus"), {}, "claude-opus-4-6", "anthropic:claude-opus-4-6"),
        (("--model", "claude-opus-4-1"), {}, "claude-opus-4-1", "anthropic:claude-opus-4-1"),
        ((), {"ANTHROPIC_MODEL": "haiku"}, "claude-haiku-4-5", "anthropic:claude-haiku-4-5"),
        (
            ("--model", "sonnet"),
            {"ANTHROPIC_DEFAULT_SONNET_MODEL": "claude-sonnet-4-5"},
            "claude-sonnet-4-5",
            "anthropic:claude-sonnet-4-5",
        ),
        (("--model", "opusplan", "--permission-mode", "plan"), {}, "claude-opus-4-6", None),
        (("--model", "opusplan"), {}, "claude-sonnet-4-6", "anthropic:opusplan"),
    ]
    for args, env, sent, shown in cases:
        server.queue(_reply())
        lines = _print(server, tmp_path, *args, **env)
        assert server.requests[-1].body["model"] == sent, args
        if shown is not None:
            assert lines[0]["model"] == shown, args


def test_an_unknown_name_is_one_line_and_exit_2(tmp_path: Path, hands_home: Path) -> None:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("ANTHROPIC_", "OPENAI_"))}
    proc = subprocess.run(
        [sys.executable, "-m", "hands", "-p", "hi", "--model", "mystery"],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env=env,
        timeout=60,
    )
    assert proc.returncode == 2 and "unknown model 'mystery'" in proc.stderr
    assert "Traceback" not in proc.stderr


@pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed")
def test_slash_model_takes_an_alias(
    terminal: Terminal, tmp_path: Path, hands_home: Path, server: LoopbackServer
) -> None:
    env = {
        "ANTHROPIC_API_KEY": "test-key",
        "ANTHROPIC_BASE_URL": server.url,
        "NO_PROXY": "127.0.0.1",
    }
    launch(terminal, tmp_path, hands_home, tmp_path / "unused.json", model="sonnet", env=env)
    terminal.wait_for("anthropic:claude-sonnet-4-6")
    terminal.wait_for_prompt()
    terminal.submit("/model opus", "Now using anthropic:claude-opus-4-6")
    server.queue(_reply())
    terminal.submit("hi", "success · 1 turn")
    assert server.requests[-1].body["model"] == "claude-opus-4-6"
    terminal.submit("/model sonnet[1m]", "Now using anthropic:claude-sonnet-4-6[1m]")
    screen = terminal.submit("/model gpt-5", "The model stays")  # OpenAI's, with no key
    assert "openai models need OPENAI_API_KEY" in screen and "Traceback" not in screen
