"""Shapes in a request that its words alone do not say: web addresses, file paths, ids.

Each shape is replaced by the words tool definitions use for it (a tool that opens pages
takes a ``url``; one that reads files takes a ``path``; one that reads one thing takes an
``id``), keeping what the shape itself says about the tool (the site's name, the file's
type).
"""

from __future__ import annotations

import re

_URL = re.compile(
    r"\bhttps?://(?P<host>[\w.-]+)\S*|\bwww\.(?P<www>[\w.-]+)\S*"
    r"|\blocalhost(?::\d+)?(?:/\S*)?"
)
_EMAIL = re.compile(r"\b[\w.+-]+@[\w-]+(?:\.[\w-]+)+\b")
_PATH = re.compile(
    r"(?<![\w/.~-])(?P<root>~/|\.{1,2}/|/|[A-Za-z]:\\)?(?:[\w.-]+[/\\])+[\w.-]*"
    r"|\b[\w-]+\.[A-Za-z][A-Za-z0-9]{1,4}\b"
)
_REPOSITORY = re.compile(r"[\w-]+/[\w-]+")
"""``owner/repo``: one slash, no file type, nothing before it."""
_ID = re.compile(
    r"(?<![\w&])#\d+\b"  # a number: "#42"
    r"|\b[A-Z][A-Z0-9]+-\d+\b"  # a key: PROJ-123
    r"|\b(?=[\w-]*\d)(?=[\w-]*[a-zA-Z])[\w-]{6,}\b"  # an id or hash: abc123f
)
_HOST_WORDS = re.compile(r"\b(?:www|com|org|net|io|dev|html?)\b")


def _url(match: re.Match[str]) -> str:
    host = match.group("host") or match.group("www") or ""
    return f" url {_HOST_WORDS.sub(' ', host.replace('.', ' '))} "


def _path(match: re.Match[str]) -> str:
    path = match.group(0)
    if _REPOSITORY.fullmatch(path) and not match.group("root"):
        return f" repository {path.replace('/', ' ')} "
    name = re.split(r"[/\\]", path)[-1]
    kind = name.rsplit(".", 1)[-1] if "." in name.strip(".") else "directory"
    return f" file path {kind} "


def rewrite_cues(text: str) -> str:
    """``text`` with its addresses, e-mail addresses, paths and ids as the words tools use.

    "screenshot https://example.com/a" -> "screenshot url example"; "read ~/notes/todo.md"
    -> "read file path md"; "close issue #42" -> "close issue id".
    """
    text = _URL.sub(_url, text)
    text = _EMAIL.sub(" email address ", text)
    text = _PATH.sub(_path, text)
    return _ID.sub(" id ", text)
