"""ToolSearch on real MCP tools: tokens saved, recall on training and held-out requests, latency.

Splits, each with its own tool catalogue:

- training: the project's catalogue (``data/mcp_tools.json``) and all its requests
  (``data/tool_search_requests.json``; every round of them has been looked at, so all are
  training data now). Each lists the tools any one of which serves it: single-need. Its
  multi-need requests are made from them: 400 pairs of single-clause requests joined as one
  ("A, then B"; "A; B"...), each half a need (seeded, the same every run).
- held-out, one per source, each with its own catalogue: LiveMCPBench's MCP tools and
  tasks (``data/livemcpbench_*.json``, built by ``build_livemcpbench.py``), and BFCL's
  expert-written and user-contributed function-calling questions (``data/bfcl_*.json`` and
  ``data/bfcl_live_*.json``, built by ``build_bfcl.py``). Each request lists its needs; it
  is single-need (one tool serves it) or multi-need (two or more tools). Each source's
  requests are split, by server or function, into a validation part and a test part
  (``heldout_split.py``; the ``split`` of each request in the data files).
  ``benchmarks/fit_tool_search.py`` fits the ranker's weights on the training split and
  the validation parts; the test parts are only scored.

Metrics: single-need recall@k is the share of single-need requests with any tool of the
need in the top k; multi-need recall@5 is the mean over multi-need requests of the share of
their needs with a tool in the top 5 (one search per request, ``max_results`` 5).

Rankers side by side: hands (this tree's :mod:`hands.discovery.ranking.ranking`); hands with
each request ranked once, not once per need (an ablation); plain
``bm25s`` over one flat field (name words, server, description, parameters) with its own
tokenizer, Snowball stemmer and English stop words; and the ranker this one replaced, run
from commit ``f40aeeb`` in a subprocess (``git archive``; shown when git has that commit).
Latency is the median per query on 760 tools (the project's catalogue and LiveMCPBench's
together), over every request scored.

Run: ``python benchmarks/tool_search.py [--no-old] [--training] [--test]``
(``--training``: that split alone; ``--test``: the held-out test parts instead of the
validation parts: score them only once per final design, and never tune on them).
"""

from __future__ import annotations

import json
import os
import random
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from io import BytesIO
from pathlib import Path
from typing import Any

from hands.discovery.deferral import CHARS_PER_TOKEN, DeferredEntry, reminder_text
from hands.discovery.ranking.ranking import SearchDoc, ToolIndex, doc_for, name_parts
from hands.discovery.tool_search import ToolSearchTool
from hands.mcp.naming import tool_name

DATA = Path(__file__).parent / "data"
OLD_COMMIT = "f40aeeb"
K = 5
PAIRS = 400
JOINS = (", then ", " and then ", "; ", ". Then ", "\n- ")
SEED = 20261201


@dataclass(frozen=True, kw_only=True, slots=True)
class Request:
    """One request and what it needs: one set of serving tools per need."""

    text: str
    needs: tuple[frozenset[str], ...]
    source: str = ""

    @property
    def single(self) -> bool:
        """Whether one tool serves the request."""
        return len(self.needs) == 1


@dataclass(frozen=True, kw_only=True, slots=True)
class Split:
    """A catalogue and the requests asked of it."""

    name: str
    tools: list[dict[str, Any]]
    requests: list[Request]


def load_tools(path: Path) -> list[dict[str, Any]]:
    """The tools of a catalogue file, each with its ``mcp__server__tool`` name."""
    tools: list[dict[str, Any]] = json.loads(path.read_text())["tools"]
    for tool in tools:
        tool["full_name"] = tool_name(tool["server"], tool["name"])
    return tools


def training() -> Split:
    """The project's catalogue and requests: every one single-need."""
    raw = json.loads((DATA / "tool_search_requests.json").read_text())["requests"]
    requests = [
        Request(text=r["request"], needs=(frozenset(r["expected"]),), source=r["source"])
        for r in raw
    ]
    return Split(name="training", tools=load_tools(DATA / "mcp_tools.json"), requests=requests)


HELD_OUT = (("livemcpbench", "livemcpbench"), ("bfcl", "bfcl"), ("bfcl-live", "bfcl_live"))
"""The held-out sources: (name, stem of their ``data/STEM_tools.json`` and ``_requests.json``)."""


def held_out(part: str = "validation") -> list[Split]:
    """Each held-out source's catalogue and its requests of ``part`` (validation or test)."""
    out: list[Split] = []
    for source, stem in HELD_OUT:
        raw = json.loads((DATA / f"{stem}_requests.json").read_text())["requests"]
        requests = [
            Request(
                text=r["request"], needs=tuple(frozenset(n) for n in r["needs"]), source=r["source"]
            )
            for r in raw
            if r["split"] == part
        ]
        tools = load_tools(DATA / f"{stem}_tools.json")
        out.append(Split(name=f"{source} {part}", tools=tools, requests=requests))
    return out


def two_need_requests(requests: Sequence[Request], index: ToolIndex) -> list[Request]:
    """Multi-need requests made of two single-clause training requests."""
    rng = random.Random(SEED)
    plain = [r for r in requests if len(index.needs(r.text)) == 1]
    out: list[Request] = []
    while len(out) < PAIRS:
        first, second = rng.sample(plain, 2)
        if first.needs[0] & second.needs[0]:
            continue
        text = first.text.rstrip(" .?!") + rng.choice(JOINS) + second.text
        out.append(Request(text=text, needs=(first.needs[0], second.needs[0])))
    return out


def docs_of(tools: Sequence[dict[str, Any]]) -> list[SearchDoc]:
    return [
        doc_for(t["full_name"], t["description"], t["inputSchema"], server=t["server"])
        for t in tools
    ]


Ranker = Callable[[str], list[str]]


def hands_ranker(tools: Sequence[dict[str, Any]]) -> Ranker:
    index = ToolIndex(docs_of(tools))
    return lambda q: [r.name for r in index.search(q, K)]


def one_ranking(tools: Sequence[dict[str, Any]]) -> Ranker:
    """hands without needs: the whole request ranked once (an ablation)."""
    index = ToolIndex(docs_of(tools))
    return lambda q: [r.name for r in index.scores(q)[:K]]


def bm25s_ranker(tools: Sequence[dict[str, Any]]) -> Ranker:
    """Plain bm25s over one flat field per tool, its own tokenizer, stemmer, stop words."""
    import bm25s
    import Stemmer

    stemmer = Stemmer.Stemmer("english")
    docs = docs_of(tools)
    corpus = [
        " ".join(
            [*name_parts(d.name)[1], d.server, d.description, *(f"{p} {t}" for p, t in d.params)]
        )
        for d in docs
    ]

    def tokens(texts: list[str]) -> list[list[str]]:
        return bm25s.tokenize(
            texts, stopwords="en", stemmer=stemmer, return_ids=False, show_progress=False
        )

    index = bm25s.BM25()
    index.index(tokens(corpus), show_progress=False)
    names = [d.name for d in docs]

    def rank(query: str) -> list[str]:
        scores = index.get_scores(tokens([query])[0])
        order = sorted(range(len(names)), key=lambda i: (-scores[i], names[i]))
        return [names[i] for i in order[:K] if scores[i] > 0]

    return rank


def score(rankings: Sequence[Sequence[str]], requests: Sequence[Request]) -> dict[str, float]:
    """Single-need recall@1 and @5, multi-need recall@5 (share of needs found), and counts."""
    single = [(got, r) for got, r in zip(rankings, requests, strict=True) if r.single]
    multi = [(got, r) for got, r in zip(rankings, requests, strict=True) if not r.single]
    at1 = sum(1 for got, r in single if set(got[:1]) & r.needs[0])
    at5 = sum(1 for got, r in single if set(got[:K]) & r.needs[0])
    found = [sum(1 for need in r.needs if set(got[:K]) & need) / len(r.needs) for got, r in multi]
    return {
        "n_single": len(single),
        "single@1": at1 / max(1, len(single)),
        "single@5": at5 / max(1, len(single)),
        "n_multi": len(multi),
        "multi@5": statistics.mean(found) if found else float("nan"),
    }


def timed(ranker: Ranker, queries: Sequence[str]) -> tuple[list[list[str]], float]:
    """The rankings of ``queries`` and the median milliseconds per query."""
    out: list[list[str]] = []
    times: list[float] = []
    for query in queries:
        started = time.perf_counter()
        out.append(ranker(query))
        times.append((time.perf_counter() - started) * 1000)
    return out, statistics.median(times)


# runs inside an export of the old tree (f40aeeb), where the ranker lived in hands.tools.discovery
_OLD_RUNNER = """
import json, sys, time, statistics
from hands.tools.discovery.ranking import ToolIndex, doc_for
job = json.load(sys.stdin)
out = {}
for key, (tools, queries) in job.items():
    index = ToolIndex([doc_for(t["full_name"], t["description"], t["inputSchema"],
                               server=t["server"]) for t in tools])
    rankings, times = [], []
    for q in queries:
        t0 = time.perf_counter()
        rankings.append([r.name for r in index.search(q, 5)])
        times.append((time.perf_counter() - t0) * 1000)
    out[key] = {"rankings": rankings, "median_ms": statistics.median(times)}
json.dump(out, sys.stdout)
"""


def old_ranker(job: dict[str, tuple[list[dict[str, Any]], list[str]]]) -> dict[str, Any] | None:
    """Rankings and median latency of the ranker at ``OLD_COMMIT``, or None without it."""
    root = Path(__file__).resolve().parent.parent
    try:
        archive = subprocess.run(
            ["git", "archive", OLD_COMMIT, "src"], cwd=root, capture_output=True, check=True
        ).stdout
    except (OSError, subprocess.CalledProcessError):
        return None
    with tempfile.TemporaryDirectory() as tmp:
        with tarfile.open(fileobj=BytesIO(archive)) as tar:
            tar.extractall(tmp, filter="data")
        env = {**os.environ, "PYTHONPATH": str(Path(tmp) / "src")}
        done = subprocess.run(
            [sys.executable, "-c", _OLD_RUNNER],
            input=json.dumps(job),
            capture_output=True,
            text=True,
            env=env,
            check=False,
        )
    if done.returncode != 0:
        print(f"old ranker failed: {done.stderr.strip().splitlines()[-1:]}")
        return None
    return json.loads(done.stdout)


def print_tokens(tools: Sequence[dict[str, Any]]) -> None:
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
    entries = [DeferredEntry(name=t["full_name"], hint=t["description"]) for t in tools]
    unbounded = reminder_text(entries, budget=10**9)
    search = len(json.dumps(ToolSearchTool.spec_for_size()))
    saved = 1 - (len(unbounded) + search) / full_chars
    print(
        f"tokens (chars/4) for {len(tools)} tools: full schemas {full_chars // CHARS_PER_TOKEN:,}; "
        f"deferred names + hints + ToolSearch {(len(unbounded) + search) // CHARS_PER_TOKEN:,} "
        f"({saved:.0%} saved)\n"
    )


def main(argv: Sequence[str]) -> None:
    train = training()
    made = two_need_requests(train.requests, ToolIndex(docs_of(train.tools)))
    train = Split(name=train.name, tools=train.tools, requests=[*train.requests, *made])
    part = "test" if "--test" in argv else "validation"
    splits = [train] if "--training" in argv else [train, *held_out(part)]
    latency_tools = [*train.tools, *load_tools(DATA / "livemcpbench_tools.json")]
    print_tokens(train.tools)
    for split in splits:
        kinds = sum(1 for r in split.requests if r.single)
        print(
            f"{split.name}: {len(split.tools)} tools, {len(split.requests)} requests "
            f"({kinds} single-need, {len(split.requests) - kinds} multi-need)"
        )
    latency_queries = [r.text for s in splits for r in s.requests]
    rows: dict[str, dict[str, Any]] = {}
    makers = (("hands", hands_ranker), ("hands, no needs", one_ranking), ("bm25s", bm25s_ranker))
    for label, make in makers:
        row: dict[str, Any] = {}
        for split in splits:
            rankings, _ = timed(make(split.tools), [r.text for r in split.requests])
            row[split.name] = score(rankings, split.requests)
        _, row["median_ms"] = timed(make(latency_tools), latency_queries)
        rows[label] = row
    if "--no-old" not in argv:
        job = {s.name: (s.tools, [r.text for r in s.requests]) for s in splits}
        job["latency"] = (latency_tools, latency_queries)
        old = old_ranker(job)
        if old is not None:
            rows[f"old ({OLD_COMMIT})"] = {
                **{s.name: score(old[s.name]["rankings"], s.requests) for s in splits},
                "median_ms": old["latency"]["median_ms"],
            }
    held = [s.name for s in splits[1:]]
    print(f"\n{'ranker':<18}{'split':<26}single @1 / @5   multi @5")
    for label, row in rows.items():
        if held:
            row["held-out mean"] = {
                key: statistics.mean(row[name][key] for name in held)
                for key in ("single@1", "single@5", "multi@5")
            }
        for name in [s.name for s in splits] + (["held-out mean"] if held else []):
            got = row[name]
            print(
                f"{label:<18}{name:<26}{got['single@1']:.3f} / {got['single@5']:.3f}    "
                f"{got['multi@5']:.3f}"
            )
        ms = f"{row['median_ms']:.3f} ({len(latency_tools)} tools)"
        print(f"{label:<18}{'median ms/query':<26}{ms}")
    print(
        "\nsingle @k: share of single-need requests with a serving tool in the top k; multi @5: "
        "mean share of a multi-need request's needs with a tool in the top 5 (nan: none). "
        "held-out mean: the mean over the held-out sources."
    )


if __name__ == "__main__":
    main(sys.argv[1:])
