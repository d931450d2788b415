"""Tool names for MCP tools: ``mcp__<server>__<tool>``, API-safe and at most 64 characters."""

from __future__ import annotations

import hashlib
import re

PREFIX = "mcp__"
MAX_NAME = 64
_UNSAFE = re.compile(r"[^A-Za-z0-9_-]")


def normalize(part: str) -> str:
    """Replace every character outside ``[A-Za-z0-9_-]`` with ``_``."""
    return _UNSAFE.sub("_", part) or "_"


def server_prefix(server: str) -> str:
    """``mcp__<server>__``: what every tool of ``server`` starts with."""
    return f"{PREFIX}{normalize(server)}__"


def tool_name(server: str, tool: str) -> str:
    """The hands name of ``tool`` on ``server``.

    Names longer than 64 characters are cut and end in a short hash of the full name,
    so two long names that share a beginning stay distinct.
    """
    name = server_prefix(server) + normalize(tool)
    if len(name) <= MAX_NAME:
        return name
    digest = hashlib.sha1(name.encode("utf-8")).hexdigest()[:8]
    return f"{name[: MAX_NAME - 9]}_{digest}"


def split_name(name: str) -> tuple[str, str] | None:
    """``mcp__server__tool`` → (normalized server, tool part), or None."""
    if not name.startswith(PREFIX):
        return None
    rest = name[len(PREFIX) :]
    server, sep, tool = rest.partition("__")
    if not sep or not server:
        return None
    return server, tool
