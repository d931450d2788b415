"""The status line under the input: a command from the settings' ``statusLine``.

``{"statusLine": {"type": "command", "command": "..."}}`` runs the command in the
working directory with the session's facts as JSON on stdin (session id, directory,
model) and shows the first line it prints (ANSI colours kept) under the input line.
It runs again when the line is drawn and the last run ended a while ago, in a thread,
so a slow command never holds the prompt. An untrusted project's ``statusLine`` is not
run (the settings leave it out).
"""

from __future__ import annotations

import json
import subprocess
import threading
import time
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

if TYPE_CHECKING:
    from prompt_toolkit.formatted_text import ANSI

    from hands.cli.repl import Repl

REFRESH_S = 2.0
"""The shortest time between two runs."""
TIMEOUT_S = 5.0


def status_command(value: object) -> str | None:
    """The command a ``statusLine`` setting names, if it is a usable one."""
    if not isinstance(value, Mapping):
        return None
    data = cast(Mapping[str, Any], value)
    command = data.get("command")
    if data.get("type", "command") != "command" or not isinstance(command, str):
        return None
    return command.strip() or None


def first_line(command: str, *, cwd: Path, facts: Mapping[str, object]) -> str:
    """Run ``command`` with ``facts`` on stdin; its first line of output, or why none."""
    try:
        done = subprocess.run(
            command,
            shell=True,
            cwd=cwd,
            input=json.dumps(facts),
            capture_output=True,
            text=True,
            timeout=TIMEOUT_S,
            check=False,
        )
    except subprocess.TimeoutExpired:
        return f"(status line: the command took over {TIMEOUT_S:g} s)"
    except OSError as exc:
        return f"(status line: {exc.strerror or exc})"
    lines = done.stdout.splitlines()
    return lines[0] if lines else ""


class StatusLine:
    """The bottom toolbar's text: the last line the command printed, refreshed in a thread."""

    def __init__(
        self,
        command: str,
        *,
        cwd: Path,
        facts: Callable[[], Mapping[str, object]],
        redraw: Callable[[], None],
    ) -> None:
        self.command = command
        self.cwd = cwd
        self.facts = facts
        self.redraw = redraw
        self.text = ""
        self._ended = 0.0
        self._running = False
        self._lock = threading.Lock()

    def __call__(self) -> ANSI:
        """The line now; starts a run when the last one is old."""
        from prompt_toolkit.formatted_text import ANSI

        with self._lock:
            due = not self._running and time.monotonic() - self._ended >= REFRESH_S
            if due:
                self._running = True
            # read before the run starts: a quick run redraws, it never races this draw
            shown = self.text
        if due:
            threading.Thread(target=self._refresh, args=(self.facts(),), daemon=True).start()
        return ANSI(shown)

    def _refresh(self, facts: Mapping[str, object]) -> None:
        text = first_line(self.command, cwd=self.cwd, facts=facts)
        changed = text != self.text
        self.text = text
        with self._lock:
            self._running = False
            self._ended = time.monotonic()
        if changed:
            self.redraw()


def install(repl: Repl) -> None:
    """Put the settings' status line under the REPL's input, when there is one."""
    setup = repl.setup
    command = status_command(setup.settings.value("statusLine"))
    if command is None:
        return
    session = repl.keys.session

    def facts() -> dict[str, object]:
        return {
            "session_id": setup.session.id,
            "cwd": str(setup.cwd),
            "workspace": {"current_dir": str(setup.cwd), "project_dir": str(setup.cwd)},
            "model": {"id": setup.model.name, "display_name": setup.model.name},
            "permission_mode": repl.mode,
        }

    session.bottom_toolbar = StatusLine(
        command, cwd=setup.cwd, facts=facts, redraw=session.app.invalidate
    )
