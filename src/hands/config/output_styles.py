"""Output styles: how the model answers, set by ``outputStyle`` in the settings.

A style is a built-in one or a Markdown file in ``~/.claude/output-styles/``,
``~/.hands/output-styles/`` or (in a trusted folder) the project's
``.claude/output-styles/``; its frontmatter may give ``name``, ``description`` and
``keep-coding-instructions`` (default false: the style replaces the coding instructions
of the default system prompt; true: it is added to them). A project style of the same
name as a user one does not replace it. The style is read once when the session starts,
as Claude Code reads it: a change applies from the next session or ``/clear``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from hands.config.frontmatter import FrontmatterError, split_frontmatter

DEFAULT = "default"


@dataclass(frozen=True, kw_only=True, slots=True)
class OutputStyle:
    """One style the session can answer in."""

    name: str
    description: str
    prompt: str
    """Instructions added to the system prompt (empty for the default style)."""
    keep_coding_instructions: bool
    source: Literal["built-in", "user", "project"]
    path: Path | None = None


BUILT_IN: tuple[OutputStyle, ...] = (
    OutputStyle(
        name="Default", description="The usual system prompt, for getting work done.",
        prompt="", keep_coding_instructions=True, source="built-in",
    ),
    OutputStyle(
        name="Proactive",
        description="Act at once on reasonable assumptions instead of stopping to ask.",
        prompt="Work autonomously. When a routine choice has a reasonable answer, make it, "
        "say in one line what you assumed, and go on; ask only when a wrong guess would be "
        "costly or hard to undo. Prefer doing the work over describing a plan for it.",
        keep_coding_instructions=True, source="built-in",
    ),
    OutputStyle(
        name="Explanatory",
        description="Explain the choices made and the code base's patterns while working.",
        prompt="While you work, teach. Before and after a change, add a short block headed "
        "'Insight' with two or three points about why this approach was chosen, what the "
        "surrounding code does, or which pattern of the code base it follows. Keep the "
        "insights specific to this code, not general advice.",
        keep_coding_instructions=True, source="built-in",
    ),
    OutputStyle(
        name="Learning",
        description="Work with the user: leave small, meaningful parts for them to write.",
        prompt="Work as a pair with the user, who wants to learn. Share short 'Insight' "
        "blocks about the choices you make. For a small part that carries a real design "
        "decision (five to ten lines), do not write it yourself: leave a TODO(human) "
        "marker where it goes, explain what it should do and what to weigh, and ask the "
        "user to write it before you go on.",
        keep_coding_instructions=True, source="built-in",
    ),
)  # fmt: skip


@dataclass(frozen=True, kw_only=True, slots=True)
class StyleCatalog:
    """Every style found, and the files that could not be used."""

    styles: tuple[OutputStyle, ...]
    warnings: tuple[str, ...] = ()

    def find(self, name: str) -> OutputStyle | None:
        """The style called ``name`` (any case); the first found wins."""
        wanted = name.strip().casefold()
        return next((s for s in self.styles if s.name.casefold() == wanted), None)


def load_styles(*, project: Path, home: Path, hands_home: Path, trusted: bool) -> StyleCatalog:
    """The built-in styles, then the user's, then (when trusted) the project's."""
    found = list(BUILT_IN)
    warnings: list[str] = []
    places: list[tuple[Path, Literal["user", "project"]]] = [
        (home / ".claude" / "output-styles", "user"),
        (hands_home / "output-styles", "user"),
    ]
    if trusted:
        places.append((project / ".claude" / "output-styles", "project"))
    for folder, source in places:
        for path in sorted(folder.glob("*.md")) if folder.is_dir() else ():
            style = _read(path, source, warnings)
            if style is None:
                continue
            if any(s.name.casefold() == style.name.casefold() for s in found):
                warnings.append(f"{path}: a style called {style.name!r} exists already; skipped")
                continue
            found.append(style)
    return StyleCatalog(styles=tuple(found), warnings=tuple(warnings))


def _read(
    path: Path, source: Literal["user", "project"], warnings: list[str]
) -> OutputStyle | None:
    try:
        text = path.read_text(encoding="utf-8")
        split = split_frontmatter(text)
    except (OSError, UnicodeDecodeError, FrontmatterError) as exc:
        warnings.append(f"{path}: skipped ({exc})")
        return None
    meta: Mapping[str, object] = split[0] if split is not None else {}
    body = split[1] if split is not None else text
    name = meta.get("name")
    keep = meta.get("keep-coding-instructions", False)
    description = meta.get("description", "")
    return OutputStyle(
        name=name.strip() if isinstance(name, str) and name.strip() else path.stem,
        description=description if isinstance(description, str) else "",
        prompt=body.strip(),
        keep_coding_instructions=keep is True or (isinstance(keep, str) and keep == "true"),
        source=source,
        path=path,
    )


def chosen_style(catalog: StyleCatalog, setting: object) -> tuple[OutputStyle, str | None]:
    """The style ``outputStyle`` names (the default when unset), and a warning if unknown."""
    default = BUILT_IN[0]
    if setting is None or (isinstance(setting, str) and setting.strip().casefold() == DEFAULT):
        return default, None
    if not isinstance(setting, str):
        return default, "outputStyle must be a style's name; the default style is used"
    style = catalog.find(setting)
    if style is None:
        known = ", ".join(s.name for s in catalog.styles)
        return default, f"outputStyle {setting!r} is not a style ({known}); the default is used"
    return style, None


def style_reminder(name: str) -> str:
    """The note after each round of tool results while a non-default style is in force.

    It keeps a long run of tool calls from drifting away from the style.
    """
    return (
        f'<system-reminder>\nThe output style "{name}" is in force: keep answering as its '
        "instructions in the system prompt say.\n</system-reminder>"
    )


def is_default(style: OutputStyle) -> bool:
    """Whether ``style`` is the default one (it adds nothing and needs no reminder)."""
    return style.source == "built-in" and style.name.lower() == DEFAULT


def style_section(style: OutputStyle) -> str:
    """What the style adds at the end of the system prompt (empty for the default)."""
    if not style.prompt:
        return ""
    return (
        f'<output-style name="{style.name}">\n{style.prompt}\n</output-style>\n'
        "Answer in this output style throughout the conversation."
    )
