"""Gitignore-style path rules with Claude Code's four anchors, and the protected paths.

Anchors: ``//abs`` (filesystem root), ``~/x`` (home), ``/x`` (the rule's settings source),
``./x`` or ``x`` (the current directory; ``../x`` climbs from it). The pattern after the
anchor is gitignore syntax (``gitwildmatch`` via pathspec): ``*`` matches dotfiles, a
pattern without a slash matches at any depth, ``**`` crosses directories.

Deny and ask rules match loosely, which is the safe direction: a slash-free pattern
(``.env``, ``*.pem``) matches anywhere on the filesystem, a single-directory pattern
(``secrets/**``) matches that directory at any depth, and letter case is ignored (a
case-insensitive filesystem opens ``.ENV`` for ``.env``). Allow rules match only under
their anchor, case-sensitively.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Literal, TypeAlias, cast

if TYPE_CHECKING:
    from pathspec import GitIgnoreSpec

Anchor: TypeAlias = Literal["root", "home", "source", "cwd"]

PROTECTED_DIRS = (
    (".git",),
    (".config", "git"),
    (".vscode",),
    (".idea",),
    (".husky",),
    (".cargo",),
    (".devcontainer",),
    (".yarn",),
    (".mvn",),
    (".claude",),
    (".hands",),
)
"""Directories whose contents are never written without asking (outside bypass)."""
PROTECTED_EXCEPTIONS = ((".claude", "worktrees"), (".hands", "worktrees"))
PROTECTED_FILES = frozenset(
    {
        # shell startup files
        ".bashrc", ".bash_profile", ".bash_login", ".bash_logout", ".profile", ".zshrc",
        ".zshenv", ".zprofile", ".zlogin", ".zlogout", ".kshrc", ".cshrc", ".tcshrc",
        ".inputrc", ".envrc",
        # git configuration
        ".gitconfig", ".gitmodules", ".gitattributes", ".git-credentials",
        # package-manager configuration
        ".npmrc", ".yarnrc", ".yarnrc.yml", ".pnpmrc", ".bunfig.toml", "bunfig.toml",
        ".pypirc", "pip.conf", ".condarc", ".gemrc", ".netrc", ".pip",
        # agent configuration
        ".mcp.json", ".claude.json", ".hands.json",
    }
)  # fmt: skip
"""File names that are never written without asking (outside bypass)."""

_SINGLE_DIR = re.compile(r"[^/*?\[\]]+/\*\*")


@dataclass(frozen=True, kw_only=True, slots=True)
class PathPattern:
    """A compiled ``Read(...)`` / ``Edit(...)`` specifier."""

    text: str
    anchor: Anchor
    body: str
    """The gitignore pattern, relative to the anchor directory."""
    up: int = 0
    """How many ``..`` steps above the current directory the anchor is."""
    floating: bool
    """Slash-free: matches at any depth below the anchor."""
    single_dir: bool
    """``name/**``: a deny matches that directory at any depth."""
    spec: GitIgnoreSpec
    loose_spec: GitIgnoreSpec
    """Lower-case, and ``**/``-prefixed when the pattern floats: for deny and ask."""
    regex: re.Pattern[str] | None = None
    loose_regex: re.Pattern[str] | None = None

    def base(self, *, cwd: str, home: str, source_root: str) -> str:
        """The directory the pattern is relative to (arguments normalised, absolute)."""
        if self.anchor == "root":
            return "/"
        if self.anchor == "home":
            return home
        if self.anchor == "source":
            return source_root
        base = cwd
        for _ in range(self.up):
            base = base.rpartition("/")[0] or "/"
        return base

    def matches(
        self, path: str, *, cwd: str, home: str, source_root: str, loose: bool = False
    ) -> bool:
        """Whether the absolute, normalised ``path`` is covered.

        ``loose`` (deny and ask) also matches floating patterns outside the anchor and
        ignores letter case.
        """
        if loose and (self.floating or self.single_dir):
            return self._loose(path.lstrip("/").lower())
        relative = _relative(path, self.base(cwd=cwd, home=home, source_root=source_root))
        if relative is None:
            return False
        if self._strict(relative):
            return True
        return loose and self._loose(relative.lower())

    def _strict(self, relative: str) -> bool:
        if self.regex is not None:
            return self.regex.match(relative) is not None
        return self.spec.match_file(relative)

    def _loose(self, relative: str) -> bool:
        if self.loose_regex is not None:
            return self.loose_regex.match(relative) is not None
        return self.loose_spec.match_file(relative)

    def gitignore_line(self, *, cwd: str, home: str, source_root: str) -> str:
        """The pattern as one gitignore line relative to ``/`` (for the search tools)."""
        if self.floating:
            return self.body
        if self.single_dir:
            return "**/" + self.body
        base = self.base(cwd=cwd, home=home, source_root=source_root).rstrip("/")
        body = self.body.lstrip("/")
        return f"{base}/{body}" if base else f"/{body}"


def compile_path_pattern(specifier: str) -> PathPattern | str:
    """Compile a specifier, or return what is wrong with it."""
    from pathspec import GitIgnoreSpec

    text = specifier
    s = specifier.strip().replace("\\", "/") if os.sep == "\\" else specifier.strip()
    if not s:
        return "an empty path; write Read(path) or just Read"
    if "\x00" in s:
        return "a path cannot contain a NUL byte"
    anchor: Anchor
    up = 0
    if s.startswith("//"):
        anchor, body = "root", s[2:]
    elif s == "~" or s.startswith("~/"):
        anchor, body = "home", s[2:]
    elif s.startswith("/"):
        anchor, body = "source", s[1:]
    else:
        anchor, body = "cwd", s
        while body.startswith("./"):
            body = body[2:]
        while body.startswith("../") or body == "..":
            up += 1
            body = body[3:]
    body = body or "**"
    if body in (".", "./"):
        body = "**"
    plain = body.rstrip("/")
    tail = plain[3:] if plain.startswith("**/") else plain
    floating = "/" not in tail and anchor == "cwd" and up == 0
    if "/" not in plain and not floating and plain != "**":
        body = "/" + body  # anchored at its base: ``~/.env`` is only the home's .env
    single_dir = bool(_SINGLE_DIR.fullmatch(plain)) and anchor == "cwd" and up == 0
    try:
        spec = GitIgnoreSpec.from_lines([body])
        loose_body = body.lower()
        if floating and not loose_body.startswith("**/"):
            loose_body = "**/" + loose_body
        elif single_dir:
            loose_body = "**/" + loose_body
        loose_spec = GitIgnoreSpec.from_lines([loose_body])
    except Exception as exc:  # pathspec raises several types for bad patterns
        return f"not a valid gitignore pattern ({exc})"
    return PathPattern(
        regex=_single_regex(spec),
        loose_regex=_single_regex(loose_spec),
        text=text,
        anchor=anchor,
        body=body,
        up=up,
        floating=floating,
        single_dir=single_dir,
        spec=spec,
        loose_spec=loose_spec,
    )


def _single_regex(spec: GitIgnoreSpec) -> re.Pattern[str] | None:
    """The one including pattern's regex, for a fast match; None: use the spec."""
    patterns = list(spec.patterns)
    if len(patterns) != 1:
        return None
    regex = getattr(patterns[0], "regex", None)
    if getattr(patterns[0], "include", None) is not True or not isinstance(regex, re.Pattern):
        return None
    return cast("re.Pattern[str]", regex)


def _relative(path: str, base: str) -> str | None:
    if base == "/":
        rel = path.lstrip("/")
        return rel or None
    if path == base:
        return None
    prefix = base.rstrip("/") + "/"
    if path.startswith(prefix):
        return path[len(prefix) :]
    return None


def normalise(path: str | Path) -> str:
    """An absolute path with ``.`` and ``..`` collapsed (no symlinks resolved)."""
    return os.path.normpath(Path(path).absolute())


def link_and_target(path: str) -> tuple[str, ...]:
    """``path`` and, when it differs, where its symlinks lead."""
    norm = normalise(path)
    real = _realpath(norm)
    return (norm,) if real == norm else (norm, real)


_O_PATH: int | None = getattr(os, "O_PATH", None)


def _realpath(path: str) -> str:
    """``os.path.realpath``, through the kernel when the file exists (several times faster)."""
    if _O_PATH is not None:
        try:
            fd = os.open(path, _O_PATH | os.O_CLOEXEC)
        except OSError:
            return os.path.realpath(path)
        try:
            return os.readlink(f"/proc/self/fd/{fd}")  # noqa: PTH115 - a hot path
        except OSError:
            return os.path.realpath(path)
        finally:
            os.close(fd)
    return os.path.realpath(path)


def protected_reason(path: str) -> str | None:
    """Why writing ``path`` always needs approval, or None."""
    parts = Path(path).parts
    lowered = tuple(p.lower() for p in parts)
    for i in range(len(lowered) - 1):  # a directory: something must lie below it
        if any(lowered[i : i + len(e)] == e for e in PROTECTED_EXCEPTIONS):
            continue
        for protected in PROTECTED_DIRS:
            end = i + len(protected)
            if end < len(lowered) and lowered[i:end] == protected:
                return f"{'/'.join(protected)} is a protected directory"
    if lowered and lowered[-1] in PROTECTED_FILES:
        return f"{parts[-1]} is a protected file"
    return None


def inside(path: str, dirs: tuple[str, ...]) -> bool:
    """Whether the normalised ``path`` is one of ``dirs`` or below one."""
    for d in dirs:
        if path == d or path.startswith(d.rstrip("/") + "/"):
            return True
    return False
