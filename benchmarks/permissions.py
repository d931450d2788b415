"""Permission decisions with 200 rules: median and p95 per call kind, against the goals.

Goals: a Read decision <= 20 us, a simple Bash command <= 150 us, a compound Bash command
of 10 sub-commands <= 500 us (each analysed fresh and from the parse cache).
"""

from __future__ import annotations

import os
import statistics
import tempfile
import time
from pathlib import Path

import anyio

os.environ.setdefault("HANDS_HOME", tempfile.mkdtemp(prefix="hands-bench-"))

from hands.core.context import ToolContext
from hands.permissions.engine import PermissionEngine
from hands.permissions.rules import RuleOrigin, parse_rules
from hands.tools.bash.bash import BashTool
from hands.tools.file.read import ReadTool

RUNS = 3000


def engine_for(project: Path) -> PermissionEngine:
    origin = RuleOrigin(
        scope="projectSettings", label=str(project / ".claude/settings.json"), root=project
    )
    lists = {
        "allow": [f"Bash(tool{i} sub:*)" for i in range(120)]
        + [f"Read(//data/{i}/**)" for i in range(20)],
        "deny": [f"Bash(danger{i}:*)" for i in range(30)]
        + [f"Read(**/secret{i}.txt)" for i in range(15)],
        "ask": [f"Bash(maybe{i} *)" for i in range(15)],
    }
    rules = [
        r for behavior, items in lists.items() for r in parse_rules(items, behavior, origin)[0]
    ]
    return PermissionEngine(rules, home=project)


async def main() -> None:
    project = Path(tempfile.mkdtemp()).resolve()
    (project / "src").mkdir()
    (project / "src/a.py").touch()
    engine = engine_for(project)
    ctx = ToolContext(cwd=project)
    read, bash = ReadTool(), BashTool()
    compound = " && ".join(f"tool{i} sub arg{i}" for i in range(10))
    cases = [
        ("Read", read, read.parse_input({"file_path": str(project / "src/a.py")}), 20.0),
        ("Bash simple", bash, bash.parse_input({"command": "tool7 sub --flag x"}), 150.0),
        ("Bash 10 sub-commands", bash, bash.parse_input({"command": compound}), 500.0),
    ]
    print(f"permission decisions, {len(engine.rules)} rules, {RUNS} runs each (µs)")
    print(f"{'call':<24} {'first':>9} {'median':>9} {'p95':>9} {'goal':>7}  verdict")
    failed = False
    for name, tool, parsed, goal in cases:
        start = time.perf_counter()
        await engine.decide(tool, parsed, ctx)
        first = (time.perf_counter() - start) * 1e6
        samples: list[float] = []
        for _ in range(RUNS):
            start = time.perf_counter()
            await engine.decide(tool, parsed, ctx)
            samples.append((time.perf_counter() - start) * 1e6)
        samples.sort()
        median = statistics.median(samples)
        p95 = samples[int(len(samples) * 0.95)]
        ok = median <= goal
        failed = failed or not ok
        print(
            f"{name:<24} {first:>9.1f} {median:>9.1f} {p95:>9.1f} {goal:>7.0f}  "
            f"{'MET' if ok else 'MISSED'}"
        )
    print("first = the first decision (fresh parse); median/p95 = repeated decisions")
    raise SystemExit(1 if failed else 0)


if __name__ == "__main__":
    anyio.run(main)
