"""What stream-json's wait for MCP servers before its ``system/init`` line costs.

``hands -p --output-format stream-json`` waits for every MCP server being started before
it writes the init line (so the line shows each one connected, with its tools); the other
output formats do not wait. This measures, in fresh processes against a loopback
Anthropic API (``cold_start.py``'s), the time from launch to the first model request of
a one-turn session: text and stream-json, each without and with one stdio MCP server
(the tests' demo server), interleaved, medians.

    .venv/bin/python benchmarks/init_wait.py [--runs N]
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
from pathlib import Path

from cold_start import MODEL, load, run_session

DEMO = Path(__file__).resolve().parents[1] / "tests" / "mcp" / "servers" / "demo.py"


def argv(hands: str, output: str, config: Path | None) -> list[str]:
    args = [hands, "-p", "go", "--model", MODEL, "--output-format", output]
    return args + (["--mcp-config", str(config)] if config is not None else [])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7, help="samples of each case")
    args = parser.parse_args()
    work = Path(tempfile.mkdtemp(prefix="hands-init-wait-"))
    (work / "project").mkdir()
    config = work / "mcp.json"
    server = {"command": sys.executable, "args": [str(DEMO)]}
    config.write_text(json.dumps({"mcpServers": {"demo": server}}))
    hands = str(Path(sys.executable).with_name("hands"))
    cases = {
        (output, mcp): argv(hands, output, config if mcp else None)
        for output in ("text", "stream-json")
        for mcp in (False, True)
    }
    firsts: dict[tuple[str, bool], list[float]] = {case: [] for case in cases}
    import cold_start

    print(f"load average (1/5/15 min) at start: {load()}")
    for _ in range(args.runs):
        for case, command in cases.items():
            cold_start.session_argv = lambda _hands, command=command: command
            first, _per_turn, _cpu, _port = run_session(hands, work, 1)
            firsts[case].append(first)
    print(f"time to the first model request, median of {args.runs} (ms):")
    for (output, mcp), samples in firsts.items():
        label = f"{output:12} {'one MCP server' if mcp else 'no MCP server':15}"
        print(f"  {label} {statistics.median(samples):7.0f}")
    for output in ("text", "stream-json"):
        extra = statistics.median(firsts[(output, True)]) - statistics.median(
            firsts[(output, False)]
        )
        print(f"  {output}: the server adds {extra:.0f} ms")
    print(f"load average at the end: {load()}")


if __name__ == "__main__":
    main()
