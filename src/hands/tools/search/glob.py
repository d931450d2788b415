"""Glob: find files by name pattern, newest first, on ``rg --files``."""

from __future__ import annotations

import os
import stat
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path, PurePath
from typing import TYPE_CHECKING

from pydantic import Field

from hands.core.context import ToolContext
from hands.core.outcome import echo
from hands.core.schema import ToolInput
from hands.core.subject import reads_path
from hands.core.tool import Content, Progress, ReadOnlyTool, ToolResult
from hands.errors import ToolError

if TYPE_CHECKING:
    from rich.console import RenderableType

MAX_RESULTS = 100
"""Paths returned by one call; the rest are counted, not listed."""

TIMEOUT_ENV = "HANDS_GLOB_TIMEOUT_SECONDS"  # or CLAUDE_CODE_GLOB_TIMEOUT_SECONDS
_OFF = frozenset({"0", "false", "no", "off"})

_GLOB_CHARS = frozenset("*?[]{}")

DESCRIPTION = """\
Find files by name with a glob pattern, in any size of codebase.

- Patterns: `*` (any name part), `?` (one character), `[abc]`, braces `{a,b}` and `**` \
(any number of directories), e.g. `**/*.py` or `src/**/*.{ts,tsx}`. A pattern without a \
slash matches file names at any depth; one with a slash is taken from the search directory.
- Returns paths relative to the working directory (absolute outside it), the most \
recently modified first, at most 100 per call.
- Hidden files are included; `.gitignore` is not applied unless the user's settings say \
so; version-control directories (.git and the like) are skipped.
- Use this to find files by name. To search file contents use Grep. For open-ended \
searches that need several rounds of globbing and grepping, consider delegating to an agent.
- Several independent searches can be made in one response; they run in parallel.\
"""


class GlobInput(ToolInput):
    """Input of Glob."""

    pattern: str = Field(description="The glob pattern to match file paths against.")
    path: str | None = Field(
        default=None,
        description=(
            "The directory to search in; leave it out to search the current working "
            'directory. Do not send the strings "undefined" or "null": omit the '
            "field instead. Must be an existing directory when given."
        ),
    )


@dataclass(frozen=True, kw_only=True, slots=True)
class GlobOutput:
    """The files found: at most :data:`MAX_RESULTS` absolute paths, newest first."""

    filenames: tuple[str, ...]
    num_files: int
    truncated: bool
    duration_ms: float = 0.0
    timed_out: bool = False
    timeout_s: float = 0.0


def _settings() -> tuple[bool, bool]:
    """(respect .gitignore, include hidden files) from the environment."""
    from hands.core.env import switch

    env = os.environ
    no_ignore = env.get("CLAUDE_CODE_GLOB_NO_IGNORE", "").strip().lower()
    respect = switch("HANDS_GLOB_RESPECT_GITIGNORE", env) is True or no_ignore in _OFF
    hidden = env.get("CLAUDE_CODE_GLOB_HIDDEN", "").strip().lower() not in {
        "0",
        "false",
        "no",
        "off",
    }
    return respect, hidden


def split_absolute_pattern(pattern: str) -> tuple[Path, str] | None:
    """For an absolute pattern, (its literal leading directory, the rest); else None."""
    pure = PurePath(pattern)
    if not pure.is_absolute():
        return None
    parts = pure.parts
    literal: list[str] = []
    for part in parts[:-1]:
        if any(c in _GLOB_CHARS for c in part):
            break
        literal.append(part)
    rest = parts[len(literal) :]
    if not rest:
        return None
    return Path(*literal), "/".join(rest)


def mentions_vcs(pattern: str) -> bool:
    """Whether the pattern names a version-control directory (it is then searched)."""
    from hands.tools.search._rg import VCS_DIRS  # lazy: start-up

    pieces = {piece for piece in pattern.replace("\\", "/").split("/") if piece}
    return any(vcs in pieces for vcs in VCS_DIRS)


def expand_braces(pattern: str) -> list[str]:
    """``a{b,c{d,e}}`` → ``abd``-style alternatives: ``[ab, acd, ace]``."""
    depth = 0
    start = -1
    for i, char in enumerate(pattern):
        if char == "\\":
            continue
        if char == "{":
            if depth == 0:
                start = i
            depth += 1
        elif char == "}" and depth:
            depth -= 1
            if depth == 0:
                inner = pattern[start + 1 : i]
                options: list[str] = []
                level = 0
                piece = ""
                for c in inner:
                    if c == "," and level == 0:
                        options.append(piece)
                        piece = ""
                        continue
                    level += c == "{"
                    level -= c == "}"
                    piece += c
                options.append(piece)
                head, tail = pattern[:start], pattern[i + 1 :]
                return [x for o in options for x in expand_braces(head + o + tail)]
    return [pattern]


def glob_matcher(pattern: str) -> Callable[[str], bool]:
    """A test of relative ``/``-separated paths against ``pattern``, as ripgrep's --glob.

    Used when ``.gitignore`` is honoured: ripgrep's own ``--glob`` would override the
    ignore files for the files it matches.
    """
    from pathspec import GitIgnoreSpec

    spec = GitIgnoreSpec.from_lines(expand_braces(pattern))
    return spec.match_file


def rg_files_args(
    pattern: str,
    *,
    hidden: bool = True,
    respect_gitignore: bool = False,
    extra_globs: Sequence[str] = (),
) -> list[str]:
    """The ripgrep command line (without ``rg``) listing files under the cwd that match.

    With ``respect_gitignore`` the pattern is left out (ripgrep would let it override
    the ignore files); the caller filters with :func:`glob_matcher`.
    """
    from hands.tools.search._rg import VCS_DIRS  # lazy: start-up

    args = ["--no-config", "--files", "--null"]
    if hidden:
        args.append("--hidden")
    if not respect_gitignore:
        args.append("--no-ignore")
        args += ["--glob", pattern]
    if not mentions_vcs(pattern):
        for vcs in VCS_DIRS:
            args += ["--glob", "!" + vcs]
    for glob in extra_globs:
        args += ["--glob", glob]
    args += ["--", "."]
    return args


def _result_filter(
    pattern: str | None,
    *,
    hidden: bool,
    denied: Callable[[bytes], bool] | None,
) -> Callable[[bytes], bool] | None:
    """What ripgrep could not be trusted to filter (its --glob overrides ignore rules)."""
    matches = glob_matcher(pattern) if pattern is not None else None
    if matches is None and hidden and denied is None:
        return None

    def keep(path: bytes) -> bool:
        relative = os.fsdecode(path).removeprefix("./")
        if matches is not None and not matches(relative):
            return False
        if not hidden and any(part.startswith(".") for part in relative.split("/")):
            return False
        return denied is None or not denied(path)

    return keep


class GlobTool(ReadOnlyTool[GlobInput, GlobOutput]):
    """Claude Code's Glob."""

    name = "Glob"
    in_background_agents = True
    subject = reads_path("path", cwd_when_missing=True)
    always_load = True
    description = DESCRIPTION
    input_model = GlobInput
    max_result_chars = 100_000
    search_hint = "find files by name pattern"

    def _target(self, input: GlobInput, ctx: ToolContext) -> tuple[Path, str]:
        """(directory to search, pattern relative to it)."""
        from hands.tools.search._common import optional_path  # lazy: start-up

        split = split_absolute_pattern(input.pattern)
        if split is not None:
            base, pattern = split
        else:
            given = optional_path(input.path)
            base = ctx.resolve(given) if given is not None else ctx.cwd
            pattern = input.pattern
        while pattern.startswith("./"):
            pattern = pattern[2:]
        return Path(os.path.normpath(base)), pattern

    async def validate_input(self, input: GlobInput, ctx: ToolContext) -> str | None:
        from hands.tools.search._common import unusable_text_error  # lazy: start-up

        problem = unusable_text_error(pattern=input.pattern, path=input.path)
        if problem:
            return problem
        if not input.pattern.strip():
            return "The pattern is empty; give a glob such as **/*.py."
        base, _ = self._target(input, ctx)
        try:
            is_dir = stat.S_ISDIR(base.stat().st_mode)
        except (FileNotFoundError, NotADirectoryError):
            if split_absolute_pattern(input.pattern) is not None:
                return None  # a pattern into a directory that is not there matches nothing
            return f"No directory at {echo(base)} (the working directory is {ctx.cwd})."
        except OSError as exc:  # a name too long, a symlink loop, no permission
            return (
                f"Cannot search {echo(base)}: {exc.strerror or exc}. Give a directory that "
                "exists and can be read."
            )
        if not is_dir:
            return f"Path is not a directory: {base}. Give a directory as path."
        return None

    async def call(
        self, input: GlobInput, ctx: ToolContext, progress: Progress
    ) -> ToolResult[GlobOutput]:
        from hands.tools.search._common import (  # lazy: start-up
            MtimeSink,
            display_path,
            join_path,
        )
        from hands.tools.search._deny import read_deny_seam  # lazy: start-up
        from hands.tools.search._rg import stream_rg, timeout_from_env  # lazy: start-up

        started = time.perf_counter()
        base, pattern = self._target(input, ctx)
        if not base.is_dir():  # an absolute pattern into a missing directory
            return ToolResult(output=GlobOutput(filenames=(), num_files=0, truncated=False))
        respect_gitignore, hidden = _settings()
        seam = read_deny_seam(ctx)
        deny_globs = seam.rg_globs(search_root=base, default_root=ctx.root) if seam else []
        args = rg_files_args(
            pattern, hidden=hidden, respect_gitignore=respect_gitignore, extra_globs=deny_globs
        )
        timeout = timeout_from_env(TIMEOUT_ENV)
        sink = MtimeSink(base)
        try:
            run = await stream_rg(args, cwd=base, time_limit=timeout, sink=sink)
        finally:
            sink.close()
        if run.failed:
            raise ToolError(run.diagnostic or "ripgrep failed without saying why")
        prefix = os.fsencode(base)
        root = ctx.root

        keep = _result_filter(
            pattern if respect_gitignore else None,
            hidden=hidden,
            denied=(lambda p: seam.is_denied(os.fsdecode(join_path(prefix, p)), default_root=root))
            if seam
            else None,
        )
        ordered = sink.newest_first(keep)
        cwd = os.fsencode(os.path.normpath(ctx.cwd))  # noqa: ASYNC240 - text only, no I/O
        shown = tuple(display_path(prefix, p, cwd) for p in ordered[:MAX_RESULTS])
        return ToolResult(
            output=GlobOutput(
                filenames=shown,
                num_files=len(ordered),
                truncated=len(ordered) > MAX_RESULTS,
                duration_ms=(time.perf_counter() - started) * 1000,
                timed_out=run.timed_out,
                timeout_s=timeout,
            )
        )

    def to_content(self, output: GlobOutput) -> Content:
        from hands.tools.search._common import plural  # lazy: start-up

        lines: list[str] = []
        if not output.filenames:
            lines.append("No file matches this pattern.")
        else:
            lines.extend(output.filenames)
        if output.truncated:
            lines.append(
                f"(Only the {len(output.filenames)} most recently modified of "
                f"{plural(output.num_files, 'match', 'matches')} are listed; narrow the path "
                "or the pattern to see the others.)"
            )
        if output.timed_out:
            lines.append(
                f"(The search was stopped after {output.timeout_s:g} s, so the list is "
                "incomplete. Search a smaller directory or use a more specific pattern.)"
            )
        return "\n".join(lines)

    def describe_input(self, input: GlobInput) -> str:
        from hands.tools.search._common import optional_path  # lazy: start-up

        text = f'pattern: "{input.pattern}"'
        given = optional_path(input.path)
        if given is not None:
            text += f', path: "{given}"'
        return text if len(text) <= 100 else text[:99] + "…"

    def render_result(self, output: GlobOutput) -> RenderableType:
        from rich.text import Text

        from hands.tools.search._common import plural  # lazy: start-up

        text = Text("  ⎿ ")
        text.append("Found ")
        text.append(plural(output.num_files, "file"), style="bold")
        if output.truncated:
            text.append(f" (showing the {len(output.filenames)} newest)", style="dim")
        if output.timed_out:
            text.append(" (stopped at the time limit; incomplete)", style="yellow")
        return text
