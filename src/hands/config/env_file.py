"""``CLAUDE_ENV_FILE``: shell code run before every Bash command of a session.

Two sources, both Claude Code's: a script named by ``HANDS_ENV_FILE`` (or
``CLAUDE_ENV_FILE``) in hands' own environment, and the session's environment file,
whose path SessionStart command hooks receive as ``CLAUDE_ENV_FILE`` so they can append
``export NAME=value`` lines that every later command sees.

The code is put in front of each command's script rather than sourced by path, so a
sandboxed command sees it too (the sandbox's private /tmp may hide the file).
"""

from __future__ import annotations

from pathlib import Path

from hands.core.env import text as env_text
from hands.core.session import Session

MAX_BYTES = 256 * 1024
"""A larger environment file is not used (and a note says so)."""


def session_env_file(session: Session) -> Path:
    """The session's environment file (hooks append to it; it may not exist yet)."""
    return session.directory / "env.sh"


def hook_env(session: Session) -> dict[str, str]:
    """The variables a SessionStart command hook gets: where to write exports."""
    path = session_env_file(session)
    path.parent.mkdir(parents=True, exist_ok=True)
    return {"CLAUDE_ENV_FILE": str(path), "HANDS_ENV_FILE": str(path)}


def prelude(session: Session) -> tuple[str, list[str]]:
    """(shell code to run before a command, notes about files that could not be used)."""
    paths: list[Path] = []
    named = env_text("HANDS_ENV_FILE")
    if named:
        paths.append(Path(named).expanduser())
    paths.append(session_env_file(session))
    parts: list[str] = []
    notes: list[str] = []
    for path in dict.fromkeys(paths):
        try:
            if path.stat().st_size > MAX_BYTES:
                notes.append(f"Environment file {path} is over {MAX_BYTES} bytes; not used")
                continue
            text = path.read_text(encoding="utf-8", errors="replace")
        except FileNotFoundError:
            continue
        except OSError as exc:
            notes.append(f"Environment file {path} could not be read ({exc.strerror})")
            continue
        if text.strip():
            parts.append(text if text.endswith("\n") else text + "\n")
    return "".join(parts), notes
