"""``python -m hands.cli.keep_code``: the classes' code kept beside the installed package.

Run once after installing (``make install`` does), as ``compileall`` writes a package's
byte code: it imports every module of hands' own (the framework adapters aside: only the
``hands`` command reads the kept code, and it never loads them) and every library those
modules import, at the top or inside a function (three aside: :data:`SKIPPED_LIBRARIES`),
runs one ``anyio.run`` (anyio loads its event loop's backend then), and writes the
compiled methods of every class made on the way to
:func:`hands.cli.dataclass_code.package_file`, anew. A command started afterwards in a
new hands home, even where it can write nowhere but its home, compiles none of them.

Prints nothing; a file that cannot be written is one line on standard error, exit 1.
With a path as its argument it writes that file instead (the file is only ever read
beside the package or in the hands home).
"""

from __future__ import annotations

import ast
import dataclasses
import importlib
import sys
from collections.abc import Iterator
from pathlib import Path

SKIPPED = ("hands.adapters", "hands.testing")
"""Modules the command never loads (and their submodules)."""

SKIPPED_LIBRARIES = ("anthropic", "openai", "ray")
"""Libraries the command loads only off its usual path (the Anthropic SDK for credentials
only it finds, an OpenAI model, the Ray batch engine), each seconds to import."""


def modules() -> Iterator[tuple[str, Path]]:
    """The name and file of every module of hands the command may load, packages first."""
    import hands

    root = Path(hands.__file__).parent
    for path in sorted(root.rglob("*.py")):
        parts = path.relative_to(root).with_suffix("").parts
        folders = [root.joinpath(*parts[:i]) for i in range(1, len(parts))]
        if not all((folder / "__init__.py").is_file() for folder in folders):
            continue  # not a module of the package (the demo's sample project)
        if parts[-1] == "__init__":
            parts = parts[:-1]
        name = ".".join(("hands", *parts))
        if parts[-1:] != ("__main__",) and not _within(name, SKIPPED):
            yield name, path


def libraries(files: list[Path]) -> list[str]:
    """The modules outside hands that ``files`` import anywhere, sorted."""
    names: set[str] = set()
    for path in files:
        for node in ast.walk(ast.parse(path.read_bytes(), str(path))):
            if isinstance(node, ast.Import):
                names.update(alias.name for alias in node.names)
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                names.add(node.module)
    return sorted(n for n in names if not _within(n, ("hands", *SKIPPED_LIBRARIES)))


def _within(name: str, packages: tuple[str, ...]) -> bool:
    return any(name == p or name.startswith(f"{p}.") for p in packages)


async def _nothing() -> None:
    pass


def main(argv: list[str]) -> int:
    """Fill the file beside the package, or the file ``argv[0]`` names."""
    from hands.cli.dataclass_code import CodeCache, package_file

    target = Path(argv[0]) if argv else package_file()
    try:
        target.unlink(missing_ok=True)  # written anew: nothing of classes since changed
    except OSError as exc:
        print(f"hands: cannot write {target}: {exc.strerror}", file=sys.stderr)
        return 1
    cache = CodeCache(target)
    setattr(dataclasses, "exec", cache.exec)  # noqa: B010 (as hands.cli.dataclass_code.install)
    found = dict(modules())
    for name in [*found, *libraries(list(found.values()))]:
        try:
            importlib.import_module(name)
        except ImportError:  # an extra that is not installed: the command cannot load it
            continue
    import anyio  # after the modules: its own classes are kept too

    anyio.run(_nothing)  # anyio loads its event loop's backend (and its streams) at a run
    if not cache.save():
        print(f"hands: cannot write {target}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
