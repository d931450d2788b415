"""Background shell tasks: one registry per session, all killed when the session ends.

The registry is session state (:mod:`hands.core.state`): its snapshot lists the shells
and says they cannot be restored (a process does not outlive its session); a resumed
session knows them as the earlier session's, and TaskOutput says so for their ids.

Each task is watched until it ends: at its time limit it is stopped, and when it ends a
last line saying how goes to its output file and a notice to the agent that started it
(:class:`hands.core.inbox.Inbox`), so the model hears of it without polling.
"""

from __future__ import annotations

import asyncio
import contextlib
import math
import os
import secrets
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, ClassVar, Literal, TypeAlias, cast

import anyio

from hands.core.context import ToolContext
from hands.core.inbox import Inbox
from hands.core.session import Session
from hands.core.state import Carried
from hands.core.task_feed import TaskChange, TaskFeed
from hands.tools.bash._ending import ending_line, ending_notice
from hands.tools.bash._process import ShellProcess, kill_tree, kill_tree_now, spawn
from hands.tools.bash._settings import SandboxSettings

Status: TypeAlias = Literal["running", "completed", "failed", "killed"]
Ending: TypeAlias = Literal["limit", "stop", "session"]
"""Why a task was stopped: its time limit, TaskStop, the session's end."""

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
    tool_use_id: str = ""
    agent_id: str | None = None
    """The agent that started it, which hears when it ends."""
    limit_ms: int | None = None
    """Stopped once it has run this long (``None``: no limit)."""
    stopped_by: Ending | None = None
    ended: bool = False
    """Its last line is written and its notice sent."""
    watcher: asyncio.Task[None] | None = None
    before_notice: Callable[[], None] | None = None
    """Called when it has ended, just before its notice is sent (a monitor's last lines)."""

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


@dataclass(frozen=True, kw_only=True, slots=True)
class EarlierShell:
    """A background shell of the session this one resumes: gone, its output file kept."""

    id: str
    command: str
    status: str
    output_path: str


class BackgroundShells:
    """The session's background tasks. Get it with :meth:`for_session`.

    Session state: the session's end kills every task (:meth:`aclose`).
    """

    key: ClassVar[str] = "background_shells"

    def __init__(self) -> None:
        self._tasks: dict[str, BackgroundTask] = {}
        self._directory: Path | None = None
        self.earlier: dict[str, EarlierShell] = {}
        """The shells of the session this one resumes, by id (none are running)."""

    @classmethod
    def for_session(cls, session: Session) -> BackgroundShells:
        """The session's registry (the session closes it at its end)."""
        shells = session.service(cls)
        if shells._directory is None:
            shells._directory = session.directory / "tasks"
        return shells

    def snapshot(self) -> dict[str, Any]:
        """The shells as they are, marked not restorable: a process ends with its session."""
        shells = [
            {"id": t.id, "command": t.command, "status": t.status, "output": str(t.output_path)}
            for t in self._tasks.values()
        ]
        shells += [
            {"id": e.id, "command": e.command, "status": e.status, "output": e.output_path}
            for e in self.earlier.values()
            if e.id not in self._tasks
        ]
        return {"restorable": False, "shells": shells}

    def restore(self, data: Any) -> None:
        """Remember an earlier session's shells (as gone); nothing is started again."""
        rows: object = (
            cast(dict[str, object], data).get("shells") if isinstance(data, dict) else None
        )
        if not isinstance(rows, list):
            return
        for row in cast(list[object], rows):
            if not isinstance(row, dict):
                continue
            got = cast(dict[str, object], row)
            values = [got.get(k) for k in ("id", "command", "status", "output")]
            if all(isinstance(v, str) for v in values):
                shell_id, command, status, output = (str(v) for v in values)
                self.earlier[shell_id] = EarlierShell(
                    id=shell_id, command=command, status=status, output_path=output
                )

    def carry(self, ctx: ToolContext, *, reattach: int) -> Carried:
        """The shells still running, for the model to read or stop after compaction."""
        running = self.running()
        if not running:
            return Carried()
        head = "Background shells still running (TaskOutput reads them, TaskStop stops them):"
        return Carried(lines=(head, *(f"{t.id}: {t.command[:100]}" for t in running)))

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
        limit_ms: int | None = None,
    ) -> BackgroundTask:
        """Start ``command`` (after ``prelude``) with its output going straight to a file.

        ``limit_ms``: how long it may run before it is stopped.
        """
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
        return self._register(
            _task(task_id, proc, command, description, path, ctx=ctx, limit_ms=limit_ms),
            ctx.session,
        )

    def adopt(
        self,
        proc: ShellProcess,
        command: str,
        so_far: str,
        *,
        ctx: ToolContext,
        limit_ms: int | None,
        description: str | None = None,
    ) -> BackgroundTask:
        """Take over a running foreground command whose output is still a pipe."""
        task_id = self._new_id()
        path = self.directory / f"{task_id}.output"
        path.write_text(so_far, encoding="utf-8")
        task = _task(task_id, proc, command, description, path, ctx=ctx, limit_ms=limit_ms)
        fd = proc.output_fd
        if fd is not None:
            os.set_blocking(fd, True)
            task.pump = threading.Thread(target=_pump, args=(proc, path), daemon=True)
            task.pump.start()
        return self._register(task, ctx.session)

    def _register(self, task: BackgroundTask, session: Session) -> BackgroundTask:
        """Keep ``task`` and watch it until it ends."""
        self._tasks[task.id] = task
        self._watch(task, session)
        return task

    def _watch(self, task: BackgroundTask, session: Session) -> None:
        inbox = session.service(Inbox)
        inbox.started(task.agent_id)
        feed = session.service(TaskFeed)
        feed.publish(
            TaskChange(
                task_id=task.id,
                state="running",
                description=task.description or task.command,
                owner=task.agent_id,
                kind="local_bash",
                tool_use_id=task.tool_use_id,
            )
        )
        task.watcher = asyncio.get_running_loop().create_task(
            self._until_end(task, inbox, feed), name=f"bash:{task.id}"
        )

    async def _until_end(self, task: BackgroundTask, inbox: Inbox, feed: TaskFeed) -> None:
        """Wait for the task to end (stopping it at its limit), then tell its agent."""
        try:
            with anyio.move_on_after(
                math.inf if task.limit_ms is None else task.limit_ms / 1000
            ) as scope:
                await _exited(task.proc)
            if scope.cancelled_caught:
                await self.stop(task, by="limit")
            elif task.pump is not None:
                await anyio.to_thread.run_sync(task.pump.join, 1.0)
        finally:
            quiet = task.stopped_by in ("stop", "session")
            if task.before_notice is not None:
                task.before_notice()
            _write_ending(task)
            status = task.status
            feed.publish(
                TaskChange(
                    task_id=task.id,
                    state="killed" if status == "running" else status,
                    description=task.description or task.command,
                    owner=task.agent_id,
                )
            )
            inbox.finished(task.agent_id, None if quiet else ending_notice(task))

    def get(self, task_id: str) -> BackgroundTask | None:
        """The task with this id, if any."""
        return self._tasks.get(task_id)

    def tasks(self) -> list[BackgroundTask]:
        """Every task of the session, oldest first."""
        return list(self._tasks.values())

    def running(self) -> list[BackgroundTask]:
        """The tasks still running."""
        return [t for t in self._tasks.values() if t.status == "running"]

    async def stop(self, task: BackgroundTask, *, by: Ending = "stop") -> None:
        """Kill the task's whole process tree."""
        if task.status == "running":
            task.killed = True
            task.stopped_by = task.stopped_by or by
        with anyio.CancelScope(shield=True):
            await kill_tree(task.proc)
        if task.pump is not None:
            await anyio.to_thread.run_sync(task.pump.join, 1.0)

    async def aclose(self) -> None:
        """Kill every task (session end)."""
        for task in list(self._tasks.values()):
            try:
                await self.stop(task, by="session")
            except Exception:
                kill_tree_now(task.proc)
            if task.watcher is not None and not task.watcher.done():
                task.watcher.cancel()
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await task.watcher
            _write_ending(task)

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


async def _exited(proc: ShellProcess) -> None:
    """Until the shell has exited."""
    try:
        pidfd = os.pidfd_open(proc.pid)
    except ProcessLookupError:
        return  # already reaped
    try:
        await anyio.wait_readable(pidfd)
    finally:
        os.close(pidfd)
    with contextlib.suppress(OSError):
        proc.popen.poll()


def _write_ending(task: BackgroundTask) -> None:
    """The output file's last line: how the task ended (once)."""
    if task.ended:
        return
    task.ended = True
    line = ending_line(task)
    with contextlib.suppress(OSError), task.output_path.open("ab+") as f:
        f.seek(0, os.SEEK_END)
        if f.tell():
            f.seek(-1, os.SEEK_END)
            if f.read(1) != b"\n":
                line = "\n" + line
        f.write(line.encode("utf-8"))


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


def _task(
    task_id: str,
    proc: ShellProcess,
    command: str,
    description: str | None,
    path: Path,
    *,
    ctx: ToolContext,
    limit_ms: int | None,
) -> BackgroundTask:
    """A background task of the call ``ctx``, writing its output to ``path``."""
    return BackgroundTask(
        id=task_id,
        command=command,
        description=description,
        proc=proc,
        output_path=path,
        tool_use_id=ctx.tool_use_id,
        agent_id=ctx.agent_id,
        limit_ms=limit_ms,
    )
