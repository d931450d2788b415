"""A real terminal (tmux) running hands, for the interactive session's tests."""

from __future__ import annotations

import json
import shlex
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

MODE_BAR = " · Shift-Tab cycles"
"""The end of the mode bar, the line under the input."""


def shows(screen: str, text: str) -> bool:
    """Whether ``text`` is on ``screen``, also when the terminal wrapped it: at a space, or
    inside a word longer than the line (a long temporary path)."""
    if text in screen:
        return True
    wanted = " ".join(text.split())
    if wanted and wanted in " ".join(screen.split()):
        return True
    return text in "".join(screen.splitlines())


class Terminal:
    def __init__(self, socket: Path) -> None:
        self.socket = socket
        self.target = "main"

    def tmux(self, *args: str) -> str:
        return subprocess.run(
            ["tmux", "-S", str(self.socket), *args], capture_output=True, text=True, check=False
        ).stdout

    def screen(self) -> str:
        return self.tmux("capture-pane", "-p", "-t", self.target)

    def scrollback(self) -> str:
        """Everything the terminal printed: what scrolled off the top, then the screen."""
        return self.tmux("capture-pane", "-p", "-S", "-", "-t", self.target)

    def send(self, *keys: str) -> None:
        self.tmux("send-keys", "-t", self.target, *keys)

    def paste(self, text: str) -> None:
        """Paste ``text`` as a terminal does: bracketed, when the program asked for that."""
        self.tmux("set-buffer", "-b", "pasted", text)
        self.tmux("paste-buffer", "-p", "-d", "-b", "pasted", "-t", self.target)

    def submit(self, line: str, until: str) -> str:
        """Type ``line``, press Enter, and wait for ``until`` to appear; the screen then."""
        self.send(line, "Enter")
        return self.wait_for(until)

    def input_lines(self) -> list[str]:
        """The screen's lines down to the input line: the mode bar (at the bottom) left out."""
        lines = self.screen().rstrip().splitlines()
        for index in range(len(lines) - 1, max(len(lines) - 4, -1), -1):
            if MODE_BAR in lines[index]:
                return "\n".join(lines[:index]).rstrip().splitlines()
        return lines

    def wait_for_prompt(self, timeout: float = 15) -> None:
        """Wait until the input prompt is on screen (keys typed earlier may be lost)."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            lines = self.input_lines()
            if lines and lines[-1].strip() == ">":
                return
            time.sleep(0.1)
        raise AssertionError(f"no prompt; the screen was:\n{self.screen()}")

    def wait_for_input(self, text: str, timeout: float = 15) -> str:
        """Wait until the input prompt holds ``text`` (its last line), idle; the screen."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            screen = "\n".join(self.input_lines())
            if screen.endswith(f"> {text}") and "Working…" not in screen[-400:]:
                return screen
            time.sleep(0.1)
        raise AssertionError(f"the input never held {text!r}; the screen was:\n{self.screen()}")

    def wait_for_bottom(self, text: str, timeout: float = 15) -> str:
        """The screen once its last line holds ``text`` (the prompt line can be drawn a
        moment before the lines under it)."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            screen = self.screen()
            lines = screen.rstrip().splitlines()
            if lines and text in lines[-1]:
                return screen
            time.sleep(0.1)
        raise AssertionError(f"the last line never held {text!r}; the screen was:\n{self.screen()}")

    def wait_for(self, text: str, timeout: float = 15) -> str:
        """The screen once ``text`` is on it, also when the terminal wrapped it at a space
        (a long temporary path pushes a message across lines)."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            screen = self.screen()
            if shows(screen, text):
                return screen
            time.sleep(0.1)
        raise AssertionError(f"{text!r} never appeared; the screen was:\n{self.screen()}")


def launch(
    term: Terminal,
    cwd: Path,
    home: Path,
    script: Path,
    *extra: str,
    user_home: Path | None = None,
    session: str = "main",
    model: str | None = None,
    env: dict[str, str] | None = None,
    size: tuple[int, int] = (120, 40),
) -> None:
    """Start hands in a new tmux session (``model`` instead of the script, ``env`` added).

    ``size``: the terminal's columns and rows.
    """
    command = " ".join(
        [
            f"cd {cwd} &&",
            "env -u COLUMNS -u LINES",
            f"HANDS_HOME={home}",
            *([f"HOME={user_home}"] if user_home is not None else []),
            *(f"{key}={shlex.quote(value)}" for key, value in (env or {}).items()),
            sys.executable, "-m", "hands", "--model", model or f"scripted:{script}",
            *extra,
            "; echo HANDS-EXITED-$?; sleep 60",
        ]
    )  # fmt: skip
    columns, rows = size
    term.tmux("new-session", "-d", "-s", session, "-x", str(columns), "-y", str(rows), command)


BYPASS_QUESTION = "Run every call without asking?"


def start(term: Terminal, cwd: Path, home: Path, script: Path, *extra: str, **options: Any) -> None:
    """:func:`launch` (``options`` are its keywords), then wait for the input prompt.

    Started in bypassPermissions, the REPL first asks once whether to run every call
    unasked; the answer is yes (``tests/cli/test_bypass_question.py`` tests the question).
    """
    launch(term, cwd, home, script, *extra, **options)
    if "bypassPermissions" in extra or "--dangerously-skip-permissions" in extra:
        deadline = time.monotonic() + 15
        while time.monotonic() < deadline:
            screen = term.screen()
            if "(/help" in screen:
                break
            if BYPASS_QUESTION in screen:
                term.send("y", "Enter")
                break
            time.sleep(0.1)
    term.wait_for("(/help")
    term.wait_for_prompt()


def start_on_api(term: Terminal, cwd: Path, home: Path, url: str, **options: Any) -> None:
    """:func:`start` with the ``sonnet`` model served by the Anthropic API at ``url``."""
    env = {"ANTHROPIC_API_KEY": "k", "ANTHROPIC_BASE_URL": url, "NO_PROXY": "127.0.0.1"}
    env.update(options.pop("env", {}))
    start(term, cwd, home, cwd / "unused.json", model="sonnet", env=env, **options)


def call_then_reply(path: Path, name: str, tool_input: dict, reply: str) -> Path:
    """A script: one tool call, then a text answer."""
    return script(
        path,
        [
            {"blocks": [{"type": "tool_use", "name": name, "input": tool_input}]},
            {"blocks": [{"type": "text", "text": reply}]},
        ],
    )


def script(path: Path, turns: list) -> Path:
    path.write_text(json.dumps({"turns": turns}))
    return path
