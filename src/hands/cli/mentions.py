"""``@path`` in a prompt: the file's content (a folder's listing) goes with the prompt."""

from __future__ import annotations

import re
from pathlib import Path

from hands.core.messages import TextBlock

MAX_ATTACHED_CHARS = 100_000
"""A longer file is cut here, with a note saying so."""

MAX_LISTED = 200
"""A folder's listing names at most this many entries."""

_MENTION = re.compile(r"(?:^|(?<=\s))@(\S+)")
_TRAILING = ".,;:!?)]}'\""


def attachments(text: str, cwd: Path) -> tuple[list[TextBlock], list[str]]:
    """A block per ``@path`` that names a file or folder, and a line each for the screen.

    A word after ``@`` that names nothing (an e-mail address, a handle) is left as text.
    """
    blocks: list[TextBlock] = []
    notes: list[str] = []
    seen: set[Path] = set()
    for match in _MENTION.finditer(text):
        word = match.group(1)
        path = _existing(word, cwd) or _existing(word.rstrip(_TRAILING), cwd)
        if path is None or path in seen:
            continue
        seen.add(path)
        block, note = _attach(path, word.rstrip(_TRAILING))
        blocks.append(block)
        notes.append(note)
    return blocks, notes


def _existing(word: str, cwd: Path) -> Path | None:
    if not word:
        return None
    path = Path(word).expanduser()
    path = path if path.is_absolute() else cwd / path
    try:
        return path.resolve() if path.exists() else None
    except OSError:
        return None


def _attach(path: Path, shown: str) -> tuple[TextBlock, str]:
    try:
        if path.is_dir():
            entries = sorted(p.name + ("/" if p.is_dir() else "") for p in path.iterdir())
            listed = "\n".join(entries[:MAX_LISTED])
            more = f"\n… and {len(entries) - MAX_LISTED} more" if len(entries) > MAX_LISTED else ""
            body = f"The user attached the folder {path} (@{shown}); it holds:\n{listed}{more}"
            return TextBlock(text=body), f"attached the listing of {shown} ({len(entries)} entries)"
        raw = path.read_bytes()
    except OSError as exc:
        return TextBlock(text=f"The user mentioned {path}, which cannot be read: {exc}"), (
            f"could not attach {shown}: {exc.strerror or exc}"
        )
    if b"\0" in raw[:8192]:
        body = f"The user mentioned {path} (@{shown}), a binary file ({len(raw):,} bytes)."
        return TextBlock(text=body), f"{shown} is binary: only its name goes with the prompt"
    content = raw.decode("utf-8", errors="replace")
    cut = len(content) > MAX_ATTACHED_CHARS
    content = content[:MAX_ATTACHED_CHARS]
    tail = f"\n(cut at {MAX_ATTACHED_CHARS:,} characters; Read the rest)" if cut else ""
    close = "```" if content.endswith("\n") else "\n```"
    body = f"The user attached {path} (@{shown}):\n```\n{content}{close}{tail}"
    lines = content.count("\n") + (0 if content.endswith("\n") or not content else 1)
    return TextBlock(text=body), f"attached {shown} ({lines:,} line{'s' if lines != 1 else ''})"
