"""The README's framework examples run as written."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from paths import REPO


def examples() -> list[str]:
    text = (REPO / "README.md").read_text()
    start = text.index("## Inside other agent frameworks")
    section = text[start : text.index("\n## ", start + 1)]
    return re.findall(r"```python\n(.*?)```", section, flags=re.DOTALL)


def test_there_is_one_example_per_framework() -> None:
    found = examples()
    assert len(found) == 3
    assert [("pydantic_ai" in e, "from agents " in e, "langchain" in e) for e in found] == [
        (True, False, False),
        (False, True, False),
        (False, False, True),
    ]


@pytest.mark.parametrize("index", [0, 1, 2], ids=["pydantic-ai", "openai-agents", "langchain"])
def test_the_example_runs_approves_the_ask_and_writes_the_file(index: int, tmp_path: Path) -> None:
    script = tmp_path / "example.py"
    script.write_text(examples()[index])
    project = tmp_path / "project"
    project.mkdir()
    run = subprocess.run(
        [sys.executable, str(script)], cwd=project, capture_output=True, text=True, timeout=90
    )
    assert run.returncode == 0, run.stderr
    assert run.stdout.split() == ["done", "hi"]
    assert (project / "hello.txt").read_text() == "hi\n"


def test_the_versions_the_readme_names_are_the_pins_and_what_is_installed() -> None:
    import tomllib
    from importlib.metadata import version

    from packaging.requirements import Requirement

    text = (REPO / "README.md").read_text()
    start = text.index("## Inside other agent frameworks")
    claim = " ".join(text[start : text.index("Every call goes", start)].split())
    extras = tomllib.loads((REPO / "pyproject.toml").read_text())["project"][
        "optional-dependencies"
    ]
    pins = [
        Requirement(r)
        for name in ("pydantic-ai", "openai-agents", "langchain")
        for r in extras[name]
    ]
    assert re.findall(r"`([a-z-]+~=[0-9.]+)`", claim) == [str(p) for p in pins]
    tested = dict(
        re.findall(r"([a-z-]+) ([0-9]+\.[0-9]+\.[0-9]+)", claim.split("last run with")[1])
    )
    assert list(tested) == [p.name for p in pins]
    for pin in pins:
        assert pin.specifier.contains(tested[pin.name]), pin
        assert tested[pin.name] == version(pin.name), f"{pin.name} installed: {version(pin.name)}"
