"""How Read deny rules reach the search tools: Glob and Grep ask the call's policy.

The policy of the runtime running a call (``ctx.policy``) says which paths no call may
read, as gitignore lines relative to ``/`` (:func:`hands.core.decision.read_denials`).
A session may also hold patterns of its own in its :class:`ReadDenySeam`. Glob drops
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
from hands.core.decision import read_denials

if TYPE_CHECKING:
    from pathspec import GitIgnoreSpec


class ReadDenySeam:
    """Gitignore-style patterns of paths the model may not read, anchored at ``root``.

    A pattern without a slash (``*.pem``, ``.env``) matches at any depth, also outside
    ``root``; one with a slash (``secrets/**``, ``/config/prod.yml``) matches only under
    ``root``.
    """

    def __init__(
        self,
        patterns: Iterable[str] = (),
        *,
        root: Path | None = None,
        also: ReadDenySeam | None = None,
    ) -> None:
        self._patterns: tuple[str, ...] = ()
        self._root: Path | None = None
        self._spec: GitIgnoreSpec | None = None
        self._also = also
        """Another seam whose patterns also hold (the session's own, beside the policy's)."""
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
        return bool(self._patterns) or bool(self._also)

    def _root_for(self, default_root: Path) -> str:
        return os.path.normpath(self._root if self._root is not None else default_root)

    def is_denied(self, path: str | os.PathLike[str], *, default_root: Path) -> bool:
        """Whether the absolute ``path`` is matched by a deny pattern."""
        also = self._also
        if also is not None and also.is_denied(path, default_root=default_root):
            return True
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
        if not self:
            return items
        return [p for p in items if not self.is_denied(p, default_root=default_root)]

    def rg_globs(self, *, search_root: Path, default_root: Path) -> list[str]:
        """Negative ``--glob`` arguments that keep ripgrep out of denied paths.

        Unanchored patterns work wherever the search starts. Anchored ones are rewritten
        relative to ``search_root`` when it lies inside the root; the rest are left to
        :meth:`filter`.
        """
        out: list[str] = []
        if self._also is not None:
            out.extend(self._also.rg_globs(search_root=search_root, default_root=default_root))
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


class _PolicySeams:
    """A session's seams for the patterns its calls' policies gave, by patterns."""

    def __init__(self) -> None:
        self.seams: dict[tuple[tuple[str, ...], int], ReadDenySeam] = {}


_ROOT = Path("/")


def read_deny_seam(ctx: ToolContext) -> ReadDenySeam:
    """The patterns in force for this call: the policy's, and the session's own."""
    own = ctx.session.service(ReadDenySeam)
    lines = read_denials(ctx.policy, ctx)
    if not lines:
        return own
    cache = ctx.session.service(_PolicySeams).seams
    key = (lines, id(own) if own else 0)
    seam = cache.get(key)
    if seam is None:
        if len(cache) > 32:
            cache.clear()
        seam = ReadDenySeam(lines, root=_ROOT, also=own if own else None)
        cache[key] = seam
    return seam
