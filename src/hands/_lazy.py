"""Lazy exports: a package's public names imported from their homes on first use."""

import importlib
import sys
from collections.abc import Callable, Mapping
from typing import Any


def exports(
    package: str, homes: Mapping[str, str]
) -> tuple[Callable[[str], Any], Callable[[], list[str]]]:
    """The module ``__getattr__`` and ``__dir__`` of ``package``.

    ``homes`` maps each lazy name to the module that defines it (absolute, or relative to
    ``package`` with a leading dot). A name is imported when first read, then cached on
    the package, so later reads cost nothing.
    """

    def __getattr__(name: str) -> Any:
        home = homes.get(name)
        if home is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        value = getattr(importlib.import_module(home, package), name)
        setattr(sys.modules[package], name, value)
        return value

    def __dir__() -> list[str]:
        return sorted({*vars(sys.modules[package]), *homes})

    return __getattr__, __dir__
