"""``-p`` results carry the cost and per-model usage; ``/cost`` says the same."""

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
    return sse_reply(a_start(input_tokens=20_000), *a_text(0, "Done."), *a_end(output_tokens=3000))


def _env(server: LoopbackServer) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("ANTHROPIC_", "OPENAI_"))}
    return {
        **env,
        "ANTHROPIC_API_KEY": "k",
        "ANTHROPIC_BASE_URL": server.url,
        "NO_PROXY": "127.0.0.1",
    }


def _print(server: LoopbackServer, cwd: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "hands", "-p", "hi", *args],
        capture_output=True,
        text=True,
        cwd=cwd,
        env=_env(server),
        timeout=60,
    )


def test_print_results_carry_cost_model_usage_and_the_key_source(
    tmp_path: Path, hands_home: Path, server: LoopbackServer
) -> None:
    server.queue(_reply())
    proc = _print(server, tmp_path, "--model", "sonnet", "--output-format", "stream-json")
    lines = [json.loads(line) for line in proc.stdout.splitlines()]
    assert lines[0]["apiKeySource"] == "ANTHROPIC_API_KEY"
    result = lines[-1]
    # Sonnet 4.6 at $3 / $15 per million tokens
    assert result["total_cost_usd"] == pytest.approx((20_000 * 3 + 3000 * 15) / 1e6)
    usage = result["modelUsage"]["claude-sonnet-4-6"]
    assert usage["inputTokens"] == 20_000 and usage["outputTokens"] == 3000
    assert usage["costUSD"] == result["total_cost_usd"] and usage["contextWindow"] == 200_000

    script = tmp_path / "s.json"
    script.write_text(json.dumps({"turns": [{"blocks": [{"type": "text", "text": "x"}]}]}))
    offline = _print(
        server, tmp_path, "--model", f"scripted:{script}", "--output-format", "stream-json"
    )
    lines = [json.loads(line) for line in offline.stdout.splitlines()]
    assert lines[0]["apiKeySource"] == "none" and lines[-1]["total_cost_usd"] == 0


@pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed")
def test_slash_cost_agrees_with_the_print_result(
    terminal: Terminal, tmp_path: Path, hands_home: Path, server: LoopbackServer
) -> None:
    server.queue(_reply())
    printed = json.loads(
        _print(server, tmp_path, "--model", "sonnet", "--output-format", "json").stdout
    )
    env = {"ANTHROPIC_API_KEY": "k", "ANTHROPIC_BASE_URL": server.url, "NO_PROXY": "127.0.0.1"}
    launch(terminal, tmp_path, hands_home, tmp_path / "unused.json", model="sonnet", env=env)
    terminal.wait_for("(/help")
    terminal.wait_for_prompt()
    server.queue(_reply())
    terminal.submit("hi", "success · 1 turn")
    screen = terminal.submit("/cost", "1 prompt so far")
    assert f"cost: ${printed['total_cost_usd']:.4f} at list prices" in screen
    assert "20,000 in · 3,000 out" in screen
