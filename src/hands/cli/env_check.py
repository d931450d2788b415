"""The ``HANDS_*`` variables checked at start: a value hands cannot use stops it."""

from __future__ import annotations

from collections.abc import Mapping

from hands.core.env import EnvError, problems


def check_environment(env: Mapping[str, str] | None = None) -> None:
    """Raise one :class:`EnvError` naming every listed variable set to an unusable value."""
    found = problems(env)
    if found:
        raise EnvError("; ".join(str(e) for e in found))
