"""``hands batch --engine ray`` on a real two-node Ray cluster started by the test.

Both nodes run on this machine (a head and a worker node, on loopback). A Ray worker
process is killed while it runs a session: its task is sent again (the result's
``attempt`` says 2), and every task has exactly one result line.
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

pytest.importorskip("ray")

from batch_helpers import BUG, CHECK, fixing_model, git_repo, read_results, write_tasks

RAY = str(Path(sys.executable).with_name("ray"))
# a cluster of the test's own on loopback: no usage reports, no token files in ~/.ray
CLUSTER_ENV = {**os.environ, "RAY_USAGE_STATS_ENABLED": "0", "RAY_AUTH_MODE": "disabled"}
TASKS = 50


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture(scope="module")
def cluster(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A Ray head and one worker node; the address to join."""
    temp = tmp_path_factory.mktemp("ray")
    port = free_port()
    env = CLUSTER_ENV
    common = ["--disable-usage-stats", "--num-cpus", "2", "--object-store-memory", str(200 * 2**20)]
    head = [RAY, "start", "--head", "--node-ip-address", "127.0.0.1", "--port", str(port),
            "--include-dashboard", "false", f"--temp-dir={temp}", *common]  # fmt: skip
    subprocess.run(head, check=True, env=env, capture_output=True, timeout=180)
    address = f"127.0.0.1:{port}"
    worker = [RAY, "start", "--address", address, "--node-ip-address", "127.0.0.1", *common]
    subprocess.run(worker, check=True, env=env, capture_output=True, timeout=180)
    try:
        yield address
    finally:
        subprocess.run([RAY, "stop", "--force"], env=env, capture_output=True, timeout=120)


def ray_task_workers() -> list[int]:
    """Pids of our Ray worker processes that are running a session right now."""
    workers: set[int] = set()
    parents: dict[int, int] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            cmdline = Path(f"/proc/{entry}/cmdline").read_bytes().replace(b"\0", b" ")
            stat = Path(f"/proc/{entry}/stat").read_text()
        except OSError:
            continue
        parents[int(entry)] = int(stat.rpartition(")")[2].split()[1])
        if b"ray::SessionWorker" in cmdline:
            workers.add(int(entry))
    return sorted({parent for parent in parents.values() if parent in workers})


@pytest.mark.timeout(900)
def test_fifty_tasks_on_two_nodes_survive_a_killed_worker(cluster: str, tmp_path: Path) -> None:
    model = fixing_model(tmp_path)
    repo, commit = git_repo(tmp_path / "repo", {"calc.py": BUG})
    tasks = write_tasks(
        tmp_path / "tasks.jsonl",
        [
            {"id": f"t{i:02d}", "prompt": "fix", "repo": repo, "commit": commit, "check": CHECK}
            for i in range(TASKS)
        ],
    )
    out = tmp_path / "results.jsonl"
    argv = [sys.executable, "-m", "hands", "batch", str(tasks), "--out", str(out),
            "--engine", "ray", "--address", cluster, "--model", model,
            "--concurrency", "4", "--quiet"]  # fmt: skip
    batch = subprocess.Popen(
        argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=CLUSTER_ENV
    )
    killed = None
    deadline = time.monotonic() + 600
    while killed is None and time.monotonic() < deadline and batch.poll() is None:
        done = len(read_results(out)) if out.exists() else 0
        workers = ray_task_workers()
        if done >= 5 and workers:
            killed = workers[0]
            os.kill(killed, signal.SIGKILL)
        time.sleep(0.2)
    _, stderr = batch.communicate(timeout=600)
    assert batch.returncode == 0, stderr
    assert killed is not None, "no task was running to kill"
    results = read_results(out)
    ids = [r["id"] for r in results]
    assert len(ids) == TASKS and len(set(ids)) == TASKS  # one line per task, none twice
    assert {r["status"] for r in results} == {"passed"}, [
        r for r in results if r["status"] != "passed"
    ]
    # the task (or tasks) lost with the killed worker ran again, and say so
    assert max(r["attempt"] for r in results) == 2
