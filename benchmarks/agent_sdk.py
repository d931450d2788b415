"""Agent SDK front end: hands vs Claude Code, same SDK program, same fake API.

The behavioural oracle (``CC_ORACLE_DIR``, or ``--oracle DIR``) runs one Agent SDK
program (``tests/cli/sdk/sdk_program.py``: ``can_use_tool``, a PreToolUse hook, a
streamed prompt) in its sandbox against its scripted fake Anthropic API, with Claude Code
or hands as the SDK's CLI. The script is ``--turns`` Read calls and a final answer.

Figures, medians over ``--runs`` interleaved runs per CLI:

* ``first request``: from the program's start to the fake API's first model request
  (the oracle's request log; the program's own start-up is the same for both);
* ``query→first assistant``: from ``query()`` to the first assistant message the
  program receives (the fake API answers at once);
* ``per turn``: between consecutive assistant messages (one Read turn each: the CLI's
  own overhead per turn, the fake API's time is a few ms).

Goal: hands ≤ Claude Code on both. hands' modules are compiled to bytecode first, as an
installed wheel's are (the sandbox is read-only, so nothing would cache the compilation).

    CC_ORACLE_DIR=... .venv/bin/python benchmarks/agent_sdk.py [--runs 5] [--turns 10]
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

from cli.sdk.oracle_kit import read_turns, run_program


def _figures(result: dict[str, Any]) -> tuple[float, float, list[float]]:
    events = result["events"]
    [timing] = [e for e in events if e["type"] == "sdk_timing"]
    [final] = [e for e in events if e["type"] == "result"]
    if final.get("is_error"):
        raise RuntimeError(f"the run failed: {final}")
    first = result["timing"]["first_main_request_s"] * 1000
    return first, timing["to_first_assistant_ms"], timing["turn_ms"]


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--turns", type=int, default=10)
    parser.add_argument("--oracle", help="the oracle's folder (default: $CC_ORACLE_DIR)")
    args = parser.parse_args()
    if args.oracle:
        os.environ["CC_ORACLE_DIR"] = args.oracle
    import compileall

    import hands

    compileall.compile_dir(Path(hands.__file__).parent, quiet=1)
    seen: dict[str, dict[str, list[float]]] = {
        cli: {"first": [], "query": [], "turn": []} for cli in ("claude", "hands")
    }
    for run in range(args.runs):
        for cli in ("claude", "hands") if run % 2 == 0 else ("hands", "claude"):
            first, to_assistant, turns = _figures(run_program(cli, read_turns(args.turns)))
            seen[cli]["first"].append(first)
            seen[cli]["query"].append(to_assistant)
            seen[cli]["turn"].extend(turns)
            print(f"run {run + 1} {cli:>6}: first request {first:7.0f} ms, "
                  f"query→assistant {to_assistant:7.0f} ms, "
                  f"per turn {statistics.median(turns):6.1f} ms", flush=True)  # fmt: skip
    print()
    print(f"{'median (ms)':<26}{'Claude Code':>12}{'hands':>10}{'hands/CC':>10}")
    for key, label in (
        ("first", "start → first request"),
        ("query", "query() → first assistant"),
        ("turn", "per turn"),
    ):
        claude = statistics.median(seen["claude"][key])
        hands = statistics.median(seen["hands"][key])
        print(f"{label:<26}{claude:>12.1f}{hands:>10.1f}{hands / claude:>10.2f}")


if __name__ == "__main__":
    main()
