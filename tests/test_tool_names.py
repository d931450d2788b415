"""No module names a built-in tool but its own: everything else reads the declarations."""

from __future__ import annotations

import ast
from pathlib import Path

import hands
from hands.pipeline.pool import BUILTIN_TOOLS

SRC = Path(hands.__file__).parent
ALLOWED: dict[str, frozenset[str]] = {
    "pipeline/pool.py": frozenset(
        n for entry in BUILTIN_TOOLS for n in (entry.name, *entry.aliases)
    ),  # the registry: one line per built-in, so one can be loaded without the others
    "core/subject.py": frozenset({"Read", "Edit"}),  # the names of the two rule families
    # the rules the browser shares with WebFetch are written under WebFetch's name; the
    # browser may not import the web family, so the name is declared beside the rules
    "tools/web_rules.py": frozenset({"WebFetch"}),
}
"""Besides each tool's own module: where a built-in's name may be written, and which."""


def _own_modules() -> dict[str, frozenset[str]]:
    """Each tool's module, and the module of the base class that declares its name (the
    browser's navigation rules, which the request guard asks without the tool)."""
    own: dict[str, frozenset[str]] = {}
    for entry in BUILTIN_TOOLS:
        names = frozenset({entry.name, *entry.aliases})
        declaring = next(c for c in entry.tool_class().__mro__ if "name" in vars(c))
        for module in {entry.module, declaring.__module__}:
            path = module.removeprefix("hands.").replace(".", "/") + ".py"
            own[path] = own.get(path, frozenset()) | names
    return own


def _literals(path: Path) -> list[tuple[int, str]]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return [
        (node.lineno, node.value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant) and isinstance(node.value, str)
    ]


def test_built_in_tool_names_appear_only_where_they_are_declared() -> None:
    names = {n for entry in BUILTIN_TOOLS for n in (entry.name, *entry.aliases)}
    assert {"Read", "Edit", "Bash", "Grep", "KillShell"} <= names
    own = _own_modules()
    found: list[str] = []
    for path in sorted(SRC.rglob("*.py")):
        rel = path.relative_to(SRC).as_posix()
        allowed = own.get(rel, frozenset()) | ALLOWED.get(rel, frozenset())
        for line, value in _literals(path):
            if value in names and value not in allowed:
                found.append(f"{rel}:{line}: {value!r}")
    assert found == [], "\n".join(found)


def test_the_scan_sees_a_name_where_it_is_written(tmp_path: Path) -> None:
    sample = tmp_path / "sample.py"
    sample.write_text('"""Doc about Read."""\nTOOLS = {"Read", "Bash"}\n')
    assert [v for _, v in _literals(sample)] == ["Doc about Read.", "Read", "Bash"]
