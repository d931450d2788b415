"""ToolSearch on real MCP tools: schema tokens saved, latency, recall against baselines.

The catalogue (``data/mcp_tools.json``) holds real tool definitions gathered from public
MCP servers, each with the repository and file it came from. The requests
(``data/tool_search_requests.json``) are plain-language asks, each with the tool(s) that
serve it. Rankers compared:

- hands: :mod:`hands.discovery.ranking.ranking` (BM25F + hand-made lexicon and intent);
- bm25: plain Okapi BM25 (``rank-bm25``, ``pip install hands[bench]``) over the name
  words, description and parameter names of each tool;
- keywords: the name-part / hint / description keyword scoring of the reference CLI.

Each request has an ``origin``: "held-out" requests are copied verbatim from public
sources (servers' README example prompts, docs, tutorials, demo scripts, prompt and
agent files; each names its ``source``) and are never used to tune the ranker or
lexicon, so they are the evaluation; "dev" requests are also copied verbatim from public
sources, from other repositories, and are the ones the ranker is tuned on (``round`` 3
of them, gathered with the held-out set, is shown on its own); "written" requests were
written for this benchmark. Recall is reported for each origin and overall, beside the
baselines.

Run: ``python benchmarks/tool_search.py [--misses] [--origin dev,written] [--no-held-out]``.
``--misses`` lists the hands ranker's misses at 5 for the origins named by ``--origin``
(dev and written unless told otherwise); ``--no-held-out`` leaves the held-out requests
out of the table, for use while tuning.
"""

from __future__ import annotations

import json
import re
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from hands.discovery.deferral import CHARS_PER_TOKEN, DeferredEntry, reminder_text
from hands.discovery.ranking.ranking import SearchDoc, ToolIndex, doc_for, name_parts
from hands.discovery.tool_search import ToolSearchTool
from hands.mcp.naming import tool_name

DATA = Path(__file__).parent / "data"


def load() -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    tools = json.loads((DATA / "mcp_tools.json").read_text())["tools"]
    requests = json.loads((DATA / "tool_search_requests.json").read_text())["requests"]
    for tool in tools:
        tool["full_name"] = tool_name(tool["server"], tool["name"])
    return tools, requests


def docs_of(tools: Sequence[dict[str, Any]]) -> list[SearchDoc]:
    return [
        doc_for(t["full_name"], t["description"], t["inputSchema"], server=t["server"])
        for t in tools
    ]


Ranker = Callable[[str], list[str]]


def hands_ranker(docs: Sequence[SearchDoc]) -> Ranker:
    index = ToolIndex(docs)
    return lambda q: [r.name for r in index.search(q, 5)]


_TOKEN = re.compile(r"[a-z0-9]+")


def _tokens(text: str) -> list[str]:
    return _TOKEN.findall(text.lower())


def bm25_ranker(docs: Sequence[SearchDoc]) -> Ranker | None:
    try:
        from rank_bm25 import BM25Okapi  # pyright: ignore[reportMissingImports]
    except ImportError:
        return None
    corpus = [
        _tokens(
            " ".join([*name_parts(d.name)[1], d.server, d.description, *(p for p, _ in d.params)])
        )
        for d in docs
    ]
    bm25: Any = BM25Okapi(corpus)
    names = [d.name for d in docs]

    def rank(query: str) -> list[str]:
        scores = bm25.get_scores(_tokens(query))
        order = sorted(range(len(names)), key=lambda i: -scores[i])
        return [names[i] for i in order[:5] if scores[i] > 0]

    return rank


def keyword_ranker(docs: Sequence[SearchDoc]) -> Ranker:
    """Per term: name part exact +10 (+12 MCP), part substring +5 (+6), full-name
    substring +3, hint +4, description word +2; zero scores dropped."""
    prepared = [
        (
            d.name,
            [p.lower() for p in name_parts(d.name)[1]],
            d.is_mcp,
            d.hint.lower(),
            set(_tokens(d.description)),
        )
        for d in docs
    ]

    def rank(query: str) -> list[str]:
        terms = [t for t in _tokens(query) if len(t) > 1]
        scored: list[tuple[float, str]] = []
        for name, parts, mcp, hint, words in prepared:
            score = 0.0
            for term in terms:
                if term in parts:
                    score += 12 if mcp else 10
                elif any(term in p for p in parts):
                    score += 6 if mcp else 5
                elif term in name.lower():
                    score += 3
                if hint and term in hint:
                    score += 4
                if term in words:
                    score += 2
            if score > 0:
                scored.append((score, name))
        scored.sort(key=lambda s: (-s[0], s[1]))
        return [n for _, n in scored[:5]]

    return rank


def recall(ranker: Ranker, requests: Sequence[dict[str, Any]]) -> tuple[float, float, list[str]]:
    at1 = at5 = 0
    misses: list[str] = []
    for req in requests:
        got = ranker(req["request"])
        expected = set(req["expected"])
        if got[:1] and got[0] in expected:
            at1 += 1
        if expected & set(got[:5]):
            at5 += 1
        else:
            misses.append(
                f"  [{req['origin']}] {req['request']!r}: want {sorted(expected)}, got {got[:3]}"
            )
    n = max(1, len(requests))
    return at1 / n, at5 / n, misses


def main(argv: Sequence[str]) -> None:
    tools, requests = load()
    docs = docs_of(tools)
    servers = sorted({t["server"] for t in tools})
    sources = sorted({t["source"]["repository"] for t in tools})
    print(
        f"catalogue: {len(tools)} real MCP tools from {len(servers)} servers ({', '.join(servers)})"
    )
    print(f"sources: {', '.join(sources)}")
    origins = ["held-out", "dev", "written"]
    by_origin = {o: [r for r in requests if r["origin"] == o] for o in origins}
    held_out = by_origin["held-out"]
    held_sources = {_repository(r["source"]) for r in held_out}
    dev_sources = {_repository(r["source"]) for r in by_origin["dev"]}
    print(
        f"requests: {len(requests)} plain-language asks: {len(held_out)} held out from "
        f"{len(held_sources)} public repositories (never used for tuning), "
        f"{len(by_origin['dev'])} dev from {len(dev_sources)} others (used for tuning), "
        f"{len(by_origin['written'])} written\n"
    )

    full_chars = sum(
        len(
            json.dumps(
                {
                    "name": t["full_name"],
                    "description": t["description"],
                    "input_schema": t["inputSchema"],
                }
            )
        )
        for t in tools
    )
    entries = [DeferredEntry(name=d.name, hint=d.description) for d in docs]
    unbounded = reminder_text(entries, budget=10**9)
    listing = reminder_text(entries)
    search = len(json.dumps(ToolSearchTool.spec_for_size()))
    print("tokens (chars/4):")
    print(f"  full schemas of every tool             {full_chars // CHARS_PER_TOKEN:>8,}")
    print(f"  deferred listing, names + hints        {len(unbounded) // CHARS_PER_TOKEN:>8,}")
    print(
        f"  deferred listing, 8,000-char budget    {len(listing) // CHARS_PER_TOKEN:>8,}"
        "  (names only past the budget)"
    )
    print(f"  + the ToolSearch definition            {search // CHARS_PER_TOKEN:>8,}")
    saved = 1 - (len(unbounded) + search) / full_chars
    print(f"  saved (names + hints + ToolSearch)     {saved:>8.0%}\n")

    started = time.perf_counter()
    index = ToolIndex(docs)
    build_ms = (time.perf_counter() - started) * 1000
    timings: list[float] = []
    for _ in range(5):
        for req in requests:
            t0 = time.perf_counter()
            index.search(req["request"], 5)
            timings.append((time.perf_counter() - t0) * 1000)
    timings.sort()
    print(
        f"latency (hands ranker): index build {build_ms:.1f} ms; per query mean "
        f"{statistics.mean(timings):.2f} ms, p95 {timings[int(len(timings) * 0.95)]:.2f} ms, "
        f"max {timings[-1]:.2f} ms\n"
    )

    rankers: list[tuple[str, Ranker | None]] = [
        ("hands (BM25F + lexicon)", hands_ranker(docs)),
        ("plain BM25 (rank-bm25)", bm25_ranker(docs)),
        ("keyword scoring", keyword_ranker(docs)),
    ]
    shown_origins = [
        o for o in origins if by_origin[o] and not (o == "held-out" and "--no-held-out" in argv)
    ]
    if not held_out:
        print(
            "no held-out requests: every gathered round has been tuned on; gather a new "
            "round (see 'about' in the data) before reading these numbers as held-out\n"
        )
    groups = [(f"{o} (n={len(by_origin[o])})", by_origin[o]) for o in shown_origins]
    if len(shown_origins) > 1:
        groups.append((f"all (n={len(requests)})", requests))
    width = max(len(label) for label, _ in groups) + 2
    print(f"{'recall':<26}" + "".join(f"{label:>{width}}" for label, _ in groups))
    print(f"{'ranker':<26}" + f"{'@1':>{width - 8}}{'@5':>8}" * len(groups))
    for label, ranker in rankers:
        if ranker is None:
            print(f"{label:<26}  (not installed: pip install rank-bm25)")
            continue
        row = ""
        for _, group in groups:
            r1, r5, _ = recall(ranker, group)
            row += f"{r1:>{width - 8}.2f}{r5:>8.2f}"
        print(f"{label:<26}{row}")
    hands = rankers[0][1]
    assert hands is not None
    print("\nhands ranker by round gathered (dev rounds were tuned on; held-out never):")
    for number in sorted({r.get("round", 0) for r in requests if r.get("round")}):
        for origin in origins:
            group = [r for r in by_origin[origin] if r.get("round") == number]
            if group:
                r1, r5, _ = recall(hands, group)
                print(
                    f"  round {number:>2} {origin:<9} n={len(group):>3}  @1 {r1:.2f}  @5 {r5:.2f}"
                )
    if "--misses" in argv:
        wanted = _origins_arg(argv)
        shown = [r for r in requests if r["origin"] in wanted]
        _, _, misses = recall(rankers[0][1] or hands_ranker(docs), shown)
        print(f"\nhands ranker misses at 5 ({', '.join(sorted(wanted))}):")
        print("\n".join(misses) if misses else "  none")


def _repository(source: str) -> str:
    """The repository (or site) a request was copied from."""
    words = source.replace("https://", "").replace("github.com/", "").split()
    return "/".join(words[0].split("/")[:2]) if words else source


def _origins_arg(argv: Sequence[str]) -> set[str]:
    """The origins named by ``--origin a,b`` (dev and written when not given)."""
    for i, arg in enumerate(argv):
        if arg == "--origin" and i + 1 < len(argv):
            return {o.strip() for o in argv[i + 1].split(",") if o.strip()}
        if arg.startswith("--origin="):
            return {o.strip() for o in arg.split("=", 1)[1].split(",") if o.strip()}
    return {"dev", "written"}


if __name__ == "__main__":
    main(sys.argv[1:])
