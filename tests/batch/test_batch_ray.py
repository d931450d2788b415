"""``hands batch --engine ray`` on a real two-node Ray cluster started by the test.

Both nodes run on this machine (a head and a worker node, on loopback). A Ray worker
process is killed while it runs a session: its task is sent again (the result's
``attempt`` says 2), and every task has exactly one result line.
"""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

pytest.importorskip("ray")

from batch_helpers import BUG, CHECK, fixing_model, git_repo, read_results, write_tasks

RAY = str(Path(sys.executable).with_name("ray"))
TASKS = 50


def cluster_env() -> dict[str, str]:
    """A cluster of the test's own on loopback: no usage reports, no token files in ~/.ray.

    Read when the cluster starts, so its processes carry this run's mark (``run_mark``):
    that is how they are told from another test run's cluster on the same machine.
    """
    return {**os.environ, "RAY_USAGE_STATS_ENABLED": "0", "RAY_AUTH_MODE": "disabled"}


def ours(pid: int, run_mark: str) -> bool:
    """Whether process ``pid`` was started by this test run (its environment has the mark)."""
    try:
        return run_mark.encode() in Path(f"/proc/{pid}/environ").read_bytes().split(b"\0")
    except OSError:
        return False


def our_ray_processes(run_mark: str) -> list[int]:
    """This run's Ray processes (``ray stop`` would stop every cluster on the machine)."""
    found: list[int] = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit() or int(entry) == os.getpid():
            continue
        try:
            cmdline = Path(f"/proc/{entry}/cmdline").read_bytes()
        except OSError:
            continue
        if b"ray" in cmdline and ours(int(entry), run_mark):
            found.append(int(entry))
    return found


def stop_cluster(run_mark: str) -> None:
    """Stop this run's Ray processes: asked first, then killed.

    The GCS server does not end on SIGTERM (it outlived a 40 s wait), so it is not
    asked: once the raylets and agents have ended on theirs, it is killed with the rest.
    """
    for sig, grace in ((signal.SIGTERM, 30.0), (signal.SIGKILL, 10.0)):
        pids = our_ray_processes(run_mark)
        if sig == signal.SIGTERM:
            pids = [p for p in pids if not _is_gcs(p)]
        for pid in pids:
            try:
                os.kill(pid, sig)
            except OSError:
                pass
        deadline = time.monotonic() + grace
        while pids and time.monotonic() < deadline:
            pids = [p for p in pids if Path(f"/proc/{p}").exists() and not _zombie(p)]
            time.sleep(0.1)


def _is_gcs(pid: int) -> bool:
    try:
        argv0 = Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")[0]
    except OSError:
        return False
    return Path(argv0.decode(errors="replace")).name == "gcs_server"


def _zombie(pid: int) -> bool:
    try:
        return Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()[0] == "Z"
    except OSError:
        return True


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture(scope="module")
def cluster(run_mark: str) -> Iterator[str]:
    """A Ray head and one worker node; the address to join."""
    # a short folder of its own: Ray's socket paths under it must fit in 107 bytes, which
    # pytest's temporary folders (longer under xdist, popen-gwN/) do not leave room for
    temp = Path(tempfile.mkdtemp(prefix="hands-ray-"))
    port = free_port()
    env = cluster_env()
    common = ["--disable-usage-stats", "--num-cpus", "2", "--object-store-memory", str(200 * 2**20)]
    head = [RAY, "start", "--head", "--node-ip-address", "127.0.0.1", "--port", str(port),
            "--include-dashboard", "false", f"--temp-dir={temp}", *common]  # fmt: skip
    address = f"127.0.0.1:{port}"
    worker = [RAY, "start", "--address", address, "--node-ip-address", "127.0.0.1", *common]
    try:  # a head whose worker node fails to start is stopped too
        for argv in (head, worker):
            started = subprocess.run(argv, env=env, capture_output=True, text=True, timeout=180)
            assert started.returncode == 0, f"{' '.join(argv)}:\n{started.stderr[-3000:]}"
        yield address
    finally:
        stop_cluster(run_mark)
        shutil.rmtree(temp, ignore_errors=True)


def ray_task_workers(run_mark: str) -> list[int]:
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
        if b"ray::SessionWorker" in cmdline and ours(int(entry), run_mark):
            workers.add(int(entry))
    return sorted({parent for parent in parents.values() if parent in workers})


@pytest.mark.timeout(900)
def test_fifty_tasks_on_two_nodes_survive_a_killed_worker(
    cluster: str, tmp_path: Path, run_mark: str
) -> None:
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
        argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=cluster_env()
    )
    killed = None
    deadline = time.monotonic() + 600
    while killed is None and time.monotonic() < deadline and batch.poll() is None:
        done = len(read_results(out)) if out.exists() else 0
        workers = ray_task_workers(run_mark)
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
