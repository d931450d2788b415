"""Build two held-out ToolSearch sets from the Berkeley Function Calling Leaderboard (BFCL).

Reads the data BFCL ships on PyPI (``pip download --no-deps bfcl-eval==2026.3.23``; the
wheel holds ``bfcl_eval/data``) and writes, for each set, a tool catalogue and its requests:

- ``bfcl``: the expert-written categories (``simple_python``, ``multiple``,
  ``parallel_multiple``): ``data/bfcl_tools.json`` and ``data/bfcl_requests.json``.
- ``bfcl-live``: the user-contributed categories (``live_simple``, ``live_multiple``,
  ``live_parallel_multiple``): ``data/bfcl_live_tools.json``, ``data/bfcl_live_requests.json``.

A set's catalogue is every function its questions offer, pooled (one tool per name: the
first definition seen), on one server; a question is a request for the functions its
possible answer calls, one need per distinct function. BFCL gives each question only a few
functions to choose from; here each must be found among all of them.

Run: ``python benchmarks/build_bfcl.py WHEEL``.
"""

from __future__ import annotations

import json
import sys
import zipfile
from typing import Any

from hands.mcp.naming import tool_name
from heldout_split import split_of, write_source

PACKAGE = "bfcl-eval==2026.3.23 (PyPI), bfcl_eval/data"
SETS = {
    "bfcl": ("bfcl", ("simple_python", "multiple", "parallel_multiple")),
    "bfcl-live": ("bfcl_live", ("live_simple", "live_multiple", "live_parallel_multiple")),
}


def _lines(archive: zipfile.ZipFile, path: str) -> list[dict[str, Any]]:
    return [json.loads(line) for line in archive.read(path).decode().splitlines() if line.strip()]


def _schema(parameters: dict[str, Any]) -> dict[str, Any]:
    """BFCL's parameters as a JSON schema (its ``dict`` type is JSON's ``object``)."""
    return {**parameters, "type": "object"}


def _request_text(question: list[list[dict[str, Any]]]) -> str:
    """The user's words of the question's first turn."""
    return "\n".join(m["content"] for m in question[0] if m.get("role") == "user").strip()


def build(archive: zipfile.ZipFile, source: str, stem: str, categories: tuple[str, ...]) -> None:
    tools: dict[str, dict[str, Any]] = {}
    requests: list[dict[str, Any]] = []
    seen: set[str] = set()
    for category in categories:
        answers = {
            a["id"]: a
            for a in _lines(archive, f"bfcl_eval/data/possible_answer/BFCL_v4_{category}.json")
        }
        for item in _lines(archive, f"bfcl_eval/data/BFCL_v4_{category}.json"):
            for function in item["function"]:
                tools.setdefault(
                    function["name"],
                    {
                        "server": source,
                        "name": function["name"],
                        "description": function.get("description") or "",
                        "inputSchema": _schema(function.get("parameters") or {}),
                        "source": {"package": PACKAGE, "path": f"BFCL_v4_{category}.json"},
                    },
                )
            text = _request_text(item["question"])
            called = [name for call in answers[item["id"]]["ground_truth"] for name in call]
            needs = [[tool_name(source, name)] for name in dict.fromkeys(called)]
            if not text or not needs or text in seen:
                continue
            seen.add(text)
            requests.append(
                {
                    "request": text,
                    "needs": needs,
                    "kind": "single" if len(needs) == 1 else "multi",
                    "origin": "held-out",
                    "split": split_of(source, called[0]),
                    "source": f"{PACKAGE} BFCL_v4_{category}.json {item['id']}",
                }
            )
    about_tools = (
        f"Held-out tool catalogue '{source}' from BFCL ({PACKAGE}, categories "
        f"{', '.join(categories)}): every function their questions offer, pooled, one per name "
        "(the first definition seen), all on one server. No ranker was tuned on it."
    )
    about_requests = (
        f"Held-out ToolSearch requests '{source}' from BFCL ({PACKAGE}): each question of the "
        f"categories {', '.join(categories)} (the user's words of its first turn), copied "
        "verbatim. 'needs' has one list per distinct function its possible answer calls; 'kind' "
        "is 'single' for one and 'multi' for more. 'split' is 'validation' (may be looked at "
        "and fitted on) or 'test' (scored only), by a seeded hash of the request's first "
        "function (benchmarks/heldout_split.py). Metrics as for livemcpbench_requests.json."
    )
    write_source(stem, (about_tools, list(tools.values())), (about_requests, requests))


def main(wheel: str) -> None:
    with zipfile.ZipFile(wheel) as archive:
        for source, (stem, categories) in SETS.items():
            build(archive, source, stem, categories)


if __name__ == "__main__":
    if len(sys.argv) == 2:
        main(sys.argv[1])
    else:
        print(__doc__.strip().splitlines()[-1])
