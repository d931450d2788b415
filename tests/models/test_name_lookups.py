"""What a model is (its provider, window, price, abilities, how it is shown) is asked of
the model object; no module outside ``hands.models`` looks a model up by its name."""

from __future__ import annotations

import ast
import re
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
PACKAGE = REPO / "src" / "hands"
MODELS = PACKAGE / "models"

PROVIDERS = frozenset({"anthropic", "openai", "scripted"})
_MODEL_ID = re.compile(r"(claude|gpt|chatgpt|codex|gemini|o\d)(-|$)", re.IGNORECASE)
LOOKUPS = frozenset(
    {
        "ALIASES",
        "WINDOWS",
        "api_key_source",
        "capabilities",
        "context_window",
        "estimate_cost",
        "family_model",
        "model_id",
        "price_for",
        "provider_of",
        "request_cost",
        "window_override",
    }
)
"""``hands.models``' name-keyed tables and the functions that read them."""
_AFFIXES = frozenset({"startswith", "endswith", "removeprefix", "removesuffix"})
_SPLITS = frozenset({"partition", "rpartition", "split", "rsplit"})

ALLOWED = {
    # the search backend the user names anthropic (HANDS_WEBSEARCH_BACKEND=anthropic), not a
    # provider: whether the session's model has that search is asked of its facts
    "hands/tools/web/_choice.py": {'"anthropic"'},
}
"""What the scan finds that is not a model looked up by its name: file → what (no line)."""


def _names_a_model(node: ast.expr) -> str | None:
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        text = node.value
        if text.lower().removesuffix(":") in PROVIDERS or _MODEL_ID.match(text):
            return text
    if isinstance(node, (ast.Tuple, ast.List, ast.Set)):
        return next((f for e in node.elts if (f := _names_a_model(e)) is not None), None)
    return None


def _splits_a_name(node: ast.AST) -> bool:
    """``x.name.partition(":")`` and the like: a model's provider read off its name."""
    return (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr in _SPLITS
        and isinstance(node.func.value, ast.Attribute)
        and node.func.value.attr == "name"
        and any(isinstance(a, ast.Constant) and a.value == ":" for a in node.args)
    )


def name_lookups(source: str) -> list[str]:
    """Where ``source`` compares, indexes or tabulates a provider or model name, or imports
    one of :data:`LOOKUPS`: ``"LINE: what"``."""
    found: list[str] = []

    def hit(node: ast.AST, what: str) -> None:
        found.append(f"{getattr(node, 'lineno', 0)}: {what}")

    for node in ast.walk(ast.parse(source)):
        named: list[ast.expr] = []
        if isinstance(node, ast.Compare):
            named = [node.left, *node.comparators]
        elif isinstance(node, ast.Subscript):
            named = [node.slice]
        elif isinstance(node, ast.Dict):
            named = [k for k in node.keys if k is not None] + list(node.values)
        elif (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr in _AFFIXES
        ):
            named = list(node.args)
        if _splits_a_name(node):
            hit(node, "splits a name at its provider")
        if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("hands.models"):
            for alias in node.names:
                if alias.name in LOOKUPS:
                    hit(node, f"imports {alias.name}")
        for expr in named:
            text = _names_a_model(expr)
            if text is not None:
                hit(expr, repr(text).replace("'", '"'))
    return sorted(found, key=lambda f: int(f.partition(":")[0]))


def test_the_scan_finds_each_shape_of_name_lookup() -> None:
    source = """
from hands.models.catalog import capabilities, DEFAULT_WINDOW
from hands.models.cost import model_id
if provider == "anthropic":
    pass
ok = name.partition(":")[0] in ("openai", "scripted")
table = ALIASES["anthropic"]
KEYS = {"anthropic": ("ANTHROPIC_API_KEY",)}
ALIAS = {"opus": "claude-opus-4-1"}
placed = name.startswith("anthropic:") or name.lower().startswith("claude")
fine = facts.provider and facts.capabilities.bare_ids
print("anthropic", "claude-opus-4-1")
hint = setup.model.name.partition(":")[0]
"""
    assert name_lookups(source) == [
        "2: imports capabilities",
        "3: imports model_id",
        '4: "anthropic"',
        '6: "openai"',
        '7: "anthropic"',
        '8: "anthropic"',
        '9: "claude-opus-4-1"',
        '10: "anthropic:"',
        '10: "claude"',
        "13: splits a name at its provider",
    ]


def test_no_module_outside_models_looks_a_model_up_by_its_name() -> None:
    found = {
        str(path.relative_to(PACKAGE.parent)): lookups
        for path in sorted(PACKAGE.rglob("*.py"))
        if MODELS not in path.parents and (lookups := name_lookups(path.read_text()))
    }
    what = {path: {hit.partition(": ")[2] for hit in hits} for path, hits in found.items()}
    assert what == ALLOWED, "ask the model object (hands.models.facts.facts_of): " + repr(found)
