"""``import hands`` never imports a framework; each adapter imports only its own."""

from __future__ import annotations

import subprocess
import sys

FRAMEWORKS = ("pydantic_ai", "agents", "langchain_core", "langgraph", "langchain")


def loaded_after(statement: str) -> set[str]:
    code = f"import sys\n{statement}\nprint(' '.join(sorted(sys.modules)))"
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout.split()
    return {name for name in FRAMEWORKS if name in out}


def test_hands_and_its_adapter_package_import_no_framework() -> None:
    assert loaded_after("import hands; hands.Session; import hands.adapters.toolbox") == set()


def test_each_adapter_imports_only_its_framework() -> None:
    assert loaded_after("import hands.adapters.pydantic_ai") == {"pydantic_ai"}
    assert loaded_after("import hands.adapters.openai_agents") == {"agents"}
    assert "pydantic_ai" not in loaded_after("import hands.adapters.langchain")
