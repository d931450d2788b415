"""The browser's processes, found in the process table."""

from __future__ import annotations

from pathlib import Path


def children(pid: int) -> list[int]:
    found: list[int] = []
    for task in Path(f"/proc/{pid}/task").glob("*"):
        try:
            found += [int(c) for c in (task / "children").read_text().split()]
        except OSError:
            continue
    return found


def descendants(pid: int) -> list[int]:
    out: list[int] = []
    todo = children(pid)
    while todo:
        p = todo.pop()
        out.append(p)
        todo += children(p)
    return out


def _comm(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/comm").read_text().strip()
    except OSError:
        return ""


def browser_pids(root: int) -> list[int]:
    """The Chromium processes below ``root`` (the browser and its helpers)."""
    return [p for p in descendants(root) if "chrom" in _comm(p)]


def marked(mark: str) -> list[int]:
    """Live processes (not zombies) whose environment holds ``mark`` (``NAME=value``)."""
    want = mark.encode()
    found: list[int] = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            env = (entry / "environ").read_bytes().split(b"\0")
            state = (entry / "stat").read_text().rsplit(")", 1)[1].split()[0]
        except OSError:
            continue
        if want in env and state != "Z":
            found.append(int(entry.name))
    return found
