"""``/init``: a starter instructions file from a look at the project, and ``/memory``."""

from __future__ import annotations

import json
import tomllib
from pathlib import Path
from typing import Any, cast

from hands.agent.system_prompt import instruction_files

MAX_SUMMARY_CHARS = 600
MAX_ENTRIES = 30

_BUILD_FILES: dict[str, str] = {
    "pyproject.toml": "Python project (pyproject.toml)",
    "setup.py": "Python project (setup.py)",
    "package.json": "JavaScript/TypeScript project (package.json)",
    "Cargo.toml": "Rust crate (Cargo.toml)",
    "go.mod": "Go module (go.mod)",
    "pom.xml": "Java project (Maven)",
    "build.gradle": "Java/Kotlin project (Gradle)",
    "Gemfile": "Ruby project (Gemfile)",
    "CMakeLists.txt": "C/C++ project (CMake)",
    "Makefile": "Makefile",
}


def init_target(cwd: Path) -> Path:
    """The file ``/init`` writes: ``AGENTS.md`` when the project uses one, else ``CLAUDE.md``."""
    agents = cwd / "AGENTS.md"
    return agents if agents.is_file() and not (cwd / "CLAUDE.md").is_file() else cwd / "CLAUDE.md"


def starter_instructions(cwd: Path) -> str:
    """A starter instructions file: what the project is, how to build and test it."""
    kinds = [what for name, what in _BUILD_FILES.items() if (cwd / name).is_file()]
    lines = [f"# {cwd.name}", ""]
    summary = _readme_summary(cwd)
    if summary:
        lines += [summary, ""]
    if kinds:
        lines += ["## Project", "", *(f"- {kind}" for kind in kinds), ""]
    commands = _commands(cwd)
    if commands:
        lines += ["## Commands", "", *(f"- `{cmd}`: {why}" for cmd, why in commands), ""]
    entries = _layout(cwd)
    if entries:
        lines += ["## Layout", "", *(f"- `{entry}`" for entry in entries), ""]
    lines += [
        "## Working here",
        "",
        "- Run the tests after a change, and keep them passing.",
        "- (Add the conventions an agent should follow in this project.)",
        "",
    ]
    return "\n".join(lines)


def memory_files(cwd: Path, home: Path | None = None) -> list[tuple[Path, int]]:
    """The instruction files the session reads, each with its size in characters."""
    return [(path, len(text)) for path, text in instruction_files(cwd, home)]


def _readme_summary(cwd: Path) -> str:
    for name in ("README.md", "README.rst", "README.txt", "README"):
        path = cwd / name
        if not path.is_file():
            continue
        try:
            text = path.read_text(encoding="utf-8", errors="replace")
        except OSError:
            return ""
        paragraph: list[str] = []
        for line in text.splitlines():
            stripped = line.strip()
            if not stripped:
                if paragraph:
                    break
                continue
            if stripped.startswith(("#", "=", "-", "[!", "<", "```", "![")):
                if paragraph:
                    break
                continue
            paragraph.append(stripped)
        return " ".join(paragraph)[:MAX_SUMMARY_CHARS]
    return ""


def _commands(cwd: Path) -> list[tuple[str, str]]:
    found: list[tuple[str, str]] = []
    makefile = cwd / "Makefile"
    if makefile.is_file():
        targets = _make_targets(makefile)
        for target in ("install", "build", "lint", "test"):
            if target in targets:
                found.append((f"make {target}", f"the Makefile's {target} target"))
    package = _json(cwd / "package.json")
    scripts = package.get("scripts") if package else None
    if isinstance(scripts, dict):
        for name in ("build", "lint", "test"):
            if name in scripts:
                found.append((f"npm run {name}", "a package.json script"))
    pyproject = _toml(cwd / "pyproject.toml")
    tool = cast(dict[str, Any], pyproject.get("tool", {})) if pyproject else {}
    if "pytest" in tool and not any(cmd.endswith("test") for cmd, _ in found):
        found.append(("pytest", "the tests (configured in pyproject.toml)"))
    if (cwd / "Cargo.toml").is_file():
        found += [("cargo build", "build"), ("cargo test", "the tests")]
    if (cwd / "go.mod").is_file():
        found += [("go build ./...", "build"), ("go test ./...", "the tests")]
    return found


def _make_targets(path: Path) -> set[str]:
    try:
        text = path.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return set()
    return {
        line.split(":", 1)[0].strip()
        for line in text.splitlines()
        if ":" in line and line[:1].isalpha() and "=" not in line.split(":", 1)[0]
    }


def _json(path: Path) -> dict[str, Any] | None:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return cast(dict[str, Any], data) if isinstance(data, dict) else None


def _toml(path: Path) -> dict[str, Any] | None:
    try:
        return tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None


def _layout(cwd: Path) -> list[str]:
    try:
        names = sorted(p.name + ("/" if p.is_dir() else "") for p in cwd.iterdir())
    except OSError:
        return []
    shown = [n for n in names if not n.startswith(".") and n not in ("node_modules/", "venv/")]
    return shown[:MAX_ENTRIES]
