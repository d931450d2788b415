"""What checkpointing a shell command's changes costs: the git snapshot around it.

For work trees of growing size (files tracked, a few changed), prints the median time
of ``shell_changes.before`` + ``after`` (two ``git status``, reading the changed files)
beside the median time of running ``sh -c true`` (the least a Bash call costs), and
their ratio. Run in a folder that is not trusted (git runs as hands runs it there).
"""

from __future__ import annotations

import functools
import statistics
import subprocess
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from hands.pipeline.shell_changes import after, before

RUNS = 30
SIZES = (100, 2_000, 20_000)


def _repo(root: Path, files: int) -> None:
    subprocess.run(["git", "init", "-q"], cwd=root, check=True)
    for n in range(files):
        folder = root / f"d{n % 50}"
        folder.mkdir(exist_ok=True)
        (folder / f"f{n}.txt").write_text(f"line {n}\n" * 20)
    subprocess.run(["git", "add", "."], cwd=root, check=True)
    subprocess.run(
        ["git", "-c", "user.email=b@example.com", "-c", "user.name=b", "commit", "-qm", "x"],
        cwd=root,
        check=True,
    )
    for n in range(0, files, max(1, files // 10)):  # ten files changed, as in a working day
        (root / f"d{n % 50}" / f"f{n}.txt").write_text("changed\n")


def _median_ms(action: Callable[[], None]) -> float:
    times: list[float] = []
    for _ in range(RUNS):
        started = time.perf_counter()
        action()
        times.append((time.perf_counter() - started) * 1000)
    return statistics.median(times)


def _snapshot(root: Path) -> None:
    state = before(root, trusted=False, max_file_bytes=10_000_000)
    assert state is not None
    after(state, trusted=False)


def _shell(root: Path) -> None:
    subprocess.run(["sh", "-c", "true"], cwd=root, check=True)


def main() -> None:
    print(f"{'files':>7} {'snapshot ms':>12} {'sh -c true ms':>14} {'ratio':>6}")
    for files in SIZES:
        with tempfile.TemporaryDirectory(prefix="hands-bench-shell-cp-") as folder:
            root = Path(folder)
            _repo(root, files)

            snap = _median_ms(functools.partial(_snapshot, root))
            sh = _median_ms(functools.partial(_shell, root))
            print(f"{files:>7} {snap:>12.2f} {sh:>14.2f} {snap / sh:>6.1f}")


if __name__ == "__main__":
    main()
