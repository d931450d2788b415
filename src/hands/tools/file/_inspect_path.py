"""Shared checks on an existing path: a regular file, not a directory or a device."""

from __future__ import annotations

import os
import stat
from pathlib import Path

from hands.core.context import ToolContext
from hands.core.outcome import echo
from hands.tools.file._paths import missing_message


def stat_regular(path: Path, ctx: ToolContext) -> os.stat_result | str:
    """The stat of the regular file ``path``, or a message saying what it is instead."""
    try:
        st = path.stat()
    except FileNotFoundError:
        return missing_message(path, ctx)
    except NotADirectoryError:
        return (
            f"{path} does not exist: a part of the path before the file name is a file, "
            "not a directory."
        )
    except PermissionError:
        return f"Permission denied reading {path}. Check the path, or ask the user for access."
    except OSError as exc:
        return f"Cannot access {echo(path)}: {exc.strerror or exc}."
    if stat.S_ISDIR(st.st_mode):
        return (
            f"{path} is a folder; Read opens files only. List it with Bash (ls {path}) or "
            "find files in it with Glob, then Read a file inside it."
        )
    if not stat.S_ISREG(st.st_mode):
        return (
            f"{path} is not a regular file (it is a device, FIFO or socket) and reading it "
            "could block or never end. Read regular files only; capture what you need into "
            "a file with Bash first."
        )
    return st
