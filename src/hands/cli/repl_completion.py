"""Tab completion at the REPL prompt: slash commands, and paths after ``@``."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from pathlib import Path

from prompt_toolkit.completion import CompleteEvent, Completer, Completion
from prompt_toolkit.document import Document

MAX_PATHS = 100
"""At most this many paths are offered for one ``@`` word."""


class PromptCompleter(Completer):
    """Completes ``/name`` at the start of the line and ``@path`` anywhere."""

    def __init__(self, commands: Sequence[str], cwd: Path) -> None:
        self.commands = commands
        self.cwd = cwd

    def get_completions(
        self, document: Document, complete_event: CompleteEvent
    ) -> Iterable[Completion]:
        """The completions of the word before the cursor."""
        before = document.text_before_cursor
        if before.startswith("/") and " " not in before:
            for name in self.commands:
                if name.startswith(before.lower()):
                    yield Completion(name, start_position=-len(before))
            return
        word = before.split()[-1] if before.split() and not before[-1].isspace() else ""
        if word.startswith("@"):
            for path in self.paths(word[1:]):
                yield Completion("@" + path, start_position=-len(word))

    def paths(self, partial: str) -> list[str]:
        """The files and folders ``partial`` could name, folders ending in ``/``."""
        head, _, stem = partial.rpartition("/")
        prefix = head + "/" if head or partial.startswith("/") else ""
        base = Path(head or ("/" if partial.startswith("/") else ".")).expanduser()
        folder = base if base.is_absolute() else self.cwd / base
        try:
            entries = sorted(folder.iterdir(), key=lambda p: p.name)
        except OSError:
            return []
        found: list[str] = []
        for entry in entries:
            name = entry.name
            if not name.startswith(stem) or (name.startswith(".") and not stem.startswith(".")):
                continue
            found.append(prefix + name + ("/" if entry.is_dir() else ""))
            if len(found) >= MAX_PATHS:
                break
        return found
