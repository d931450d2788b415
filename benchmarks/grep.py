"""Grep and Glob through the whole tool pipeline vs ripgrep run directly.

The tree is a pinned Django sdist from the package registry (thousands of files, tens of
MB), downloaded once with ``pip download`` and unpacked under a cache directory
(``$HANDS_BENCH_CACHE``, default ``~/.cache/hands-bench``). For each case both sides use
the same ripgrep flags; the tool side goes through ``run_tool_use`` (parse, validate,
permission, call, shaping, to_content, spill check). Runs are interleaved; the table
gives medians and the ratio tool / raw (goal: at most 1.3).

    python benchmarks/grep.py [--repeat N]
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tarfile
import time
from pathlib import Path
from typing import Any

import anyio

from hands.core.context import ToolContext
from hands.core.messages import ToolUseBlock
from hands.core.session import Session
from hands.pipeline.execution import run_tool_use
from hands.pipeline.pool import ToolPool
from hands.pipeline.runtime import ToolRuntime
from hands.tools.search._rg import rg_path
from hands.tools.search.glob import GlobTool, rg_files_args
from hands.tools.search.grep import GrepInput, GrepTool, rg_args

PACKAGE = "Django"
VERSION = "5.1.4"
GOAL = 1.3

PATTERNS: list[tuple[str, dict[str, Any]]] = [
    ("literal identifier", {"pattern": "QuerySet"}),
    ("alternation regex", {"pattern": "get_object_or_404|redirect"}),
    ("case-insensitive word", {"pattern": "middleware", "-i": True}),
    ("rare literal", {"pattern": "supports_select_for_update_with_limit"}),
    ("very common literal", {"pattern": "self"}),
]
MODES = ("files_with_matches", "content")


def cache_dir() -> Path:
    root = os.environ.get("HANDS_BENCH_CACHE")
    return Path(root).expanduser() if root else Path.home() / ".cache" / "hands-bench"


def source_tree() -> Path:
    """The unpacked sdist, fetched and unpacked on first use."""
    cache = cache_dir()
    tree = cache / f"{PACKAGE}-{VERSION}"
    if (tree / "PKG-INFO").exists():
        return tree
    cache.mkdir(parents=True, exist_ok=True)
    archive = cache / f"{PACKAGE.lower()}-{VERSION}.tar.gz"
    candidates = list(cache.glob(f"[Dd]jango-{VERSION}.tar.gz"))
    if not candidates:
        print(f"downloading {PACKAGE}=={VERSION} sdist …", file=sys.stderr)
        subprocess.run(
            [
                sys.executable,
                "-m",
                "pip",
                "download",
                "--quiet",
                "--no-binary",
                ":all:",
                "--no-deps",
                "--no-build-isolation",
                "--dest",
                str(cache),
                f"{PACKAGE.lower()}=={VERSION}",
            ],
            check=True,
        )
        candidates = list(cache.glob(f"[Dd]jango-{VERSION}.tar.gz"))
    archive = candidates[0]
    with tarfile.open(archive) as tar:
        tar.extractall(cache, filter="data")
    return tree


def tree_stats(tree: Path) -> tuple[int, int]:
    files = 0
    size = 0
    for root, _dirs, names in os.walk(tree):
        for name in names:
            files += 1
            size += (Path(root) / name).stat().st_size
    return files, size


def raw_rg(args: list[str], cwd: Path) -> float:
    started = time.perf_counter()
    subprocess.run([str(rg_path()), *args], cwd=cwd, capture_output=True, check=False)
    return time.perf_counter() - started


async def tool_call(
    runtime: ToolRuntime, ctx: ToolContext, name: str, inp: dict[str, Any]
) -> float:
    started = time.perf_counter()
    outcome = await run_tool_use(
        ToolUseBlock(id="bench", name=name, input=inp), ctx, runtime, progress=lambda _d: None
    )
    elapsed = time.perf_counter() - started
    if outcome.is_error:
        raise SystemExit(f"{name} {inp} failed: {outcome.block.text}")
    return elapsed


async def main(repeat: int, only: str = "") -> None:
    tree = source_tree()
    files, size = tree_stats(tree)
    print(
        f"tree: {PACKAGE} {VERSION} sdist, {files:,} files, {size / 1e6:.1f} MB; "
        f"rg {rg_path()}; {repeat} runs each, medians"
    )
    session = Session(home=cache_dir() / "home")
    ctx = ToolContext(cwd=tree, session=session)
    runtime = ToolRuntime(tools=ToolPool([GrepTool(), GlobTool()]))

    cases: list[tuple[str, str, dict[str, Any], list[str]]] = []
    for label, base in PATTERNS:
        for mode in MODES:
            inp = {**base, "output_mode": mode}
            args = rg_args(GrepInput.model_validate(inp), target=".")
            cases.append((f"Grep {label} [{mode}]", "Grep", inp, args))
    glob_args = rg_files_args("**/*.py")
    cases.append(("Glob **/*.py", "Glob", {"pattern": "**/*.py"}, glob_args))

    print(f"{'case':<48} {'rg ms':>9} {'tool ms':>9} {'ratio':>7}")
    worst = 0.0
    for label, name, inp, args in cases:
        if only and only not in label:
            continue
        raw_times: list[float] = []
        tool_times: list[float] = []
        for i in range(repeat + 2):
            r = raw_rg(args, tree)
            t = await tool_call(runtime, ctx, name, inp)
            if i >= 2:  # warm-up
                raw_times.append(r)
                tool_times.append(t)
        raw_med = statistics.median(raw_times) * 1000
        tool_med = statistics.median(tool_times) * 1000
        ratio = tool_med / raw_med
        worst = max(worst, ratio)
        mark = "" if ratio <= GOAL else "  (over goal)"
        print(f"{label:<48} {raw_med:>9.1f} {tool_med:>9.1f} {ratio:>7.2f}{mark}")
    print(f"worst ratio {worst:.2f} (goal ≤ {GOAL})")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repeat", type=int, default=15)
    parser.add_argument("--only", default="", help="run only cases whose label contains this")
    options = parser.parse_args()
    anyio.run(main, options.repeat, options.only)
