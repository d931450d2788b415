"""One task, start to finish: workdir, setup, the session, the check, the result.

Each task gets a directory of its own under the batch's run directory, made fresh for
every attempt: ``work/`` (the workdir), ``home/`` (its hands home: transcripts, spilled
results) and ``settings.json`` (the task's settings, with the sandbox turned on). The
session is ``hands -p`` in a process of its own (its own process group, killed with its
parent), so nothing is shared between sessions and a crash takes only its own task.
``setup`` and ``check`` run in the same bubblewrap sandbox as the session's Bash.
"""

from __future__ import annotations

import ctypes
import json
import os
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal, cast

from hands.batch.tasks import BatchTask

Sandbox = Literal["bwrap", "none"]
_PR_SET_PDEATHSIG = 1


class SessionCrashed(RuntimeError):
    """The session's process died of a signal nobody sent it: retry the task elsewhere."""


def worker_lost(task_id: str, attempts: int, why: str) -> dict[str, Any]:
    """The result of a task whose every attempt lost its worker."""
    return {"id": task_id, "status": "error", "attempt": attempts, "error": f"worker lost: {why}"}


@dataclass(frozen=True, kw_only=True, slots=True)
class RunSettings:
    """How every task of a batch runs."""

    run_dir: Path
    """Where each task's directory is made."""
    sandbox: Sandbox = "bwrap"
    model: str | None = None
    """The model of tasks that name none."""
    hands: tuple[str, ...] = field(default_factory=lambda: (sys.executable, "-m", "hands"))
    """The command that starts a hands session."""
    env: Mapping[str, str] = field(default_factory=lambda: dict[str, str]())
    """Extra environment for every session (model API keys are inherited anyway)."""
    trust: bool = False
    """Trust each task's folder (``--trust``): its project hooks, servers and settings
    count. Off by default: a task's repository is untrusted input."""

    def to_data(self) -> dict[str, Any]:
        """Plain data, for a process or machine that runs the task."""
        return {
            "run_dir": str(self.run_dir),
            "sandbox": self.sandbox,
            "model": self.model,
            "hands": list(self.hands),
            "env": dict(self.env),
            "trust": self.trust,
        }

    @classmethod
    def from_data(cls, data: Mapping[str, Any]) -> RunSettings:
        """The settings :meth:`to_data` gave."""
        return cls(
            run_dir=Path(data["run_dir"]),
            sandbox=data["sandbox"],
            model=data["model"],
            hands=tuple(data["hands"]),
            trust=data.get("trust") is True,
            env=dict(data["env"]),
        )


def run_task_data(
    task: Mapping[str, Any], settings: Mapping[str, Any], attempt: int
) -> dict[str, Any]:
    """:func:`run_task` on plain data (what an engine ships to its workers)."""
    return run_task(BatchTask.model_validate(task), RunSettings.from_data(settings), attempt)


def run_task(task: BatchTask, settings: RunSettings, attempt: int = 1) -> dict[str, Any]:
    """Run one task; its result (never raises for the task's own failures).

    Raises :class:`SessionCrashed` when the session's process was killed from outside,
    the one failure a retry can cure.
    """
    started = time.monotonic()
    deadline = started + task.timeout_s
    base = settings.run_dir / task.id
    result: dict[str, Any] = {"id": task.id, "attempt": attempt, "workdir": str(base / "work")}
    try:
        work, home, settings_file = _prepare(task, settings, base)
        for command in task.setup:
            code, output = _sandboxed(command, work, home, settings, deadline)
            if code != 0:
                why = f"setup command {command!r} exited {code}: {output[-2000:]}"
                return _finish(result, started, status="error", error=why)
        session = _session(task, settings, work, home, settings_file, deadline)
        result.update(session)
        if session["status"] == "timeout" or session.get("error"):
            return _finish(result, started, status=session["status"])
        if task.check is None:
            return _finish(result, started, status="completed")
        code, output = _sandboxed(task.check, work, home, settings, deadline)
        result["check_exit"] = code
        result["check_output"] = output[-2000:]
        return _finish(result, started, status="passed" if code == 0 else "failed")
    except SessionCrashed:
        raise
    except subprocess.TimeoutExpired:
        return _finish(result, started, status="timeout")
    except Exception as exc:  # the task's own problem: a bad repo, a missing path...
        return _finish(result, started, status="error", error=f"{type(exc).__name__}: {exc}")


def _finish(
    result: dict[str, Any], started: float, *, status: str, error: str = ""
) -> dict[str, Any]:
    result["status"] = status
    if error:
        result["error"] = error
    result["duration_s"] = round(time.monotonic() - started, 3)
    return result


def _prepare(task: BatchTask, settings: RunSettings, base: Path) -> tuple[Path, Path, Path]:
    if base.exists():
        shutil.rmtree(base)  # an earlier attempt's leftovers: every attempt starts clean
    base.mkdir(parents=True)
    work, home = base / "work", base / "home"
    home.mkdir()
    if task.repo is not None:
        _git("clone", "--quiet", task.repo, str(work))
        if task.commit is not None:
            _git("-C", str(work), "checkout", "--quiet", task.commit)
    elif task.path is not None:
        shutil.copytree(task.path, work, symlinks=True)
    else:
        work.mkdir()
    for name, text in (task.files or {}).items():
        target = work / name
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text)
    settings_file = base / "settings.json"
    settings_file.write_text(json.dumps(_session_settings(task, settings)))
    return work, home, settings_file


def _session_settings(task: BatchTask, settings: RunSettings) -> dict[str, Any]:
    data: dict[str, Any] = dict(task.settings or {})
    if settings.sandbox == "bwrap":
        sandbox = dict(data.get("sandbox") or {})
        sandbox["enabled"] = True
        sandbox["allowUnsandboxedCommands"] = False  # the model cannot opt out
        data["sandbox"] = sandbox
    return data


def _git(*args: str) -> None:
    done = subprocess.run(["git", *args], capture_output=True, text=True, timeout=600)
    if done.returncode != 0:
        raise RuntimeError(f"git {args[0]} failed: {done.stderr.strip()[-1000:]}")


def _die_with_parent() -> None:
    # the session dies with the worker that started it: a retry never races an orphan
    libc = ctypes.CDLL(None, use_errno=True)
    libc.prctl(_PR_SET_PDEATHSIG, signal.SIGKILL)


def _session(
    task: BatchTask,
    settings: RunSettings,
    work: Path,
    home: Path,
    settings_file: Path,
    deadline: float,
) -> dict[str, Any]:
    model = task.model or settings.model
    argv = [*settings.hands, "-p", task.prompt, "--output-format", "stream-json",
            "--permission-mode", task.permission_mode,
            "--settings", str(settings_file)]  # fmt: skip
    if settings.trust:
        argv.append("--trust")
    if model:
        argv += ["--model", model]
    if task.max_turns is not None:
        argv += ["--max-turns", str(task.max_turns)]
    env = _env(settings, home)
    proc = subprocess.Popen(
        _isolated(argv, work.parent, settings),
        cwd=work,
        env=env,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        start_new_session=True,
        preexec_fn=_die_with_parent,
    )
    timed_out = False
    try:
        stdout, stderr = proc.communicate(timeout=max(0.0, deadline - time.monotonic()))
    except subprocess.TimeoutExpired:
        timed_out = True
        _kill_group(proc.pid)
        stdout, stderr = proc.communicate()
    out = _read_stream(stdout.decode("utf-8", "replace").splitlines(), home)
    if timed_out:
        out["status"] = "timeout"
        return out
    killed_by = _killing_signal(proc.returncode, settings.sandbox)
    if killed_by is not None:
        raise SessionCrashed(f"the session was killed by signal {killed_by}")
    out["status"] = "completed"
    out["exit_code"] = proc.returncode
    if proc.returncode != 0 or out.get("is_error"):
        tail = stderr.decode("utf-8", "replace").strip()[-2000:]
        out["status"] = "error"
        out["error"] = out.get("final_text") or tail or f"hands exited {proc.returncode}"
    return out


def _killing_signal(returncode: int, sandbox: Sandbox) -> int | None:
    """The signal that killed the session, if one did.

    Run directly, a killed session's return code is minus the signal. Under bubblewrap
    the session is bubblewrap's child, and bubblewrap reports a child killed by signal N
    the way a shell does, as 128+N. hands' own codes above 128 mean the same thing (141:
    its output pipe closed, which the batch, reading to the end, never does).
    """
    if returncode < 0:
        return -returncode
    if sandbox == "bwrap" and returncode > 128:
        try:
            return signal.Signals(returncode - 128).value
        except ValueError:
            return None
    return None


def _env(settings: RunSettings, home: Path) -> dict[str, str]:
    tmp = home.parent / "tmp"
    tmp.mkdir(exist_ok=True)
    return {**os.environ, **settings.env, "HANDS_HOME": str(home), "TMPDIR": str(tmp)}


def _isolated(argv: Sequence[str], base: Path, settings: RunSettings) -> list[str]:
    """``argv`` where no other task's directory exists and only this task's is writable.

    bubblewrap with no namespaces of its own (the session's Bash sandbox nests inside
    it, and the model API stays reachable): the whole filesystem read-only, the batch's
    run directory an empty tmpfs with only this task's directory bound back in, its
    settings file read-only.
    """
    if settings.sandbox == "none":
        return list(argv)
    from hands.tools.bash.sandbox.sandbox import check_available

    run_dir, base = settings.run_dir.resolve(), base.resolve()
    settings_file = base / "settings.json"
    return [
        check_available(), "--die-with-parent",
        "--ro-bind", "/", "/",
        "--dev-bind", "/dev", "/dev",
        "--bind", "/proc", "/proc",
        "--tmpfs", str(run_dir),
        "--bind", str(base), str(base),
        "--ro-bind", str(settings_file), str(settings_file),
        "--",
        *argv,
    ]  # fmt: skip


def _kill_group(pid: int) -> None:
    try:
        os.killpg(pid, signal.SIGKILL)
    except ProcessLookupError:
        pass


def _read_stream(lines: Sequence[str], home: Path) -> dict[str, Any]:
    """Turns, tool calls, usage, cost and final text from the session's stream-json."""
    tool_calls = 0
    result: dict[str, Any] = {}
    model = ""
    for line in lines:
        event = _object(line)
        if event.get("type") == "assistant":
            message = _mapping(event.get("message"))
            model = str(message.get("model") or model)
            content = message.get("content")
            blocks = cast("list[object]", content) if isinstance(content, list) else []
            tool_calls += sum(1 for b in blocks if _mapping(b).get("type") == "tool_use")
        elif event.get("type") == "result":
            result = event
    usage = _mapping(result.get("usage"))
    out: dict[str, Any] = {
        "tool_calls": tool_calls,
        "turns": result.get("num_turns", 0),
        "usage": usage,
        "cost_usd": _cost(model, usage),
        "final_text": result.get("result", ""),
        "is_error": bool(result.get("is_error", not result)),
    }
    session_id = result.get("session_id")
    if isinstance(session_id, str):
        found = sorted(home.glob(f"projects/*/{session_id}.jsonl"))
        out["transcript"] = str(found[0]) if found else None
    return out


def _object(line: str) -> dict[str, Any]:
    try:
        value: object = json.loads(line)
    except json.JSONDecodeError:
        return {}
    return _mapping(value)


def _mapping(value: object) -> dict[str, Any]:
    return cast("dict[str, Any]", value) if isinstance(value, dict) else {}


def _cost(model: str, usage: Mapping[str, Any]) -> float | None:
    """What the session's ``usage`` cost on ``model`` (its ``PROVIDER:ID``); None: no price."""
    from hands.models.base import Usage
    from hands.models.facts import facts_for

    if not model:
        return None
    known = {
        k: int(v)
        for k, v in usage.items()
        if k in Usage.__dataclass_fields__ and isinstance(v, int)
    }
    cost = facts_for(model).cost(Usage(**known))
    return None if cost is None else round(cost, 6)


def _sandboxed(
    command: str, work: Path, home: Path, settings: RunSettings, deadline: float
) -> tuple[int, str]:
    """Run ``command`` in the workdir, in the sandbox unless the batch turned it off."""
    timeout = max(0.1, deadline - time.monotonic())
    env = _env(settings, home)
    if settings.sandbox == "none":
        done = subprocess.run(
            ["bash", "-c", command], cwd=work, env=env, capture_output=True, timeout=timeout,
            start_new_session=True,
        )  # fmt: skip
        return done.returncode, (done.stdout + done.stderr).decode("utf-8", "replace")
    from hands.core.context import ToolContext
    from hands.core.session import Session
    from hands.tools.bash import SandboxSettings
    from hands.tools.bash.sandbox.sandbox import prepare

    ctx = ToolContext(cwd=work, project_dir=work, session=Session(home=home))
    launch = prepare(command, cwd=work, ctx=ctx, settings=SandboxSettings(enabled=True))
    try:
        done = subprocess.run(
            _isolated(launch.argv, work.parent, settings), cwd=work, env={**launch.env, **env},
            capture_output=True,
            timeout=timeout, pass_fds=launch.fds, start_new_session=True,
        )  # fmt: skip
    finally:
        launch.close()
    return done.returncode, (done.stdout + done.stderr).decode("utf-8", "replace")
