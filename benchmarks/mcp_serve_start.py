"""How soon ``hands mcp serve`` answers an MCP host: initialize, then tools/list.

Each run starts ``hands mcp serve`` in an empty folder, writes the host's first three
messages (``initialize``, ``notifications/initialized``, ``tools/list``) at once on its
standard input and times, from the start of the process, the answer to ``initialize`` and
the answer to ``tools/list``. Two ways, interleaved run by run, so a busy machine moves
both alike:

* early: as installed; the warm-up start keeps the SDK's answers in the hands home, so
  each timed start answers both requests before the MCP SDK loads;
* SDK first: ``HANDS_MCP_SERVE_EARLY=0``, every line read by the SDK's ``stdio_server``.

Beside them two floors: the same interpreter importing pydantic (the quiet-host
reference) and importing pydantic and the MCP SDK, each writing one line. Medians, their
ratios and the load average are printed.

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
PYDANTIC = "import pydantic; print('{}', flush=True)"


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


def floor_once(env: dict[str, str], code: str = FLOOR) -> float:
    started = time.perf_counter()
    subprocess.run([sys.executable, "-c", code], env=env, check=True, capture_output=True)
    return time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--runs", type=int, default=9)
    args = parser.parse_args()
    loads = [os.getloadavg()[0]]
    with tempfile.TemporaryDirectory(prefix="hands-serve-start-") as tmp:
        work, home = Path(tmp) / "project", Path(tmp) / "home"
        work.mkdir()
        home.mkdir()
        env = {**os.environ, "HANDS_HOME": str(home), "HOME": str(home)}
        env.pop("HANDS_MCP_SERVE_EARLY", None)
        plain_env = {**env, "HANDS_MCP_SERVE_EARLY": "0"}
        serve_once(work, env)  # warm the page cache and byte code; keeps the answers
        serve_once(work, plain_env)
        times: dict[str, list[float]] = {
            k: [] for k in ("early init", "early list", "plain init", "plain list", "sdk", "pyd")
        }
        tools = 0
        for _ in range(args.runs):
            init, listed, tools = serve_once(work, env)
            times["early init"].append(init)
            times["early list"].append(listed)
            init, listed, _ = serve_once(work, plain_env)
            times["plain init"].append(init)
            times["plain list"].append(listed)
            times["sdk"].append(floor_once(env))
            times["pyd"].append(floor_once(env, PYDANTIC))
        loads.append(os.getloadavg()[0])
    ms = {k: statistics.median(v) * 1000 for k, v in times.items()}
    print(
        f"hands mcp serve, {args.runs} runs of each, interleaved, medians "
        f"(load average {loads[0]:.2f} -> {loads[1]:.2f}):"
    )
    print(f"{'':34}{'early':>9}{'SDK first':>11}{'ratio':>8}")
    for label, key in (("initialize answered", "init"), (f"tools/list answered ({tools})", "list")):
        early, plain = ms[f"early {key}"], ms[f"plain {key}"]
        print(f"  {label:32}{early:7.0f} ms{plain:8.0f} ms{early / plain:7.2f}x")
    print("  goal: tools/list <= 500 ms")
    print(f"  floor: python + pydantic + mcp   {ms['sdk']:7.0f} ms")
    print(f"  floor: python + pydantic         {ms['pyd']:7.0f} ms")
    print(f"  early tools/list / pydantic      {ms['early list'] / ms['pyd']:7.2f}x")


if __name__ == "__main__":
    main()
