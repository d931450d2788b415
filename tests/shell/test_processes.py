"""Finding a command's strays while this process has no file descriptor to spare."""

from __future__ import annotations

import os
import resource
import secrets
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager

import anyio
import pytest

from hands.shell.processes import MARKER_VAR, scan_marked, settled_marked


@contextmanager
def stray(marker: str) -> Iterator[subprocess.Popen[bytes]]:
    """A marked process in a session of its own, as a ``setsid`` daemon would be."""
    env = {**os.environ, MARKER_VAR: marker}
    child = subprocess.Popen(
        [sys.executable, "-c", "import time; time.sleep(60)"], env=env, start_new_session=True
    )
    try:
        deadline = time.monotonic() + 30
        while child.pid not in scan_marked(marker).marked:  # until its environment is set up
            assert time.monotonic() < deadline, "the marked process never showed up"
            time.sleep(0.005)
        yield child
    finally:
        child.kill()
        child.wait()


@contextmanager
def no_descriptor_left() -> Iterator[list[int]]:
    """Every file descriptor of this process taken; they are given back on close."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    held: list[int] = []
    resource.setrlimit(resource.RLIMIT_NOFILE, (len(os.listdir("/proc/self/fd")) + 4, hard))
    try:
        try:
            while True:
                held.append(os.open("/dev/null", os.O_RDONLY))
        except OSError:
            pass
        yield held
    finally:
        release(held)
        resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))


def release(held: list[int]) -> None:
    while held:
        os.close(held.pop())


def test_a_scan_with_no_descriptor_says_it_saw_nothing() -> None:
    marker = secrets.token_hex(8)
    with stray(marker), no_descriptor_left():
        scan = scan_marked(marker)
    assert scan.starved
    assert not scan.marked


@pytest.mark.anyio
async def test_a_stray_is_found_once_descriptors_come_back() -> None:
    """The scan waits for descriptors instead of reporting no stray (which left it alive)."""
    marker = secrets.token_hex(8)
    with stray(marker) as child, no_descriptor_left() as held:
        async with anyio.create_task_group() as tg:

            async def give_back() -> None:
                await anyio.sleep(0.3)
                release(held)

            tg.start_soon(give_back)
            found = await settled_marked(marker, since_pid=0, wait_s=0.05)
    assert found == [child.pid]
