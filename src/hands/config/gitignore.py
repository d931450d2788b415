"""Keep a file hands writes for the user alone out of the project's git history."""

from __future__ import annotations

from pathlib import Path

from hands.config.trust import workspace_of


def ignore_in_git(path: Path) -> Path | None:
    """Add ``path`` to the ``.gitignore`` of its repository's root; the file changed.

    ``None`` outside a repository or when an identical line is already there. The
    entry is anchored at the root (``/.claude/settings.local.json``).
    """
    root = workspace_of(path.parent)
    if not (root / ".git").exists():
        return None
    try:
        relative = path.absolute().relative_to(root).as_posix()
    except ValueError:
        return None
    ignore = root / ".gitignore"
    try:
        text = ignore.read_text(encoding="utf-8")
    except FileNotFoundError:
        text = ""
    if {relative, f"/{relative}"} & {line.strip() for line in text.splitlines()}:
        return None
    joiner = "" if not text or text.endswith("\n") else "\n"
    with ignore.open("a", encoding="utf-8") as out:
        out.write(f"{joiner}/{relative}\n")
    return ignore
