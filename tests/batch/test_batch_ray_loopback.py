"""``hands batch --engine ray`` without ``--address`` starts a Ray of its own whose every
service listens on loopback only.

While the batch's one task runs (its session waits for the test's word), the test lists the
listening TCP sockets of every process of that Ray (they carry the run's mark in their
environment): the driver, GCS, the raylet, the agents and the workers.
"""

from __future__ import annotations

import ipaddress
import os
import shutil
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path

import pytest

pytest.importorskip("ray")

from batch_helpers import bash, read_results, script, text, write_tasks

MARK = "HANDS_RAY_LOOPBACK_RUN"


def _marked(pid: str, mark: str) -> bool:
    try:
        return f"{MARK}={mark}".encode() in Path(f"/proc/{pid}/environ").read_bytes().split(b"\0")
    except OSError:
        return False


def marked_processes(mark: str) -> dict[int, bytes]:
    """This run's processes: pid → command line."""
    found: dict[int, bytes] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit() and _marked(entry, mark):
            try:
                found[int(entry)] = Path(f"/proc/{entry}/cmdline").read_bytes()
            except OSError:
                continue
    return found


def parent_of(pid: int) -> int:
    try:
        return int(Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()[1])
    except OSError:
        return 0


def _address(hex_address: str) -> ipaddress.IPv4Address | ipaddress.IPv6Address:
    """An address as /proc/net/tcp{,6} writes it: 32-bit words in host (little) order."""
    raw = bytes.fromhex(hex_address)
    ordered = b"".join(raw[i : i + 4][::-1] for i in range(0, len(raw), 4))
    return ipaddress.ip_address(ordered)


def listening_sockets() -> dict[str, tuple[ipaddress.IPv4Address | ipaddress.IPv6Address, int]]:
    """Socket inode → (address, port) of every listening TCP socket."""
    found: dict[str, tuple[ipaddress.IPv4Address | ipaddress.IPv6Address, int]] = {}
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        for line in Path(table).read_text().splitlines()[1:]:
            fields = line.split()
            if fields[3] == "0A":  # LISTEN
                host, port = fields[1].split(":")
                found[fields[9]] = (_address(host), int(port, 16))
    return found


def listeners_of(pids: dict[int, bytes]) -> list[tuple[str, str, int]]:
    """(process, address, port) for each listening socket the processes hold."""
    sockets = listening_sockets()
    out: list[tuple[str, str, int]] = []
    for pid, cmdline in pids.items():
        try:
            fds = os.listdir(f"/proc/{pid}/fd")
        except OSError:
            continue
        for fd in fds:
            try:
                link = os.readlink(f"/proc/{pid}/fd/{fd}")
            except OSError:
                continue
            inode = link.removeprefix("socket:[").removesuffix("]")
            if link.startswith("socket:[") and inode in sockets:
                address, port = sockets[inode]
                name = cmdline.split(b"\0")[0].decode(errors="replace").rsplit("/", 1)[-1]
                out.append((name, str(address), port))
    return out


def loopback(address: str) -> bool:
    ip = ipaddress.ip_address(address)
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        return ip.ipv4_mapped.is_loopback
    return ip.is_loopback


def test_the_ray_hands_starts_listens_on_loopback_only(tmp_path: Path) -> None:
    mark = uuid.uuid4().hex
    release = tmp_path / "release"
    waits = (
        f'python3 -c "import os, time; [time.sleep(0.1) for _ in '
        f"iter(lambda: os.path.exists('{release}'), True)]\""
    )
    model = script(tmp_path / "model.json", bash(waits), text("done"))
    task = {"id": "t", "prompt": "go", "files": {"a.txt": "x\n"}}
    task["settings"] = {"permissions": {"allow": ["Bash"]}}
    tasks = write_tasks(tmp_path / "tasks.jsonl", [task])
    out = tmp_path / "results.jsonl"
    # a short folder of its own: Ray's socket paths must fit in 107 bytes
    ray_tmp = Path(tempfile.mkdtemp(prefix="hands-rl-"))
    env = {**os.environ, MARK: mark, "RAY_TMPDIR": str(ray_tmp), "RAY_USAGE_STATS_ENABLED": "0"}
    env["RAY_AUTH_MODE"] = "disabled"  # no token file written in ~/.ray
    argv = [sys.executable, "-m", "hands", "batch", str(tasks), "--out", str(out),
            "--engine", "ray", "--model", model, "--concurrency", "1",
            "--sandbox", "none", "--quiet"]  # fmt: skip
    batch = subprocess.Popen(
        argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env
    )
    try:
        seen: list[tuple[str, str, int]] = []
        deadline = time.monotonic() + 300
        while time.monotonic() < deadline and batch.poll() is None:
            processes = marked_processes(mark)
            workers = {p for p, cmd in processes.items() if b"ray::SessionWorker" in cmd}
            if any(parent_of(p) in workers for p in processes):  # a session is running
                seen = listeners_of(processes)
                break
            time.sleep(0.2)
        release.touch()
        _, stderr = batch.communicate(timeout=300)
    finally:
        if batch.poll() is None:
            batch.kill()
        shutil.rmtree(ray_tmp, ignore_errors=True)
    assert batch.returncode == 0, stderr
    assert [r["status"] for r in read_results(out)] == ["completed"]
    names = {name for name, _, _ in seen}
    assert {"gcs_server", "raylet"} <= names, seen  # Ray's own servers were looked at
    exposed = [s for s in seen if not loopback(s[1])]
    assert not exposed, f"listening beyond loopback: {exposed}"
