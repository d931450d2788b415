"""Cold start of `hands tool Read` on a small text file, beside the floors it stands on.

Goal: <= 250 ms. Every row is a fresh process; medians of interleaved runs.
"""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

RUNS = 15
GOAL_MS = 250.0


def timed(argv: list[str], env: dict[str, str]) -> float:
    start = time.perf_counter()
    proc = subprocess.run(argv, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    elapsed = (time.perf_counter() - start) * 1000
    if proc.returncode != 0:
        raise SystemExit(f"{' '.join(argv)} failed: {proc.stderr.decode(errors='replace')}")
    return elapsed


def main() -> None:
    work = Path(tempfile.mkdtemp(prefix="hands-cold-"))
    target = work / "notes.txt"
    target.write_text("hello\n" * 20)
    env = {**os.environ, "HANDS_HOME": str(work / "home")}
    env.pop("PYDANTIC_DISABLE_PLUGINS", None)
    hands = str(Path(sys.executable).with_name("hands"))
    cases = {
        "python -c pass": [sys.executable, "-c", "pass"],
        "python -c 'import pydantic'": [sys.executable, "-c", "import pydantic"],
        "python -c 'import hands'": [sys.executable, "-c", "import hands"],
        "hands tool Read": [hands, "tool", "Read", json.dumps({"file_path": str(target)})],
    }
    samples: dict[str, list[float]] = {name: [] for name in cases}
    for _ in range(RUNS):
        for name, argv in cases.items():
            samples[name].append(timed(argv, env))
    read = statistics.median(samples["hands tool Read"])
    print(f"cold start, median of {RUNS} interleaved runs (ms); load {os.getloadavg()[0]:.2f}")
    for name, values in samples.items():
        median = statistics.median(values)
        print(f"{name:<32} {median:>8.1f}   {median / read:>5.2f}x of hands tool Read")
    verdict = "MET" if read <= GOAL_MS else "MISSED"
    print(f"goal: hands tool Read <= {GOAL_MS:.0f} ms: {read:.1f} ms {verdict}")


if __name__ == "__main__":
    main()
