"""A settings file that cannot be used stops the session: its deny rules must not vanish."""

from __future__ import annotations

from hands.errors import ConfigError


class SettingsFileError(ConfigError):
    """A settings file is not valid JSON, not an object, unreadable or malformed.

    ``line`` and ``column`` are 1-based and 0 when the problem has no place in the text.
    """

    def __init__(self, label: str, message: str, *, line: int = 0, column: int = 0) -> None:
        self.label = label
        self.message = message
        self.line = line
        self.column = column
        where = f" (line {line}, column {column})" if line else ""
        super().__init__(
            f"{label}{where}: {message}. Fix the file (or move it away) and start again; "
            "hands does not run with a settings file it cannot read, so that none of its "
            "deny rules is lost"
        )
