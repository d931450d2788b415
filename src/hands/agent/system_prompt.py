"""The system prompt: who the agent is, where it runs, and the project's own instructions."""

from __future__ import annotations

import platform
from collections.abc import Sequence
from datetime import date
from pathlib import Path

from hands.agent.git_status import git_summary_for_prompt
from hands.agent.options import DEFAULT_SYSTEM_PROMPT
from hands.config.output_styles import OutputStyle, style_section

INSTRUCTION_FILES = ("CLAUDE.md", "AGENTS.md", "HANDS.md")
MAX_INSTRUCTION_CHARS = 40_000
STYLED_SYSTEM_PROMPT = (
    "You are an agent working in the user's folder through tools. Use the tools to inspect "
    "and change files and run commands; call independent read-only tools together in one "
    "message so they run in parallel."
)
"""The base under an output style that does not keep the coding instructions."""


def instruction_files(cwd: Path, home: Path | None = None) -> list[tuple[Path, str]]:
    """User-level then project-level instruction files, each read once."""
    seen: set[Path] = set()
    found: list[tuple[Path, str]] = []
    candidates: list[Path] = []
    user_home = home if home is not None else Path.home()
    candidates += [user_home / ".claude" / "CLAUDE.md", user_home / ".hands" / "HANDS.md"]
    for directory in (*reversed(cwd.parents), cwd):
        candidates += [directory / name for name in INSTRUCTION_FILES]
        candidates.append(directory / ".claude" / "CLAUDE.md")
    for path in candidates:
        try:
            real = path.resolve()
            if real in seen or not path.is_file():
                continue
            text = path.read_text(encoding="utf-8", errors="replace")
        except OSError:
            continue
        seen.add(real)
        found.append((path, text[:MAX_INSTRUCTION_CHARS]))
    return found


def build_system_prompt(
    *,
    cwd: Path,
    additional_dirs: Sequence[Path] = (),
    append: str = "",
    base: str = DEFAULT_SYSTEM_PROMPT,
    home: Path | None = None,
    today: date | None = None,
    style: OutputStyle | None = None,
) -> str:
    """The whole system prompt for a session started in ``cwd``.

    ``style``: the output style; one that does not keep the coding instructions replaces
    the default ``base`` with a neutral one, and its instructions come last.
    """
    if style is not None and not style.keep_coding_instructions and base == DEFAULT_SYSTEM_PROMPT:
        base = STYLED_SYSTEM_PROMPT
    env = [
        f"Working directory: {cwd}",
        *(f"Additional working directory: {d}" for d in additional_dirs),
        f"Platform: {platform.system().lower()} {platform.release()}",
        f"Today's date: {(today or date.today()).isoformat()}",
    ]
    parts = [base, "<env>\n" + "\n".join(env) + "\n</env>"]
    status = git_summary_for_prompt(cwd)
    if status:
        parts.append(f"<git-status>\n{status}\n</git-status>")
    for path, text in instruction_files(cwd, home):
        parts.append(
            f'<instructions source="{path}">\n{text.strip()}\n</instructions>\n'
            "These instructions come from the user's files and override defaults."
        )
    if append.strip():
        parts.append(append.strip())
    section = style_section(style) if style is not None else ""
    if section:
        parts.append(section)
    return "\n\n".join(parts)
