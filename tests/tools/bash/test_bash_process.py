"""Finding a command's processes when pids have wrapped around."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

from hands.shell.processes import MARKER_VAR, scan_floor
from hands.tools.bash._process import marked_pids

PID_MAX = int(Path("/proc/sys/kernel/pid_max").read_text())


def test_scan_floor_follows_the_newest_pid() -> None:
    # every pid handed out is at least 1, so nothing below pid 1 needs scanning
    assert scan_floor(1) == 1
    # no pid reaches pid_max: a shell with that pid would see every later pid below it,
    # as after a wrap, so everything is scanned (this process's own pid is no fixed
    # point: a busy test run wraps pids while it runs)
    assert scan_floor(PID_MAX) == 0


def test_a_marked_process_is_found_below_the_shells_pid_after_a_wrap() -> None:
    marker = f"wrap-{os.getpid()}"
    child = subprocess.Popen(
        [sys.executable, "-c", "import time; time.sleep(30)"],
        env={**os.environ, MARKER_VAR: marker},
    )
    try:
        # a shell started just below pid_max whose child got a low pid after the wrap
        assert child.pid in marked_pids(marker, since_pid=PID_MAX - 1)
        assert child.pid in marked_pids(marker, since_pid=child.pid)
    finally:
        child.kill()
        child.wait()
    assert child.pid not in marked_pids(marker)


def test_only_a_process_caught_mid_exec_is_undecided() -> None:
    from hands.shell.processes import classify

    marker = f"classify-{os.getpid()}"
    marked = subprocess.Popen(["sleep", "30"], env={**os.environ, MARKER_VAR: marker})
    # a finished exec with an empty environment is simply not ours
    bare = subprocess.Popen(["env", "-i", "sleep", "30"])
    try:
        for _ in range(200):  # until env has exec'd sleep
            if Path(f"/proc/{bare.pid}/comm").read_text().strip() == "sleep":
                break
            time.sleep(0.01)
        kernel_threads = [2] if Path("/proc/2/environ").exists() else []  # kthreadd
        scan = classify([marked.pid, bare.pid, *kernel_threads, 999_999_999], marker)
        assert scan.marked == (marked.pid,)
        assert scan.undecided == ()  # a kernel thread's empty environment is no exec either
    finally:
        for child in (marked, bare):
            child.kill()
            child.wait()
