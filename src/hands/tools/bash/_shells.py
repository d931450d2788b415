"""Background shell tasks: one registry per session, all killed when the session ends."""

from __future__ import annotations

import contextlib
import os
import secrets
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal, TypeAlias

import anyio

from hands.core.context import ToolContext
from hands.core.session import Session
from hands.tools.bash._process import ShellProcess, kill_tree, kill_tree_now, spawn
from hands.tools.bash._settings import SandboxSettings

Status: TypeAlias = Literal["running", "completed", "failed", "killed"]

MAX_READ_BYTES = 4 * 1024 * 1024
"""At most this much new output is returned by one read."""


@dataclass(kw_only=True, slots=True)
class BackgroundTask:
    """One background command and where its output goes."""

    id: str
    command: str
    description: str | None
    proc: ShellProcess
    output_path: Path
    started_at: float = field(default_factory=time.monotonic)
    read_offset: int = 0
    killed: bool = False
    pump: threading.Thread | None = None

    @property
    def exit_code(self) -> int | None:
        """The shell's exit status once it has ended."""
        with contextlib.suppress(OSError):
            self.proc.popen.poll()
        return self.proc.popen.returncode

    @property
    def status(self) -> Status:
        """Running, or how it ended."""
        code = self.exit_code
        if code is None:
            return "running"
        if self.killed:
            return "killed"
        return "completed" if code == 0 else "failed"

    def read_new(self) -> str:
        """Output written since the previous read."""
        try:
            with self.output_path.open("rb") as f:
                f.seek(self.read_offset)
                data = f.read(MAX_READ_BYTES)
        except OSError:
            return ""
        # never split a UTF-8 sequence between two reads
        cut = len(data)
        if cut == MAX_READ_BYTES:
            while cut > 0 and (data[cut - 1] & 0xC0) == 0x80:
                cut -= 1
            if cut > 0 and data[cut - 1] >= 0xC0:
                cut -= 1
        self.read_offset += cut
        return data[:cut].decode("utf-8", "replace")


class BackgroundShells:
    """The session's background tasks. Get it with :meth:`for_session`."""

    def __init__(self) -> None:
        self._tasks: dict[str, BackgroundTask] = {}
        self._directory: Path | None = None

    @classmethod
    def for_session(cls, session: Session) -> BackgroundShells:
        """The session's registry; the first use arranges for cleanup at session end."""
        shells = session.service(cls)
        if shells._directory is None:
            shells._directory = session.directory / "tasks"
            session.add_cleanup(shells.aclose)
        return shells

    @property
    def directory(self) -> Path:
        """Where task output files are written."""
        if self._directory is None:
            raise RuntimeError("BackgroundShells must be obtained with for_session()")
        self._directory.mkdir(parents=True, exist_ok=True)
        return self._directory

    def _new_id(self) -> str:
        while True:
            task_id = "b" + secrets.token_hex(4)
            if task_id not in self._tasks:
                return task_id

    def start(
        self,
        command: str,
        *,
        cwd: Path,
        ctx: ToolContext,
        sandbox: SandboxSettings | None,
        description: str | None = None,
        prelude: str = "",
    ) -> BackgroundTask:
        """Start ``command`` (after ``prelude``) with its output going straight to a file."""
        from hands.tools.bash.sandbox import sandbox as sb

        task_id = self._new_id()
        path = self.directory / f"{task_id}.output"
        path.touch()
        launch = sb.prepare(command, cwd=cwd, ctx=ctx, settings=sandbox)
        try:
            proc = spawn(
                launch.argv,
                cwd=cwd,
                env=launch.env,
                output_file=path,
                report_cwd=False,
                extra_fds=launch.fds,
                setup=prelude,
            )
        finally:
            launch.close()
        task = BackgroundTask(
            id=task_id, command=command, description=description, proc=proc, output_path=path
        )
        self._tasks[task_id] = task
        return task

    def adopt(
        self, proc: ShellProcess, command: str, so_far: str, *, description: str | None = None
    ) -> BackgroundTask:
        """Take over a running foreground command whose output is still a pipe."""
        task_id = self._new_id()
        path = self.directory / f"{task_id}.output"
        path.write_text(so_far, encoding="utf-8")
        task = BackgroundTask(
            id=task_id, command=command, description=description, proc=proc, output_path=path
        )
        fd = proc.output_fd
        if fd is not None:
            os.set_blocking(fd, True)
            task.pump = threading.Thread(target=_pump, args=(proc, path), daemon=True)
            task.pump.start()
        self._tasks[task_id] = task
        return task

    def get(self, task_id: str) -> BackgroundTask | None:
        """The task with this id, if any."""
        return self._tasks.get(task_id)

    def tasks(self) -> list[BackgroundTask]:
        """Every task of the session, oldest first."""
        return list(self._tasks.values())

    def running(self) -> list[BackgroundTask]:
        """The tasks still running."""
        return [t for t in self._tasks.values() if t.status == "running"]

    async def stop(self, task: BackgroundTask) -> None:
        """Kill the task's whole process tree."""
        task.killed = task.status == "running"
        with anyio.CancelScope(shield=True):
            await kill_tree(task.proc)
        if task.pump is not None:
            await anyio.to_thread.run_sync(task.pump.join, 1.0)

    async def aclose(self) -> None:
        """Kill every task (session end)."""
        for task in list(self._tasks.values()):
            try:
                await self.stop(task)
            except Exception:
                kill_tree_now(task.proc)

    async def wait(self, task: BackgroundTask, timeout_s: float) -> bool:
        """Wait until the task ends or ``timeout_s`` passes; whether it ended."""
        deadline = time.monotonic() + timeout_s
        delay = 0.01
        while task.status == "running":
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                return False
            await anyio.sleep(min(delay, remaining))
            delay = min(delay * 2, 0.1)
        if task.pump is not None:
            await anyio.to_thread.run_sync(task.pump.join, 1.0)
        return True


def _pump(proc: ShellProcess, path: Path) -> None:
    fd = proc.output_fd
    if fd is None:
        return
    try:
        with path.open("ab") as out:
            while True:
                data = os.read(fd, 65536)
                if not data:
                    break
                out.write(data)
                out.flush()
    except OSError:
        pass
    finally:
        proc.close_fds()
