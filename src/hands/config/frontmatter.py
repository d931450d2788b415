"""YAML frontmatter of Markdown files (agent definitions, skills): ``---`` blocks."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any, cast


class FrontmatterError(ValueError):
    """A file whose frontmatter cannot be used (the message says why)."""


def split_frontmatter(text: str) -> tuple[Mapping[str, Any], str] | None:
    """The frontmatter mapping and the body; ``None`` when the text has no frontmatter.

    Raises FrontmatterError when the frontmatter is there but is not a YAML mapping.
    """
    text = text.removeprefix("\ufeff")
    lines = text.splitlines(keepends=True)
    if not lines or lines[0].strip() != "---":
        return None
    for end in range(1, len(lines)):
        if lines[end].strip() == "---":
            break
    else:
        raise FrontmatterError("the frontmatter has no closing '---' line")
    import yaml  # lazy: loaded with the first file that has frontmatter, not at start-up

    try:
        data = yaml.safe_load("".join(lines[1:end]))
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f" (line {mark.line + 2})" if mark is not None else ""
        problem = getattr(exc, "problem", None) or str(exc)
        raise FrontmatterError(f"the frontmatter is not valid YAML{where}: {problem}") from None
    if data is None:
        data = {}
    if not isinstance(data, dict):
        raise FrontmatterError("the frontmatter is not a mapping of keys to values")
    return cast(dict[str, Any], data), "".join(lines[end + 1 :])


def name_list(value: object, key: str) -> tuple[str, ...]:
    """A list of names written as a comma-separated string or a YAML list."""
    if isinstance(value, str):
        items: Iterable[object] = value.split(",")
    elif isinstance(value, list):
        items = cast(list[object], value)
    else:
        raise FrontmatterError(f"{key} must be a comma-separated string or a list of names")
    names = [str(item).strip() for item in items]
    return tuple(n for n in names if n)


def text_field(data: Mapping[str, Any], key: str, *, required: bool = False) -> str:
    """A scalar field as text ("" when absent); FrontmatterError when it must be there."""
    value = data.get(key)
    if value is None:
        if required:
            raise FrontmatterError(f"the frontmatter has no {key!r}")
        return ""
    if not isinstance(value, str | int | float) or isinstance(value, bool):
        raise FrontmatterError(f"{key!r} must be text")
    text = str(value).strip()
    if required and not text:
        raise FrontmatterError(f"{key!r} is empty")
    return text
