"""What an exit status means: some programs use 1 for an answer, not a failure."""

from __future__ import annotations

from dataclasses import dataclass

from hands.shell.analysis import analyze


@dataclass(frozen=True, kw_only=True, slots=True)
class ExitMeaning:
    """Whether an exit status is a failure, and how to say what it means."""

    is_error: bool
    interpretation: str | None = None


_ONE_MEANS: dict[str, str] = {
    "grep": "No matches found",
    "egrep": "No matches found",
    "fgrep": "No matches found",
    "rg": "No matches found",
    "diff": "Files differ",
    "cmp": "Files differ",
    "test": "Condition is false",
    "[": "Condition is false",
    "find": "Some directories were inaccessible",
}


def interpret_exit(command: str, code: int) -> ExitMeaning:
    """The meaning of ``code`` for ``command``, judged by the command that ran last."""
    if code == 0:
        return ExitMeaning(is_error=False)
    if code == 1:
        meaning = _one_means(command)
        if meaning is not None:
            return ExitMeaning(is_error=False, interpretation=meaning)
    return ExitMeaning(is_error=True)


def _one_means(command: str) -> str | None:
    analysis = analyze(command)
    if not analysis.understood:
        return None
    if not analysis.commands:
        return "Condition is false" if "test command" in analysis.opaque else None
    last = analysis.commands[-1]
    name = last.name
    if name is None:
        return None
    name = name.rsplit("/", 1)[-1]
    if name == "git":
        sub = next((a for a in last.argv[1:] if not a.startswith("-")), None)
        if sub == "diff":
            return "Files differ"
        if sub == "grep":
            return "No matches found"
        return None
    return _ONE_MEANS.get(name)
