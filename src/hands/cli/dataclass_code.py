"""The compiled methods of dataclasses, kept between runs of the ``hands`` command.

Python's :mod:`dataclasses` writes the source of each class's ``__init__``, ``__repr__``,
``__eq__``, ``__hash__``, ``__setattr__`` and ``__delattr__`` and compiles it with
``exec``, one method at a time, every time the class is made: compiling is about 0.55 M
instructions a method, 3.3 M of the 4.7 M a frozen, slotted, keyword-only class of eight
fields costs, and the command makes some seventy classes before a Read runs.

The command keeps that code in ``<hands home>/cache/`` (:func:`cache_file`), keyed by the
exact source text, as Python keeps a module's byte code in ``__pycache__``: the same text
compiled by the same interpreter gives the same code, so every class is what it would be
without the cache; only the compiling is skipped. :func:`install` has ``dataclasses`` find
its ``exec`` here, a module global in front of the builtin; only the ``hands`` command
installs it, never an ``import hands``. A missing, unreadable or damaged file, or one
another Python version wrote, counts as empty; what a run compiles is added to the file
when its start-up is over (:func:`hands.cli.startup.done`, so a process stopped later
keeps it) and when it ends, written whole to a temporary file and then renamed.
"""

from __future__ import annotations

import atexit
import builtins
import contextlib
import dataclasses
import marshal
import os
import sys
from importlib.util import MAGIC_NUMBER
from pathlib import Path
from types import CodeType
from typing import Any

KEPT_SOURCES = 5_000
"""Sources kept in the file at most (every command's classes come to about 2,000, some
450 bytes each): past that, the file keeps only what the saving process used and compiled,
dropping the code of classes changed since."""


def cache_file(home: Path) -> Path:
    """Where the code is kept: one file per interpreter version and optimization level."""
    level = sys.flags.optimize
    tag = sys.implementation.cache_tag or "python"
    return home / "cache" / f"dataclass-code.{tag}{f'.opt-{level}' if level else ''}.marshal"


class CodeCache:
    """Compiled dataclass methods by their source text, read from and saved to ``path``."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.known = _load(path)
        self.compiled: dict[str, CodeType] = {}
        """What this process compiled since it last saved."""
        self.used: dict[str, CodeType] = {}
        """What this process took from the file."""

    def exec(
        self,
        source: object,
        globals: dict[str, Any] | None = None,
        locals: dict[str, Any] | None = None,
        /,
    ) -> None:
        """``exec`` as ``dataclasses`` calls it, with the code of a known source kept."""
        if globals is None:  # as ``exec`` does: the caller's namespaces
            caller = sys._getframe(1)  # pyright: ignore[reportPrivateUsage]
            globals, locals = caller.f_globals, caller.f_locals if locals is None else locals
        if not isinstance(source, str):
            builtins.exec(source, globals, locals)  # type: ignore[arg-type]
            return
        code = self.known.get(source)
        if isinstance(code, CodeType):
            self.used[source] = code
        else:
            code = self.compiled.get(source)
        if not isinstance(code, CodeType):
            # as ``exec`` compiles a string: no future flag of this module is inherited
            code = compile(source, "<string>", "exec", dont_inherit=True)
            self.compiled[source] = code
        builtins.exec(code, globals, locals)

    def save(self) -> None:
        """Add what this process compiled to the file; nothing when it cannot be written."""
        if not self.compiled:
            return
        kept = _load(self.path)  # with what other runs added since this one started
        if len(kept) + len(self.compiled) > KEPT_SOURCES:
            kept = self.used
        entries = {**kept, **self.compiled}
        temporary = self.path.with_name(f"{self.path.name}.{os.getpid()}.tmp")
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            temporary.write_bytes(marshal.dumps((MAGIC_NUMBER, entries)))
            temporary.replace(self.path)
        except OSError:
            with contextlib.suppress(OSError):
                temporary.unlink()
            return
        self.used.update(self.compiled)
        self.known, self.compiled = entries, {}


_installed: dict[str, CodeCache] = {}


def install(home: Path) -> CodeCache | None:
    """Have ``dataclasses`` keep its compiled methods under ``home``; None if already done."""
    if "exec" in vars(dataclasses):
        return None
    cache = CodeCache(cache_file(home))
    setattr(dataclasses, "exec", cache.exec)  # noqa: B010 (a module global, not a typed attribute)
    _installed["cache"] = cache
    atexit.register(cache.save)
    return cache


def save() -> None:
    """Add what the command compiled so far to the file (when :func:`install` ran)."""
    cache = _installed.get("cache")
    if cache is not None:
        cache.save()


def _load(path: Path) -> dict[str, CodeType]:
    try:
        loaded: object = marshal.loads(path.read_bytes())
    except (OSError, EOFError, ValueError, TypeError):
        return {}
    if not isinstance(loaded, tuple) or len(loaded) != 2:  # pyright: ignore[reportUnknownArgumentType]
        return {}
    magic, entries = loaded  # pyright: ignore[reportUnknownVariableType]
    if magic != MAGIC_NUMBER or not isinstance(entries, dict):
        return {}
    return entries  # pyright: ignore[reportUnknownVariableType]
