"""``hands mcp serve``'s resources: the working directories' files, read-only.

Each file is a ``file://`` resource. ``resources/list`` pages through the files ripgrep
lists under the working directories (``.gitignore`` respected, ``.git`` left out);
``resources/read`` returns one file's bytes (text, or base64 when not UTF-8). Every
listed and every read file first passes the permission engine as a ``Read`` of that
path: a file a ``Read(...)`` deny rule covers, or that would need approval (nobody can
give it here), is neither listed nor read. ``resources/templates/list`` offers
``file:///{path}``, and ``completion/complete`` completes its ``path`` from the listing.
"""

from __future__ import annotations

import base64
import mimetypes
import os
import subprocess
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import unquote, urlparse

import anyio

if TYPE_CHECKING:
    from hands.core.context import ToolContext
    from hands.core.tool import Tool
    from hands.pipeline.runtime import ToolRuntime

PAGE_SIZE = 100
MAX_LISTED = 20_000
"""Files beyond this many (per listing) are not offered; they can still be read by URI."""
MAX_READ_BYTES = 10 * 1024 * 1024
MAX_COMPLETIONS = 100
FILE_TEMPLATE = "file:///{path}"
RG_ARGS = ("--no-config", "--files", "--null", "--hidden", "--glob", "!.git", "--", ".")
"""Every file (hidden ones too) but what ``.gitignore`` and friends leave out, and ``.git``."""
RESOURCE_NOT_FOUND = -32002
"""The error code the MCP specification gives an unknown resource."""


class ResourceRefused(Exception):
    """A read the server will not do; ``code`` is the JSON-RPC error code to answer with."""

    def __init__(self, code: int, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


@dataclass(frozen=True, kw_only=True, slots=True)
class FileEntry:
    """One listed file."""

    path: Path
    name: str
    """Its path relative to the working directory it is under."""
    size: int


@dataclass(frozen=True, kw_only=True, slots=True)
class FileContents:
    """One read file: ``text`` or ``blob`` (base64) is set."""

    uri: str
    mime_type: str
    text: str | None = None
    blob: str | None = None


@dataclass(kw_only=True)
class FileResources:
    """The files of the working directories of ``context``, gated by ``runtime.policy``."""

    runtime: ToolRuntime
    context: ToolContext

    def roots(self) -> tuple[Path, ...]:
        """The working directories: the cwd, then the added directories."""
        seen = dict.fromkeys(p.resolve() for p in (self.context.cwd, *self.context.additional_dirs))
        return tuple(seen)

    def _read_tool(self) -> Tool[Any, Any] | None:
        from hands.tools.file.read import ReadTool

        return next((t for t in self.runtime.tools if isinstance(t, ReadTool)), None)

    async def allowed(self, path: Path) -> bool:
        """Whether the permission engine lets a ``Read`` of ``path`` run without a prompt."""
        tool = self._read_tool()
        if tool is None:
            return False
        try:
            parsed = tool.input_model.model_validate({"file_path": str(path)})
            decision = await self.runtime.policy.decide(tool, parsed, self.context)
        except Exception:
            return False  # fail closed
        return decision.behavior == "allow"

    async def files(self) -> list[Path]:
        """Every file ripgrep lists under the working directories, sorted, at most MAX_LISTED."""
        return await anyio.to_thread.run_sync(self._files_now)

    def _files_now(self) -> list[Path]:
        from hands.tools.search import rg_path

        out: list[Path] = []
        for root in self.roots():
            try:
                done = subprocess.run(
                    [str(rg_path()), *RG_ARGS],
                    cwd=root,
                    capture_output=True,
                    timeout=30,
                    check=False,
                )
            except (OSError, subprocess.TimeoutExpired):
                continue
            names = sorted(n for n in done.stdout.split(b"\0") if n)
            out.extend(root / os.fsdecode(n).removeprefix("./") for n in names)
            if len(out) >= MAX_LISTED:
                break
        return out[:MAX_LISTED]

    async def page(self, cursor: str | None) -> tuple[list[FileEntry], str | None]:
        """One page of the listing from ``cursor``, and the next page's cursor."""
        start = _offset(cursor)
        everything = await self.files()
        chunk = everything[start : start + PAGE_SIZE]
        entries: list[FileEntry] = []
        for path in chunk:
            if not await self.allowed(path):
                continue
            try:
                size = path.stat().st_size
            except OSError:
                continue
            entries.append(FileEntry(path=path, name=self._name(path), size=size))
        end = start + len(chunk)
        return entries, (str(end) if end < len(everything) else None)

    def _name(self, path: Path) -> str:
        for root in self.roots():
            if path.is_relative_to(root):
                return str(path.relative_to(root))
        return str(path)

    async def read(self, uri: str) -> FileContents:
        """The contents of the file ``uri`` names; :class:`ResourceRefused` when it may not."""
        path = _path_of(uri)
        if not any(path.is_relative_to(root) for root in self.roots()):
            raise ResourceRefused(
                RESOURCE_NOT_FOUND,
                f"{uri} is outside the working directories this server offers "
                f"({', '.join(str(r) for r in self.roots())}).",
            )
        if not path.is_file():
            raise ResourceRefused(RESOURCE_NOT_FOUND, f"No file at {uri}.")
        if not await self.allowed(path):
            raise ResourceRefused(
                RESOURCE_NOT_FOUND,
                f"Reading {uri} is not allowed by this project's permission rules.",
            )
        size = path.stat().st_size
        if size > MAX_READ_BYTES:
            raise ResourceRefused(
                -32602,
                f"{uri} is {size:,} bytes, over the {MAX_READ_BYTES:,}-byte limit for a resource.",
            )
        data = await anyio.Path(path).read_bytes()
        guessed, _ = mimetypes.guess_type(path.name)
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError:
            blob = base64.b64encode(data).decode("ascii")
            mime = guessed or "application/octet-stream"
            return FileContents(uri=path.as_uri(), mime_type=mime, blob=blob)
        return FileContents(uri=path.as_uri(), mime_type=guessed or "text/plain", text=text)

    async def complete_path(self, prefix: str) -> tuple[list[str], int]:
        """Absolute paths of allowed listed files starting with ``prefix``, and how many match."""
        wanted = prefix.lstrip("/")
        matches = [p for p in await self.files() if str(p).lstrip("/").startswith(wanted)]
        values: list[str] = []
        for path in matches:
            if len(values) >= MAX_COMPLETIONS:
                break
            if await self.allowed(path):
                values.append(str(path).lstrip("/"))
        return values, len(matches)


def _offset(cursor: str | None) -> int:
    if cursor is None or cursor == "":
        return 0
    if not cursor.isdigit():
        raise ResourceRefused(-32602, f"Invalid cursor {cursor!r}: pass a nextCursor as given.")
    return int(cursor)


def _path_of(uri: str) -> Path:
    parsed = urlparse(uri)
    if parsed.scheme != "file" or parsed.netloc not in ("", "localhost"):
        raise ResourceRefused(
            RESOURCE_NOT_FOUND, f"Unknown resource {uri}: this server offers file:/// URIs only."
        )
    return Path(os.path.normpath(unquote(parsed.path))).resolve()
