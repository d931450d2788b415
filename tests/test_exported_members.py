from __future__ import annotations

import subprocess
import sys
from types import ModuleType

import pytest

import hands
import hands.hooks
import hands.permissions


def public_members(module: ModuleType) -> set[str]:
    """Every public attribute the module offers, lazy ones included; submodules are not."""
    return {
        name
        for name in dir(module)
        if not name.startswith("_") and not isinstance(getattr(module, name), ModuleType)
    }


@pytest.mark.parametrize(
    "module", [hands, hands.permissions, hands.hooks], ids=lambda m: m.__name__
)
def test_all_is_exactly_the_public_names(module: ModuleType) -> None:
    assert module.__all__ == sorted(module.__all__)
    assert set(module.__all__) == public_members(module)


def test_a_tool_author_finds_everything_at_the_top() -> None:
    from hands.agent.events import ResultEvent
    from hands.core.decorator import tool
    from hands.core.tool import ReadOnlyTool

    assert hands.tool is tool
    assert hands.ReadOnlyTool is ReadOnlyTool
    assert hands.ResultEvent is ResultEvent
    assert hands.deny("no").behavior == "deny"


def test_import_hands_loads_nothing_but_itself() -> None:
    code = (
        "import sys; before = set(sys.modules); import hands; "
        "print(sorted(m for m in set(sys.modules) - before if m.startswith('hands')))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout
    assert out.strip() == "['hands', 'hands._lazy']"
