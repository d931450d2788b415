"""How soon ``hands mcp serve`` answers an MCP host: initialize, then tools/list.

Each run starts ``hands mcp serve`` in an empty folder, writes the host's first three
messages (``initialize``, ``notifications/initialized``, ``tools/list``) at once on its
standard input and times, from the start of the process, the answer to ``initialize`` and
the answer to ``tools/list``. Runs alternate with a floor — the same interpreter importing
pydantic and the MCP SDK and writing one line — so a busy machine moves both alike; the
medians and their ratio are printed.

    .venv/bin/python benchmarks/mcp_serve_start.py [--runs 9]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

FLOOR = "import pydantic, mcp.types; print('{}', flush=True)"


def messages() -> bytes:
    """A host's first three messages, as JSON lines."""
    init = {
        "jsonrpc": "2.0", "id": 1, "method": "initialize",
        "params": {"protocolVersion": "2025-06-18", "capabilities": {},
                   "clientInfo": {"name": "bench", "version": "0"}},
    }  # fmt: skip
    done = {"jsonrpc": "2.0", "method": "notifications/initialized"}
    listed = {"jsonrpc": "2.0", "id": 2, "method": "tools/list"}
    return b"".join(json.dumps(m).encode() + b"\n" for m in (init, done, listed))


def serve_once(work: Path, env: dict[str, str]) -> tuple[float, float, int]:
    """Seconds to the initialize answer, to the tools/list answer, and the tools listed."""
    started = time.perf_counter()
    proc = subprocess.Popen(
        [sys.executable, "-m", "hands", "mcp", "serve"],
        cwd=work, env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
    )  # fmt: skip
    assert proc.stdin is not None and proc.stdout is not None
    proc.stdin.write(messages())
    proc.stdin.flush()
    initialized = listed = 0.0
    tools = 0
    try:
        for line in proc.stdout:
            message = json.loads(line)
            if message.get("id") == 1:
                initialized = time.perf_counter() - started
            elif message.get("id") == 2:
                listed = time.perf_counter() - started
                tools = len(message["result"]["tools"])
                break
    finally:
        proc.stdin.close()
        proc.kill()
        proc.wait()
    if not listed:
        raise SystemExit("hands mcp serve never answered tools/list")
    return initialized, listed, tools


def floor_once(env: dict[str, str]) -> float:
    started = time.perf_counter()
    subprocess.run([sys.executable, "-c", FLOOR], env=env, check=True, capture_output=True)
    return time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--runs", type=int, default=9)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="hands-serve-start-") as tmp:
        work, home = Path(tmp) / "project", Path(tmp) / "home"
        work.mkdir()
        home.mkdir()
        env = {**os.environ, "HANDS_HOME": str(home), "HOME": str(home)}
        serve_once(work, env)  # warm the page cache and byte code
        inits: list[float] = []
        lists: list[float] = []
        floors: list[float] = []
        tools = 0
        for _ in range(args.runs):
            init, listed, tools = serve_once(work, env)
            inits.append(init)
            lists.append(listed)
            floors.append(floor_once(env))
    init_ms, list_ms = statistics.median(inits) * 1000, statistics.median(lists) * 1000
    floor_ms = statistics.median(floors) * 1000
    print(f"hands mcp serve, {args.runs} runs interleaved with the floor, medians:")
    print(f"  initialize answered            {init_ms:8.0f} ms")
    print(f"  tools/list answered ({tools} tools) {list_ms:8.0f} ms  (goal <= 500)")
    print(f"  floor: python + pydantic + mcp {floor_ms:8.0f} ms")
    print(f"  tools/list / floor             {list_ms / floor_ms:8.2f}x")


if __name__ == "__main__":
    main()
