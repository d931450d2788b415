"""The browser family's modules import each other without a cycle, and the request guard
decides a navigation by the same rules as Browser_navigate itself."""

from __future__ import annotations

from pathlib import Path

import grimp
import pytest

from hands.core.context import ToolContext
from hands.core.tool import Tool
from hands.tools.browser._navigation import BrowserNavigateInput, NavigationRules, decide_url
from hands.tools.browser._session import BrowserSession
from hands.tools.browser.browser_navigate import BrowserNavigateTool
from support import project_rules_engine

FAMILY = "hands.tools.browser"


def _cycles(edges: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected groups of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        for w in sorted(edges[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group: list[str] = []
            while True:
                w = stack.pop()
                group.append(w)
                if w == v:
                    break
            if len(group) > 1:
                found.append(sorted(group))

    for v in sorted(edges):
        if v not in index:
            visit(v)
    return found


def test_the_cycle_finder_finds_a_cycle() -> None:
    edges = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert _cycles(edges) == [["a", "b", "c"]]
    assert _cycles({"a": {"b"}, "b": set()}) == []


@pytest.mark.parametrize("type_only", [False, True], ids=["run-time", "with-type-only"])
def test_the_browser_family_imports_without_a_cycle(type_only: bool) -> None:
    """Imports at run time, module-level and inside functions, and with ``type_only`` the
    type checker's too (``if TYPE_CHECKING:``): the parts that read the session's browser
    name it through ``_contract``, a leaf, not through ``_session``."""
    graph = grimp.build_graph("hands", exclude_type_checking_imports=not type_only, cache_dir=None)
    modules = {m for m in graph.modules if m == FAMILY or m.startswith(FAMILY + ".")}
    assert f"{FAMILY}._guard" in modules and f"{FAMILY}.browser_navigate" in modules
    edges = {m: graph.find_modules_directly_imported_by(m) & modules for m in modules}
    if type_only:  # the graph has the type-only edges: the session's module imports the proxy's
        assert f"{FAMILY}._redirects" in edges[f"{FAMILY}._session"]
    assert _cycles(edges) == []
    contract = graph.find_modules_directly_imported_by(f"{FAMILY}._contract") & modules
    assert contract <= {f"{FAMILY}._settings"}  # a leaf of the family


def test_the_tool_is_its_rules_plus_the_browser() -> None:
    tool = BrowserNavigateTool()
    assert isinstance(tool, NavigationRules)
    rules: Tool[BrowserNavigateInput, object] = NavigationRules()
    assert (tool.name, tool.aliases, tool.input_model, tool.subject) == (
        rules.name,
        rules.aliases,
        rules.input_model,
        rules.subject,
    )
    # what the browser base adds is not about permissions: nothing there to drift
    permission_methods = (
        "permission_subject",
        "check_permissions",
        "is_read_only",
        "validate_input",
    )
    for method in permission_methods:
        assert getattr(BrowserNavigateTool, method) is getattr(NavigationRules, method), method
    assert BrowserNavigateTool.should_defer and BrowserNavigateTool.session_states == (
        BrowserSession,
    )


@pytest.mark.anyio
@pytest.mark.parametrize(
    ("url", "behavior"),
    [
        ("https://docs.example.com/a", "allow"),
        ("https://ads.example.net/x", "deny"),
        ("https://other.example.org/", "ask"),
    ],
)
async def test_the_guard_decides_a_url_as_a_navigate_call_would(
    tmp_path: Path, url: str, behavior: str
) -> None:
    engine = project_rules_engine(
        tmp_path,
        tmp_path / "home",
        allow=["WebFetch(domain:docs.example.com)"],
        deny=["Browser_navigate(domain:ads.example.net)"],
    )
    ctx = ToolContext(cwd=tmp_path, policy=engine)
    tool_says = await engine.decide(BrowserNavigateTool(), BrowserNavigateInput(url=url), ctx)
    assert tool_says.behavior == behavior
    assert await decide_url(url, ctx) == behavior
