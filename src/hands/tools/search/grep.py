"""Grep: search file contents with ripgrep, in three output modes, with pagination."""

from __future__ import annotations

import os
import re
import stat
import time
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Literal, TypeAlias

from pydantic import Field

from hands.core.context import ToolContext
from hands.core.outcome import echo
from hands.core.schema import ToolInput
from hands.core.subject import reads_path
from hands.core.tool import Content, Progress, ReadOnlyTool, ToolResult
from hands.errors import ToolError

if TYPE_CHECKING:
    from rich.console import RenderableType

    from hands.tools.search._common import MtimeSink
    from hands.tools.search._deny import ReadDenySeam

OutputMode: TypeAlias = Literal["content", "files_with_matches", "count"]

DEFAULT_HEAD_LIMIT = 250
MAX_COLUMNS = 500
MULTILINE_MAX_BYTES = 64 << 20
"""Multiline search holds a whole file in memory, so larger files are skipped."""
MAX_UNREADABLE_SHOWN = 5
TIMEOUT_ENV = "HANDS_GREP_TIMEOUT_SECONDS"

DESCRIPTION = """\
Search file contents with ripgrep. Use this tool for every content search; do not run \
`grep` or `rg` through Bash: this tool is faster and its results are shaped for you.

- Full regular-expression syntax (Rust regex, as in ripgrep, not GNU grep): \
`log.*Error`, `function\\s+\\w+`. Literal braces need escaping: `interface\\{\\}` finds \
`interface{}` in Go code.
- Narrow the files with `glob` (e.g. `*.js`, `**/*.tsx`, `*.{ts,tsx}`) or `type` \
(e.g. `py`, `js`, `rust`; faster than a glob for standard file types).
- output_mode: `files_with_matches` (default) lists the files, most recently modified \
first; `content` shows the matching lines (`-n` line numbers on by default; `-A`, `-B`, \
`-C` / `context` add surrounding lines); `count` gives matches per file and a total.
- Patterns match within one line unless `multiline` is true, which lets `.` and a \
pattern span lines (e.g. `struct \\{[\\s\\S]*?field`).
- Results are paged: `head_limit` (default 250, 0 for no limit) entries from `offset`.
- Hidden files are searched, version-control directories and `.gitignore`d files are \
not, and lines over 500 characters are replaced by a short notice. Multiline search \
skips files over 64 MB.
- For an open-ended search that needs several rounds, consider delegating to an agent.\
"""


class GrepInput(ToolInput):
    """Input of Grep; the dash-prefixed keys are spelled as in Claude Code."""

    pattern: str = Field(
        description="The regular expression to search file contents for (Rust regex syntax)."
    )
    path: str | None = Field(
        default=None,
        description="File or directory to search; defaults to the current working directory.",
    )
    glob: str | None = Field(
        default=None,
        description=(
            'Only search files whose path matches this glob, e.g. "*.js" or "*.{ts,tsx}" '
            "(rg --glob). Several globs may be separated by spaces or commas."
        ),
    )
    output_mode: OutputMode = Field(
        default="files_with_matches",
        description=(
            '"content" shows matching lines (with -A/-B/-C context, -n line numbers, '
            'head_limit), "files_with_matches" lists file paths (the default), "count" '
            "shows match counts per file."
        ),
    )
    before: int | None = Field(
        default=None,
        alias="-B",
        ge=0,
        description='Lines to show before each match (rg -B). Only with output_mode "content".',
    )
    after: int | None = Field(
        default=None,
        alias="-A",
        ge=0,
        description='Lines to show after each match (rg -A). Only with output_mode "content".',
    )
    context_short: int | None = Field(
        default=None,
        alias="-C",
        ge=0,
        description="Alias of context.",
    )
    context: int | None = Field(
        default=None,
        ge=0,
        description=(
            'Lines to show before and after each match (rg -C). Only with output_mode "content".'
        ),
    )
    line_numbers: bool | None = Field(
        default=None,
        alias="-n",
        description='Show line numbers (rg -n). Only with output_mode "content"; default true.',
    )
    case_insensitive: bool | None = Field(
        default=None, alias="-i", description="Case-insensitive search (rg -i)."
    )
    only_matching: bool | None = Field(
        default=None,
        alias="-o",
        description='Show only the matched part of each line (rg -o). Only with "content".',
    )
    type: str | None = Field(
        default=None,
        description=(
            "File type to search (rg --type), e.g. js, py, rust, go, java. More efficient "
            "than glob for standard file types."
        ),
    )
    head_limit: int | None = Field(
        default=None,
        ge=0,
        description=(
            "Return at most this many entries (lines in content mode, files otherwise), "
            "after skipping `offset`. Defaults to 250; 0 means no limit (use sparingly: "
            "large results cost context)."
        ),
    )
    offset: int | None = Field(
        default=None,
        ge=0,
        description="Skip this many entries before applying head_limit. Defaults to 0.",
    )
    multiline: bool | None = Field(
        default=None,
        description=(
            "Let the pattern span lines and `.` match newlines (rg -U --multiline-dotall). "
            "Default false."
        ),
    )


@dataclass(frozen=True, kw_only=True, slots=True)
class GrepOutput:
    """One page of Grep results and the totals behind it."""

    mode: OutputMode
    filenames: tuple[str, ...] = ()
    """files_with_matches: the files on this page (relative to the cwd inside it, newest first)."""
    content: str = ""
    """content and count modes: the text of this page."""
    num_files: int = 0
    """Files with a match, in all."""
    num_lines: int = 0
    """content: lines on this page; count: entries on this page."""
    total_lines: int = 0
    """content: output lines in all."""
    num_matches: int = 0
    """count: matches in all files, whatever the page."""
    total_entries: int = 0
    """Entries (files or lines) that pagination runs over."""
    applied_limit: int | None = None
    """The limit, when it cut the results short."""
    applied_offset: int = 0
    duration_ms: float = 0.0
    timed_out: bool = False
    timeout_s: float = 0.0
    unreadable: tuple[str, ...] = ()
    """ripgrep's messages about files it could not read; the rest was searched."""

    @property
    def shown(self) -> int:
        """Entries on this page."""
        return len(self.filenames) if self.mode == "files_with_matches" else self.num_lines


def split_globs(glob: str) -> list[str]:
    """Split on whitespace, then on commas unless the piece uses braces (``*.{ts,tsx}``)."""
    out: list[str] = []
    for piece in glob.split():
        if "{" in piece and "}" in piece:
            out.append(piece)
        else:
            out.extend(p for p in piece.split(",") if p)
    return out


@dataclass(frozen=True, slots=True)
class _Target:
    path: Path
    arg: str
    """As passed to rg (relative to the cwd when inside it)."""
    strip: int
    """Characters of ``./`` to drop from every path rg prints."""


def _target(input: GrepInput, ctx: ToolContext) -> _Target:
    from hands.tools.search._common import display_root, optional_path  # lazy: start-up

    given = optional_path(input.path)
    path = Path(os.path.normpath(ctx.resolve(given))) if given is not None else ctx.cwd
    arg = display_root(path, Path(os.path.normpath(ctx.cwd)))
    return _Target(path=path, arg=arg, strip=2 if arg == "." else 0)


def rg_args(input: GrepInput, *, target: str, seam_globs: list[str] | None = None) -> list[str]:
    """The ripgrep command line (without ``rg``) for ``input``."""
    from hands.tools.search._rg import VCS_DIRS  # lazy: start-up

    # --no-mmap: a mapped file counts in full against memory (a 2 GB file costs 2 GB);
    # read in buffers, memory stays flat whatever the file
    args = ["--no-config", "--no-mmap", "--hidden", "--null", "--max-columns", str(MAX_COLUMNS)]
    mode = input.output_mode
    if mode == "files_with_matches":
        args.append("--files-with-matches")
    elif mode == "count":
        args += ["--count", "--with-filename"]
    else:
        args += ["--heading", "--with-filename"]
        if input.line_numbers is not False:
            args.append("--line-number")
        if input.only_matching:
            args.append("--only-matching")
        ctx_lines = input.context if input.context is not None else input.context_short
        if ctx_lines is not None:
            args += ["--context", str(ctx_lines)]
        else:
            if input.after is not None:
                args += ["--after-context", str(input.after)]
            if input.before is not None:
                args += ["--before-context", str(input.before)]
    if input.case_insensitive:
        args.append("--ignore-case")
    if input.multiline:
        args += ["--multiline", "--multiline-dotall", "--max-filesize", str(MULTILINE_MAX_BYTES)]
    if input.type:
        args += ["--type", input.type]
    if input.glob:
        for glob in split_globs(input.glob):
            args += ["--glob", glob]
    for vcs in VCS_DIRS:
        args += ["--glob", "!" + vcs]
    for glob in seam_globs or ():
        args += ["--glob", glob]
    args += ["--regexp", input.pattern, "--", target]
    return args


def _complete(data: bytes, sep: bytes, timed_out: bool) -> bytes:
    """Drop a trailing record cut short by a timeout."""
    if not timed_out or not data or data.endswith(sep):
        return data
    cut = data.rfind(sep)
    return data[: cut + 1] if cut >= 0 else b""


def parse_heading(data: bytes) -> list[tuple[bytes, int, int]]:
    """``(path, start, end)`` of each file's lines in ``rg --heading --null`` output.

    Each file's block is ``path NUL`` then its lines, and blocks are separated by an
    empty line; ``data[start:end]`` is the file's lines without the last newline.
    Offsets rather than copies: the output can be many megabytes and only one page of
    it is ever decoded. Output without any NUL (a single binary file's notice) comes
    back as one block with an empty path.
    """
    size = len(data)
    if not size:
        return []
    find = data.find
    nul = find(b"\0")
    if nul < 0:
        return [(b"", 0, size - 1 if data.endswith(b"\n") else size)]
    files: list[tuple[bytes, int, int]] = []
    path = data[:nul]
    while True:
        start = nul + 1
        nxt = find(b"\0", start)
        if nxt < 0:
            end = size - 1 if data.endswith(b"\n") else size
            files.append((path, start, max(start, end)))
            return files
        sep = data.rfind(b"\n\n", start, nxt)
        if sep < 0:  # not rg's shape; keep the rest whole rather than guess
            files.append((path, start, size))
            return files
        files.append((path, start, sep))
        path = data[sep + 2 : nxt]
        nul = nxt


_LINE_PREFIX = re.compile(rb"^(\d+)([:-])")


def _flat_line(path: str, line: bytes, numbered: bool) -> str:
    """A heading-mode line in ripgrep's flat ``path:12:text`` / ``path-12-text`` form."""
    text = line.decode("utf-8", errors="replace")
    if not path:
        return text
    if line == b"--":
        return "--"
    if numbered:
        m = _LINE_PREFIX.match(line)
        if m is not None and m.group(2) == b"-":
            return f"{path}-{text}"
    return f"{path}:{text}"


def _shown_path(raw: bytes, strip: int) -> str:
    """A path as rg printed it, made fit to show (``./`` dropped, decoded)."""
    if strip and raw.startswith(b"./"):
        raw = raw[strip:]
    return raw.decode("utf-8", errors="replace")


class GrepTool(ReadOnlyTool[GrepInput, GrepOutput]):
    """Claude Code's Grep."""

    name = "Grep"
    in_background_agents = True
    subject = reads_path("path", cwd_when_missing=True)
    always_load = True
    description = DESCRIPTION
    input_model = GrepInput
    max_result_chars = 20_000
    search_hint = "search file contents with a regular expression"

    async def validate_input(self, input: GrepInput, ctx: ToolContext) -> str | None:
        from hands.tools.search._common import (  # lazy: start-up
            optional_path,
            special_kind,
            unusable_text_error,
        )

        problem = unusable_text_error(
            pattern=input.pattern, path=input.path, glob=input.glob, type=input.type
        )
        if problem:
            return problem
        if optional_path(input.path) is not None:
            target = _target(input, ctx).path
            try:
                st = target.stat()
            except OSError:
                return f"Nothing at {echo(target)} (the working directory is {ctx.cwd})."
            if not (stat.S_ISREG(st.st_mode) or stat.S_ISDIR(st.st_mode)):
                return (
                    f"{target} is {special_kind(st.st_mode)}, not a file or directory: it has "
                    "no contents to search. Give a regular file or a directory as path."
                )
            if input.multiline and stat.S_ISREG(st.st_mode) and st.st_size > MULTILINE_MAX_BYTES:
                return (
                    f"{target} is {st.st_size:,} bytes; multiline search holds a whole file in "
                    f"memory and is limited to {MULTILINE_MAX_BYTES >> 20} MB files. Search it "
                    "line by line (multiline false), or narrow it first."
                )
        return None

    async def call(
        self, input: GrepInput, ctx: ToolContext, progress: Progress
    ) -> ToolResult[GrepOutput]:
        from hands.tools.search._common import MtimeSink  # lazy: start-up
        from hands.tools.search._deny import read_deny_seam  # lazy: start-up
        from hands.tools.search._rg import run_rg, stream_rg, timeout_from_env  # lazy: start-up

        started = time.perf_counter()
        target = _target(input, ctx)
        seam = read_deny_seam(ctx)
        search_root = target.path if target.path.is_dir() else target.path.parent
        globs = seam.rg_globs(search_root=search_root, default_root=ctx.root) if seam else []
        args = rg_args(input, target=target.arg, seam_globs=globs)
        timeout = timeout_from_env(TIMEOUT_ENV)
        sink: MtimeSink | None = None
        if input.output_mode == "files_with_matches":
            sink = MtimeSink(ctx.cwd)
            try:
                run = await stream_rg(args, cwd=ctx.cwd, time_limit=timeout, sink=sink)
            finally:
                sink.close()
        else:
            run = await run_rg(args, cwd=ctx.cwd, time_limit=timeout)
        if run.failed:
            raise ToolError(run.diagnostic or "ripgrep failed without saying why")
        limit = DEFAULT_HEAD_LIMIT if input.head_limit is None else input.head_limit
        offset = input.offset or 0
        shaper = _Shaper(ctx=ctx, seam=seam, strip=target.strip, limit=limit, offset=offset)
        if sink is not None:
            output = shaper.files(sink)
        elif input.output_mode == "count":
            output = shaper.count(_complete(run.stdout, b"\n", run.timed_out))
        else:
            output = shaper.content(
                _complete(run.stdout, b"\n", run.timed_out),
                numbered=input.line_numbers is not False,
            )
        output = _finish(
            output,
            started=started,
            timed_out=run.timed_out,
            timeout_s=timeout,
            unreadable=run.unreadable,
        )
        return ToolResult(output=output)

    def to_content(self, output: GrepOutput) -> Content:
        return format_output(output)

    def describe_input(self, input: GrepInput) -> str:
        from hands.tools.search._common import optional_path  # lazy: start-up

        text = f'pattern: "{input.pattern}"'
        given = optional_path(input.path)
        if given is not None:
            text += f', path: "{given}"'
        if input.glob:
            text += f', glob: "{input.glob}"'
        if input.type:
            text += f', type: "{input.type}"'
        if input.output_mode != "files_with_matches":
            text += f", output_mode: {input.output_mode}"
        return text if len(text) <= 100 else text[:99] + "…"

    def render_result(self, output: GrepOutput) -> RenderableType:
        from rich.text import Text

        from hands.tools.search._common import plural  # lazy: start-up

        text = Text("  ⎿ ")
        if output.mode == "files_with_matches":
            text.append("Found ")
            text.append(plural(output.num_files, "file"), style="bold")
        elif output.mode == "count":
            text.append("Found ")
            text.append(plural(output.num_matches, "match", "matches"), style="bold")
            text.append(f" across {plural(output.num_files, 'file')}")
        else:
            text.append("Found ")
            text.append(plural(output.total_lines, "line"), style="bold")
        if output.applied_limit is not None or output.applied_offset:
            first = output.applied_offset + 1
            last = output.applied_offset + output.shown
            text.append(f" (showing {first:,}–{last:,})", style="dim")
        if output.timed_out:
            text.append(" (stopped at the time limit; incomplete)", style="yellow")
        return text


def _finish(
    output: GrepOutput,
    *,
    started: float,
    timed_out: bool,
    timeout_s: float,
    unreadable: tuple[str, ...],
) -> GrepOutput:
    return GrepOutput(
        mode=output.mode,
        filenames=output.filenames,
        content=output.content,
        num_files=output.num_files,
        num_lines=output.num_lines,
        total_lines=output.total_lines,
        num_matches=output.num_matches,
        total_entries=output.total_entries,
        applied_limit=output.applied_limit,
        applied_offset=output.applied_offset,
        duration_ms=(time.perf_counter() - started) * 1000,
        timed_out=timed_out,
        timeout_s=timeout_s,
        unreadable=unreadable,
    )


@dataclass(frozen=True, kw_only=True, slots=True)
class _Shaper:
    """Turns raw ripgrep output into one ordered, filtered page."""

    ctx: ToolContext
    seam: ReadDenySeam
    strip: int
    limit: int
    offset: int

    def _window(self, total: int) -> tuple[int, int, int | None]:
        """(start, stop, applied limit) of the page over ``total`` entries."""
        start = min(self.offset, total)
        stop = total if self.limit == 0 else min(total, start + self.limit)
        applied = self.limit if self.limit and start + self.limit < total else None
        return start, stop, applied

    def _allowed(self, raw: bytes) -> bool:
        return not self._denied(raw)

    def _denied(self, raw: bytes) -> bool:
        from hands.tools.search._common import join_path  # lazy: start-up

        absolute = join_path(os.fsencode(self.ctx.cwd), raw)
        return self.seam.is_denied(os.fsdecode(absolute), default_root=self.ctx.root)

    def files(self, sink: MtimeSink) -> GrepOutput:
        from hands.tools.search._common import display_path  # lazy: start-up

        ordered = sink.newest_first(self._allowed if self.seam else None)
        cwd = self.ctx.cwd
        start, stop, applied = self._window(len(ordered))
        base = os.fsencode(cwd)
        page = tuple(display_path(base, p, base) for p in ordered[start:stop])
        return GrepOutput(
            mode="files_with_matches",
            filenames=page,
            num_files=len(ordered),
            total_entries=len(ordered),
            applied_limit=applied,
            applied_offset=self.offset,
        )

    def count(self, data: bytes) -> GrepOutput:
        from hands.tools.search._common import mtimes  # lazy: start-up

        entries: list[tuple[bytes, int]] = []
        for line in data.split(b"\n"):
            raw, sep, number = line.rpartition(b"\0")
            if sep and not (self.seam and self._denied(raw)):
                entries.append((raw, int(number)))
        times = mtimes([e[0] for e in entries], cwd=self.ctx.cwd)
        order = sorted(range(len(entries)), key=lambda i: (-times[i], entries[i][0]))
        total_matches = sum(e[1] for e in entries)
        start, stop, applied = self._window(len(entries))
        page = [
            f"{_shown_path(entries[i][0], self.strip)}:{entries[i][1]}" for i in order[start:stop]
        ]
        return GrepOutput(
            mode="count",
            content="\n".join(page),
            num_files=len(entries),
            num_lines=len(page),
            num_matches=total_matches,
            total_entries=len(entries),
            applied_limit=applied,
            applied_offset=self.offset,
        )

    def content(self, data: bytes, *, numbered: bool) -> GrepOutput:
        from hands.tools.search._common import mtimes  # lazy: start-up

        blocks = parse_heading(data)
        if self.seam:
            blocks = [b for b in blocks if not b[0] or not self._denied(b[0])]
        times = mtimes([b[0] for b in blocks], cwd=self.ctx.cwd)
        order = sorted(range(len(blocks)), key=lambda i: (-times[i], blocks[i][0]))
        count = data.count
        sizes = [count(b"\n", blocks[i][1], blocks[i][2]) + 1 for i in order]
        total = sum(sizes)
        start, stop, applied = self._window(total)
        lines: list[str] = []
        seen = 0
        for i, size in zip(order, sizes, strict=True):
            if seen >= stop:
                break
            if seen + size > start:
                raw, lo, hi = blocks[i]
                shown = _shown_path(raw, self.strip)
                parts = data[lo:hi].split(b"\n")
                first = max(0, start - seen)
                last = min(size, stop - seen)
                lines.extend(_flat_line(shown, line, numbered) for line in parts[first:last])
            seen += size
        return GrepOutput(
            mode="content",
            content="\n".join(lines),
            num_files=len(blocks),
            num_lines=len(lines),
            total_lines=total,
            total_entries=total,
            applied_limit=applied,
            applied_offset=self.offset,
        )


def _page_note(output: GrepOutput, unit: str, units: str) -> str | None:
    """``[Showing …]`` when the page is not everything, else None."""
    if output.applied_limit is None and not output.applied_offset:
        return None
    first = output.applied_offset + 1
    last = output.applied_offset + output.shown
    note = f"[Showing {units} {first:,}–{last:,} of {output.total_entries:,}"
    if last < output.total_entries:
        note += f"; pass offset={last} for the next page"
    return note + ".]"


NO_FILES = "No file contains a match."
NO_MATCHES = "Nothing matched."


def matching_files(count: int) -> str:
    """The heading of a file list: how many files matched."""
    return f"{count:,} matching {'file' if count == 1 else 'files'}:"


def format_output(output: GrepOutput) -> str:
    """The text the model reads."""
    from hands.tools.search._common import plural  # lazy: start-up

    parts: list[str] = []
    total = output.total_entries
    if total == 0:
        none = NO_FILES if output.mode == "files_with_matches" else NO_MATCHES
        parts.append(none)
    elif output.applied_offset >= total:
        unit = {"files_with_matches": "file", "count": "file", "content": "line"}[output.mode]
        parts.append(
            f"No entries at offset {output.applied_offset:,}: the search found "
            f"{plural(total, unit)}, so offsets 0–{total - 1:,} hold results."
        )
    elif output.mode == "files_with_matches":
        parts.append(matching_files(output.num_files))
        note = _page_note(output, "file", "files")
        if note:
            parts.append(note)
        parts.append("\n".join(output.filenames))
    elif output.mode == "count":
        parts.append(output.content)
        summary = (
            f"\n{plural(output.num_matches, 'match', 'matches')} in all, in "
            f"{plural(output.num_files, 'file')}."
        )
        note = _page_note(output, "file", "files")
        if note:
            summary += f" {note[:-2]}; the total covers every file.]"
        parts.append(summary)
    else:
        parts.append(output.content)
        note = _page_note(output, "line", "lines")
        if note:
            parts.append("\n" + note)
    if output.timed_out:
        parts.append(
            f"\n(The search was stopped after {output.timeout_s:g} s, so these results are "
            "incomplete. Narrow the path, glob, type or pattern.)"
        )
    if output.unreadable:
        shown = output.unreadable[:MAX_UNREADABLE_SHOWN]
        more = len(output.unreadable) - len(shown)
        lines = [
            f"\n({plural(len(output.unreadable), 'file')} could not be read and were not searched:",
            *(f"  {line}" for line in shown),
        ]
        if more:
            lines.append(f"  … and {more:,} more")
        parts.append("\n".join(lines) + ")")
    return "\n".join(parts)
