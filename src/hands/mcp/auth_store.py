"""OAuth credentials of one remote MCP server, kept in one private file.

Each server (name and URL) has its own JSON file under the auth directory
(``$HANDS_HOME/mcp-auth``): the registered client, the tokens with their absolute expiry,
and the metadata of the authorization server and the protected resource, so that a later
session can refresh a token without discovering anything again. The directory is 0700,
the file 0600 from the moment it exists, and every write replaces it atomically (a
temporary file in the same directory, fsynced, renamed over the old one). Nothing here
imports the MCP SDK.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import secrets
from pathlib import Path
from typing import Any, cast

from hands.mcp.config import McpServerConfig
from hands.mcp.naming import normalize

FILE_MODE = 0o600
DIR_MODE = 0o700


def record_path(directory: Path, config: McpServerConfig) -> Path:
    """The file for ``config``: its name plus a digest of its URL (a new URL starts afresh)."""
    digest = hashlib.sha256(config.url.encode("utf-8")).hexdigest()[:16]
    return directory / f"{normalize(config.name)}-{digest}.json"


class AuthRecord:
    """Read and replace the credentials file of one server."""

    def __init__(self, directory: Path, config: McpServerConfig) -> None:
        self.config = config
        self.path = record_path(directory, config)

    def read(self) -> dict[str, Any]:
        """The stored record (empty when there is none or it cannot be read)."""
        try:
            data: object = json.loads(self.path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return {}
        if not isinstance(data, dict):
            return {}
        record = cast(dict[str, Any], data)
        if record.get("url") != self.config.url:
            return {}  # written for another server under a colliding name
        return record

    def update(self, **fields: object) -> None:
        """Set ``fields`` in the record and write it back atomically."""
        record = self.read()
        record.update(fields)
        record["server"] = self.config.name
        record["url"] = self.config.url
        write_private(self.path, json.dumps(record, indent=2, sort_keys=True) + "\n")

    def delete(self) -> bool:
        """Remove the record; True when there was one."""
        try:
            self.path.unlink()
        except FileNotFoundError:
            return False
        return True

    def redirect_uris(self) -> list[str]:
        """The redirect URIs of the stored client registration (none: no registration)."""
        client = self.read().get("client")
        if not isinstance(client, dict):
            return []
        uris = cast(dict[str, Any], client).get("redirect_uris")
        if not isinstance(uris, list):
            return []
        return [str(u) for u in cast(list[object], uris)]

    @property
    def has_tokens(self) -> bool:
        """Whether a token is stored (valid or not)."""
        return bool(self.read().get("tokens"))


def write_private(path: Path, text: str) -> None:
    """Replace ``path`` with ``text``: mode 0600 throughout, old or new content, never a mix."""
    path.parent.mkdir(mode=DIR_MODE, parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.{secrets.token_hex(6)}.tmp")
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_CLOEXEC", 0)
    fd = os.open(tmp, flags, FILE_MODE)
    try:
        try:
            data = text.encode("utf-8")
            while data:
                written = os.write(fd, data)
                data = data[written:]
            os.fchmod(fd, FILE_MODE)  # whatever the umask
            os.fsync(fd)
        finally:
            os.close(fd)
        tmp.replace(path)
    except BaseException:
        with contextlib.suppress(OSError):
            tmp.unlink()
        raise
    with contextlib.suppress(OSError):
        dir_fd = os.open(path.parent, os.O_RDONLY)
        try:
            os.fsync(dir_fd)
        finally:
            os.close(dir_fd)
