"""Finding skills: ``SKILL.md`` files under ``.claude/skills/*/`` and ``.hands/skills/*/``.

A trusted project's skills come after the user's; one named like a user skill is
offered as ``project:NAME``. The frontmatter gives ``name`` (default: the folder's
name), ``description`` (default: the body's first paragraph) and ``allowed-tools``; the
body is the instructions the model gets when it invokes the skill. A SKILL.md without
frontmatter is all body.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from hands.config.frontmatter import (
    FrontmatterError,
    name_list,
    split_frontmatter,
    text_field,
)
from hands.config.project_input import SKILL_DIRS, SKILL_FILE

PROJECT_PREFIX = "project:"
"""Prefix of a project skill's name when a user skill has its name."""
MAX_SKILL_BYTES = 1_000_000


@dataclass(frozen=True, kw_only=True, slots=True)
class Skill:
    """One skill."""

    name: str
    description: str
    instructions: str
    directory: Path
    allowed_tools: tuple[str, ...] = ()
    """Permission rules (``Bash(git add *)``, ``Read``) allowed while the skill is active."""


@dataclass(frozen=True, kw_only=True, slots=True)
class SkillSet:
    """The skills found, and a warning per SKILL.md that could not be used."""

    skills: tuple[Skill, ...] = ()
    warnings: tuple[str, ...] = ()

    def find(self, name: str) -> Skill | None:
        """The skill called ``name`` (a leading slash is ignored)."""
        wanted = name.strip().lstrip("/")
        return next((s for s in self.skills if s.name == wanted), None)


def parse_skill(path: Path, text: str) -> Skill:
    """The skill a SKILL.md defines; FrontmatterError saying why when it defines none."""
    split = split_frontmatter(text)
    data: Mapping[str, Any] = {} if split is None else split[0]
    body = text.removeprefix("\ufeff") if split is None else split[1]
    description = text_field(data, "description") or first_paragraph(body)
    if not description:
        raise FrontmatterError("it has neither a description nor any text to describe it by")
    allowed = data.get("allowed-tools")
    return Skill(
        name=text_field(data, "name") or path.parent.name,
        description=description,
        instructions=body.strip(),
        directory=path.parent,
        allowed_tools=() if allowed is None else name_list(allowed, "allowed-tools"),
    )


MAX_DESCRIPTION_CHARS = 250


def first_paragraph(body: str) -> str:
    """The body's first paragraph of prose (headings' marks dropped), as one line."""
    for block in body.strip().split("\n\n"):
        words = " ".join(line.strip().lstrip("#").strip() for line in block.splitlines()).strip()
        if words:
            return words if len(words) <= MAX_DESCRIPTION_CHARS else words[:249] + "…"
    return ""


def _read(root: Path) -> tuple[list[Skill], list[str]]:
    skills: list[Skill] = []
    warnings: list[str] = []
    for sub in SKILL_DIRS:
        found, notes = read_skill_dir(root / sub)
        skills += found
        warnings += notes
    return skills, warnings


def read_skill_dir(directory: Path) -> tuple[list[Skill], list[str]]:
    """The skills of ``directory``'s ``*/SKILL.md``, and a warning per unusable one."""
    skills: list[Skill] = []
    warnings: list[str] = []
    if not directory.is_dir():
        return skills, warnings
    for path in sorted(directory.glob(f"*/{SKILL_FILE}")):
        try:
            if path.stat().st_size > MAX_SKILL_BYTES:
                raise FrontmatterError(f"it is larger than {MAX_SKILL_BYTES:,} bytes")
            skills.append(parse_skill(path, path.read_text(encoding="utf-8")))
        except (OSError, UnicodeDecodeError) as exc:
            warnings.append(f"skill file {path} cannot be read: {exc}")
        except FrontmatterError as exc:
            warnings.append(f"skill file {path} was skipped: {exc}")
    return skills, warnings


def load_skills(*, cwd: Path, home: Path | None = None, trusted: bool = False) -> SkillSet:
    """The user's skills, then the project's.

    An untrusted (not ``trusted``) project's skills are project input and are not
    loaded. A project skill never replaces a user's of the same name: it is offered as
    ``project:NAME`` beside it.
    """
    user_home = home if home is not None else Path.home()
    user, user_warnings = _read(user_home)
    mine = not trusted or cwd.resolve() == user_home.resolve()
    project, project_warnings = ([], []) if mine else _read(cwd)
    merged = {s.name: s for s in user}
    for skill in project:
        name = PROJECT_PREFIX + skill.name if skill.name in merged else skill.name
        merged[name] = replace(skill, name=name)
    return SkillSet(
        skills=tuple(sorted(merged.values(), key=lambda s: s.name)),
        warnings=(*user_warnings, *project_warnings),
    )


def listing(skills: SkillSet, budget: int) -> str:
    """``- name: description`` lines within ``budget`` characters.

    Descriptions are shortened first, so every skill's name fits when it can; skills
    past the budget are counted, not listed.
    """
    lines = [f"- {s.name}: {' '.join(s.description.split())}" for s in skills.skills]
    if sum(len(line) + 1 for line in lines) <= budget:
        return "\n".join(lines)
    share = max(40, budget // max(1, len(lines)))
    lines = [line if len(line) <= share else line[: share - 1] + "…" for line in lines]
    kept: list[str] = []
    used = 0
    for line in lines:
        if used + len(line) + 1 > budget:
            kept.append(f"({len(lines) - len(kept)} more skills not listed)")
            break
        kept.append(line)
        used += len(line) + 1
    return "\n".join(kept)
