"""Whether the user has accepted running every call unasked (the bypassPermissions mode).

The REPL asks once before it starts in that mode. The acceptance is the setting
``skipDangerousModePermissionPrompt: true``, as Claude Code keeps it: it counts from the
user's settings, a trusted folder's ``settings.local.json``, ``--settings`` and managed
policy — never from a project's shared ``settings.json``, which whoever wrote the
repository wrote. Answering yes writes it to the user's hands settings.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from hands.config.jsonfile import update_json_object
from hands.config.settings import Settings
from hands.core.limits import hands_home

ACCEPTANCE_KEY = "skipDangerousModePermissionPrompt"


def is_accepted(settings: Settings) -> bool:
    """Whether a source that may give it holds the acceptance."""
    untrusted = settings.untrusted_files
    return any(
        source.data.get(ACCEPTANCE_KEY) is True
        for source in settings.sources
        if source.scope != "projectSettings" and source.label not in untrusted
    )


def accept(env: Mapping[str, str] | None = None) -> Path:
    """Record the acceptance in the user's hands settings (written whole); returns it."""

    def change(data: dict[str, Any]) -> None:
        data[ACCEPTANCE_KEY] = True

    return update_json_object(hands_home(env) / "settings.json", change)
