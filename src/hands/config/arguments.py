"""Arguments put into a skill's or a command's body: ``$ARGUMENTS``, ``$ARGUMENTS[N]``, ``$N``.

``$ARGUMENTS`` is the arguments as given; ``$ARGUMENTS[N]`` and its short form ``$N``
are the N-th of them (from 0), split as a shell splits words, so quoted words stay one.
A position with no argument is left as written. A body that names none of these gets
the arguments after it instead (see the Skill tool and the custom commands).
"""

from __future__ import annotations

import re
import shlex

_PLACEHOLDER = re.compile(r"\$ARGUMENTS\[(\d+)\]|\$ARGUMENTS\b|\$(\d+)\b")


def split_arguments(args: str) -> list[str]:
    """The words of ``args``: shell-style, or at whitespace when the quoting is unbalanced."""
    try:
        return shlex.split(args)
    except ValueError:
        return args.split()


def substitute(body: str, args: str) -> tuple[str, bool]:
    """``body`` with its placeholders filled in, and whether it had any."""
    words: list[str] | None = None
    used = False

    def fill(match: re.Match[str]) -> str:
        nonlocal words, used
        used = True
        index = match.group(1) or match.group(2)
        if index is None:
            return args
        if words is None:
            words = split_arguments(args)
        position = int(index)
        return words[position] if position < len(words) else match.group(0)

    return _PLACEHOLDER.sub(fill, body), used
