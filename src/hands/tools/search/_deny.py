"""The seam through which Read deny rules reach the search tools.

The permission engine fills a session's :class:`ReadDenySeam` with the path patterns of
its ``Read(...)`` deny rules (gitignore syntax, relative to a root directory). Glob drops
matching paths from its results; Grep passes the patterns to ripgrep as negative globs,
so denied files are never read, and also filters its results with them. Empty by
default: nothing is denied until someone says so.
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING

from hands.core.context import ToolContext

if TYPE_CHECKING:
    from pathspec import GitIgnoreSpec


class ReadDenySeam:
    """Gitignore-style patterns of paths the model may not read, anchored at ``root``.

    A pattern without a slash (``*.pem``, ``.env``) matches at any depth, also outside
    ``root``; one with a slash (``secrets/**``, ``/config/prod.yml``) matches only under
    ``root``.
    """

    def __init__(self, patterns: Iterable[str] = (), *, root: Path | None = None) -> None:
        self._patterns: tuple[str, ...] = ()
        self._root: Path | None = None
        self._spec: GitIgnoreSpec | None = None
        self.set_patterns(patterns, root=root)

    @property
    def patterns(self) -> tuple[str, ...]:
        """The patterns in force."""
        return self._patterns

    @property
    def root(self) -> Path | None:
        """The directory the anchored patterns are relative to (None: the project root)."""
        return self._root

    def set_patterns(self, patterns: Iterable[str], *, root: Path | None = None) -> None:
        """Replace the patterns (and optionally the root they are relative to)."""
        cleaned = tuple(p.strip() for p in patterns if p.strip() and not p.startswith("#"))
        self._patterns = cleaned
        self._root = root
        if cleaned:
            from pathspec import GitIgnoreSpec

            self._spec = GitIgnoreSpec.from_lines(cleaned)
        else:
            self._spec = None

    def __bool__(self) -> bool:
        return bool(self._patterns)

    def _root_for(self, default_root: Path) -> str:
        return os.path.normpath(self._root if self._root is not None else default_root)

    def is_denied(self, path: str | os.PathLike[str], *, default_root: Path) -> bool:
        """Whether the absolute ``path`` is matched by a deny pattern."""
        spec = self._spec
        if spec is None:
            return False
        absolute = os.path.normpath(path)
        root = self._root_for(default_root)
        if absolute == root:
            return False
        prefix = root.rstrip(os.sep) + os.sep
        if absolute.startswith(prefix):
            relative = absolute[len(prefix) :]
            return spec.match_file(relative.replace(os.sep, "/"))
        # Outside the root only unanchored patterns apply: match on the path without
        # its root so that ``**/.env`` or ``*.pem`` still catch it and ``secrets/**``
        # does not.
        floating = [p for p in self._patterns if not _anchored(p)]
        if not floating:
            return False
        from pathspec import GitIgnoreSpec

        loose = GitIgnoreSpec.from_lines(floating)
        return loose.match_file(Path(absolute).as_posix().lstrip("/"))

    def filter(self, paths: Iterable[str], *, default_root: Path) -> list[str]:
        """``paths`` (absolute) without the denied ones."""
        items = list(paths)
        if self._spec is None:
            return items
        return [p for p in items if not self.is_denied(p, default_root=default_root)]

    def rg_globs(self, *, search_root: Path, default_root: Path) -> list[str]:
        """Negative ``--glob`` arguments that keep ripgrep out of denied paths.

        Unanchored patterns work wherever the search starts. Anchored ones are rewritten
        relative to ``search_root`` when it lies inside the root; the rest are left to
        :meth:`filter`.
        """
        out: list[str] = []
        root = self._root_for(default_root)
        search = os.path.normpath(search_root)
        for pattern in self._patterns:
            negated = pattern.startswith("!")
            if negated:
                # A re-inclusion cannot be expressed safely as an exclusion; the
                # post-filter handles it.
                continue
            if not _anchored(pattern):
                out.append("!" + pattern)
                continue
            body = pattern.lstrip("/")
            if search == root:
                out.append("!/" + body if not body.startswith("**") else "!" + body)
                continue
            prefix = root.rstrip(os.sep) + os.sep
            if search.startswith(prefix):
                relative = search[len(prefix) :].replace(os.sep, "/") + "/"
                if body.startswith(relative):
                    out.append("!/" + body[len(relative) :])
        return out


def _anchored(pattern: str) -> bool:
    """Whether a gitignore pattern is tied to its root (a slash before its last char)."""
    body = pattern.rstrip("/")
    if body.startswith("**/"):
        return False
    return "/" in body


def read_deny_seam(ctx: ToolContext) -> ReadDenySeam:
    """The session's seam (empty unless the permission engine filled it)."""
    return ctx.session.service(ReadDenySeam)
