"""How a background command ended, said twice.

Once as the last line of its output file, once in the notice its agent gets.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from hands.core.inbox import task_notice

if TYPE_CHECKING:
    from hands.tools.bash._shells import BackgroundTask


def shell_code(code: int) -> int:
    """A return code as a shell reports it: killed by signal N is 128+N."""
    return 128 - code if code < 0 else code


def duration(ms: int) -> str:
    """``1.5s``, ``2m 5s``."""
    seconds = ms / 1000
    if seconds < 60:
        return f"{seconds:g}s"
    minutes, secs = divmod(int(seconds), 60)
    return f"{minutes}m {secs}s" if secs else f"{minutes}m"


def _how(task: BackgroundTask) -> str:
    if task.stopped_by == "limit" and task.limit_ms is not None:
        return f"stopped: it was still running at its {duration(task.limit_ms)} time limit"
    if task.stopped_by == "stop":
        return "stopped with TaskStop"
    if task.stopped_by == "session":
        return "stopped: the session ended"
    code = task.exit_code
    return "exit status unknown" if code is None else f"exit code {shell_code(code)}"


def ending_line(task: BackgroundTask) -> str:
    """The output file's last line, e.g. ``[hands: exit code 0]``."""
    return f"[hands: {_how(task)}]\n"


def ending_notice(task: BackgroundTask) -> str:
    """The ``<task-notification>`` the task's agent gets when it ends."""
    name = task.description or _short(task.command)
    hint = None
    if task.stopped_by == "limit":
        hint = (
            "Its output so far is in the output file. If the work still needs it, run it "
            "again with run_in_background and a larger timeout (the largest allowed is the "
            "most it gets); otherwise say that it was cut short."
        )
    return task_notice(
        task_id=task.id,
        tool_use_id=task.tool_use_id,
        status=task.status,
        summary=f'Background task "{name}" is over ({_how(task)}).',
        hint=hint,
        output_file=str(task.output_path),
    )


def _short(command: str) -> str:
    first = command.strip().splitlines()[0] if command.strip() else command
    return first if len(first) <= 80 else first[:79] + "…"
