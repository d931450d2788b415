"""Bash tool vs subprocess.run, and the analyser's cost per command.

Prints medians side by side with ratios. Goals: the tool within 1.5x subprocess + 3 ms;
analysis at most 200 us per command (median).
"""

from __future__ import annotations

import itertools
import statistics
import subprocess
import tempfile
import time
from pathlib import Path

import anyio

from hands.core.context import ToolContext
from hands.core.messages import ToolUseBlock
from hands.pipeline.execution import run_tool_use
from hands.pipeline.pool import ToolPool
from hands.pipeline.runtime import ToolRuntime
from hands.shell.analysis import _analyze_cached, analyze
from hands.shell.readonly import analysis_is_read_only
from hands.tools.bash.bash import BashTool

RUNS = 40

TEMPLATES = [
    "git status", "git log --oneline -n {n}", "git diff HEAD~{n} -- src/{f}",
    "ls -la {d}", "cat {d}/{f}", "head -n {n} {d}/{f}", "grep -rn 'TODO' {d}",
    "rg -n 'def {w}' {d}", "find {d} -name '*.py' -type f", "wc -l {d}/*.py",
    "python -m pytest tests/{f} -x -q", "npm run build && npm test", "make -j{n}",
    "cd {d} && ls", "sed -n '{n},{n}0p' {d}/{f}", "echo $(date) >> log.txt",
    "docker ps -a | grep {w}", "pip install -e '.[dev]'", "cargo test --release",
    "LANG=C sort {d}/{f} | uniq -c | sort -rn | head", "tail -f /var/log/{w}.log",
    "git add -A && git commit -m 'fix {w}'", "mkdir -p build/{w} && cd build/{w}",
    "for f in {d}/*.txt; do echo $f; done", "timeout 30 ./scripts/{w}.sh --verbose",
    "jq '.dependencies' package.json", "curl -s https://example.com/{w} | jq .",
    "ps aux | grep {w} | grep -v grep", "rm -rf {d}/__pycache__",
    "cat <<EOF > {f}\nhello {w}\nEOF", "diff <(ls {d}) <(ls src)",
    "git branch -a && git remote -v", "du -sh {d} 2>/dev/null", "xargs grep -l {w}",
]  # fmt: skip


def corpus(size: int = 1000) -> list[str]:
    values = itertools.cycle(
        itertools.product(
            ["src", "tests", "docs/api", "lib/core"],
            ["main.py", "README.md", "a b.txt", "conf.json"],
            [1, 5, 20],
            ["parser", "server", "cache"],
        )
    )
    out: list[str] = []
    for template, (d, f, n, w) in zip(itertools.cycle(TEMPLATES), values, strict=False):
        out.append(template.format(d=d, f=f, n=n, w=w))
        if len(out) == size:
            break
    return out


async def tool_times(command: str, cwd: Path) -> list[float]:
    runtime = ToolRuntime(tools=ToolPool([BashTool()]))
    ctx = ToolContext(cwd=cwd, permission_mode="bypassPermissions")
    times: list[float] = []
    for i in range(RUNS + 3):
        start = time.perf_counter()
        await run_tool_use(
            ToolUseBlock(id=f"b{i}", name="Bash", input={"command": command}),
            ctx,
            runtime,
            progress=lambda _chunk: None,
        )
        if i >= 3:
            times.append(time.perf_counter() - start)
    return times


def subprocess_times(command: str, cwd: Path) -> list[float]:
    times: list[float] = []
    for i in range(RUNS + 3):
        start = time.perf_counter()
        subprocess.run(
            ["bash", "-c", command],
            cwd=cwd,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            check=False,
        )
        if i >= 3:
            times.append(time.perf_counter() - start)
    return times


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        cwd = Path(tmp)
        print(f"{'command':<16}{'subprocess':>14}{'Bash tool':>14}{'ratio':>8}{'goal':>14}")
        for command in ("true", "seq 1 100000"):
            base = statistics.median(subprocess_times(command, cwd))
            tool = statistics.median(anyio.run(tool_times, command, cwd))
            goal = base * 1.5 + 0.003
            verdict = "met" if tool <= goal else "MISSED"
            print(
                f"{command:<16}{base * 1000:>11.2f} ms{tool * 1000:>11.2f} ms"
                f"{tool / base:>7.2f}x{goal * 1000:>9.2f} ms {verdict}"
            )

    commands = corpus()
    analyze("warm up")
    per: list[float] = []
    for command in commands:
        start = time.perf_counter()
        _analyze_cached.__wrapped__(command)  # uncached: the real parse and walk
        per.append(time.perf_counter() - start)
    median_us = statistics.median(per) * 1e6
    p95_us = statistics.quantiles(per, n=20)[-1] * 1e6
    read_only = sum(analysis_is_read_only(analyze(c)) for c in commands)
    print(
        f"\nanalysis of {len(commands)} commands: median {median_us:.0f} us, p95 {p95_us:.0f} us "
        f"(goal <= 200 us median: {'met' if median_us <= 200 else 'MISSED'}); "
        f"{read_only} judged read-only"
    )


if __name__ == "__main__":
    main()
