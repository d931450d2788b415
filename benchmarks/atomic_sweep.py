"""What the leftover sweep adds to an atomic write, by the size of the target's folder.

Every ``write_atomic`` lists its folder once to remove the temporary files killed
writers left. This writes a small file into folders of 0 to 10,000 other files, with the
sweep and without it, alternating, and prints the medians and their ratio, and the
median of the sweep alone.

    python benchmarks/atomic_sweep.py [--runs 40]
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from hands.tools.file import _atomic
from hands.tools.file._leftovers import sweep


def timed(run: Callable[[], object]) -> float:
    started = time.perf_counter()
    run()
    return (time.perf_counter() - started) * 1000


def no_sweep(folder: Path) -> list[str]:
    return []


def measure(folder: Path, runs: int) -> tuple[float, float, float]:
    """Medians in ms: a write with the sweep, one without, the sweep alone."""
    target = folder / "target.py"
    target.write_bytes(b"x = 1\n")
    with_sweep: list[float] = []
    without: list[float] = []
    alone: list[float] = []
    for i in range(runs):
        data = f"x = {i}\n".encode()
        _atomic.sweep = sweep
        with_sweep.append(timed(lambda data=data: _atomic.write_atomic(target, data)))
        _atomic.sweep = no_sweep
        without.append(timed(lambda data=data: _atomic.write_atomic(target, data)))
        alone.append(timed(lambda: sweep(folder)))
    _atomic.sweep = sweep
    return statistics.median(with_sweep), statistics.median(without), statistics.median(alone)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=40)
    runs = parser.parse_args().runs
    print(f"{'files':>6} {'with sweep ms':>14} {'without ms':>11} {'ratio':>6} {'sweep ms':>9}")
    for count in (0, 100, 1_000, 10_000):
        with tempfile.TemporaryDirectory(prefix="hands-bench-sweep-") as tmp:
            folder = Path(tmp)
            for i in range(count):
                (folder / f"file{i:05d}.py").touch()
            a, b, alone = measure(folder, runs)
            print(f"{count:>6} {a:>14.3f} {b:>11.3f} {a / b:>6.2f} {alone:>9.3f}")


if __name__ == "__main__":
    main()
