"""The compiled methods of dataclasses, kept between runs of the ``hands`` command.

Python's :mod:`dataclasses` writes the source of each class's ``__init__``, ``__repr__``,
``__eq__``, ``__hash__``, ``__setattr__`` and ``__delattr__`` and compiles it with
``exec``, one method at a time, every time the class is made: compiling is about 0.55 M
instructions a method, 3.3 M of the 4.7 M a frozen, slotted, keyword-only class of eight
fields costs, and the command makes some seventy classes before a Read runs.

The command keeps that code by the exact source text, as Python keeps a module's byte
code in ``__pycache__``: the same text compiled by the same interpreter gives the same
code, so every class is what it would be without the kept code; only the compiling is
skipped. :func:`install` has ``dataclasses`` find its ``exec`` here, a module global in
front of the builtin; only the ``hands`` command installs it, never an ``import hands``.

Two places, read in this order:

1. beside the installed package (:func:`package_file`, in this module's own
   ``__pycache__``), filled when hands is installed (``python -m hands.cli.keep_code``),
   so that a first start in a new hands home (a CI runner, a ``hands batch`` worker, a
   new user) finds it;
2. the user's hands home (:func:`cache_file`), read only when a source is not in the
   first.

What a run compiles is added beside the package when Python may write byte code there
(the folder is writable and ``PYTHONDONTWRITEBYTECODE`` is not set), else to the home;
when its start-up is over (:func:`hands.cli.startup.done`, so a process stopped later
keeps it) and when it ends, written whole to a temporary file and then renamed. Each
entry is kept marshalled and made into code only when its class is made, so reading the
file (some 2,300 sources, 2.7 MB beside the package) costs little more than reading its
bytes. A missing, unreadable or damaged file, or one another Python version wrote, counts
as empty; so does a damaged entry.

The file holds code that is executed, so it is only ever read from those two places:
the folder the package's own modules were imported from (whoever can write there can
change its ``.py`` and ``__pycache__`` as well) and the user's hands home. Never from the
working directory or a project's folder.
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


def file_name() -> str:
    """The file's name: one per interpreter version and optimization level."""
    level = sys.flags.optimize
    tag = sys.implementation.cache_tag or "python"
    return f"dataclass-code.{tag}{f'.opt-{level}' if level else ''}.marshal"


def cache_file(home: Path) -> Path:
    """Where the code is kept in the hands home ``home``."""
    return home / "cache" / file_name()


def package_file() -> Path:
    """Where the code is kept beside the installed package: this module's ``__pycache__``."""
    return Path(__file__).parent / "__pycache__" / file_name()


class CodeCache:
    """Compiled dataclass methods by their source text.

    ``path`` is read first; each of ``fallbacks`` is read, in order, the first time a
    source is in none read so far. :meth:`save` adds what was compiled to the first of
    ``writes`` (by default ``path``) that can be written.
    """

    def __init__(
        self, path: Path, *, fallbacks: tuple[Path, ...] = (), writes: tuple[Path, ...] = ()
    ) -> None:
        self.path = path
        self.known = _load(path)
        """Each source's code as read: marshalled, made into code at its first use."""
        self.fallbacks = list(fallbacks)
        """The files not read yet."""
        self.writes = writes or (path,)
        self.compiled: dict[str, CodeType] = {}
        """What this process compiled since it last saved."""
        self.used: dict[str, CodeType] = {}
        """What this process took from the files."""

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
        code = self._known(source)
        if isinstance(code, CodeType):
            self.used[source] = code
        else:
            code = self.compiled.get(source)
        if not isinstance(code, CodeType):
            # as ``exec`` compiles a string: no future flag of this module is inherited
            code = compile(source, "<string>", "exec", dont_inherit=True)
            self.compiled[source] = code
        builtins.exec(code, globals, locals)

    def _known(self, source: str) -> object:
        code = self.known.get(source)
        while code is None and self.fallbacks:
            # the next place is read at the first source the ones before did not have
            self.known = {**_load(self.fallbacks.pop(0)), **self.known}
            code = self.known.get(source)
        if isinstance(code, bytes):
            try:
                code = marshal.loads(code)
            except (EOFError, ValueError, TypeError):
                return None  # damaged: compiled again
        return code

    def save(self) -> bool:
        """Add what this process compiled to the first file it can write: False if none."""
        if not self.compiled:
            return True
        for path in self.writes:
            if self._save_to(path):
                self.used.update(self.compiled)
                self.compiled = {}
                return True
        return False

    def _save_to(self, path: Path) -> bool:
        kept = _load(path)  # with what other runs added since this one started
        if len(kept) + len(self.compiled) > KEPT_SOURCES:
            kept = _marshalled(self.used)
        entries = {**kept, **_marshalled(self.compiled)}
        temporary = path.with_name(f"{path.name}.{os.getpid()}.tmp")
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            temporary.write_bytes(marshal.dumps((MAGIC_NUMBER, entries)))
            temporary.replace(path)
        except OSError:
            with contextlib.suppress(OSError):
                temporary.unlink()
            return False
        self.known = {**self.known, **entries}
        return True


_installed: dict[str, CodeCache] = {}


def install(home: Path, *, package: Path | None = None) -> CodeCache | None:
    """Have ``dataclasses`` keep its compiled methods; None if already done.

    Read from ``package`` (by default :func:`package_file`), then from the hands home
    ``home``; written beside the package when Python may write byte code there, else to
    the home (see the module's docstring).
    """
    if "exec" in vars(dataclasses):
        return None
    beside = package_file() if package is None else package
    in_home = cache_file(home)
    writes = (in_home,) if sys.dont_write_bytecode else (beside, in_home)
    cache = CodeCache(beside, fallbacks=(in_home,), writes=writes)
    setattr(dataclasses, "exec", cache.exec)  # noqa: B010 (a module global, not a typed attribute)
    _installed["cache"] = cache
    atexit.register(cache.save)
    return cache


def save() -> None:
    """Add what the command compiled so far to the file (when :func:`install` ran)."""
    cache = _installed.get("cache")
    if cache is not None:
        cache.save()


def _marshalled(codes: dict[str, CodeType]) -> dict[str, object]:
    return {source: marshal.dumps(code) for source, code in codes.items()}


def _load(path: Path) -> dict[str, object]:
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
