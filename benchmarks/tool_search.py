"""ToolSearch on real MCP tools: tokens saved, recall on training and held-out requests, latency.

Splits, each with its own tool catalogue:

- training: the project's catalogue (``data/mcp_tools.json``) and all its requests
  (``data/tool_search_requests.json``; every round of them has been looked at, so all are
  training data now). Each lists the tools any one of which serves it: single-need. Its
  multi-need requests are made from them: 400 pairs of single-clause requests joined as one
  ("A, then B"; "A; B"...), each half a need (seeded, the same every run).
- held-out, one per source, each with its own catalogue: LiveMCPBench's MCP tools and
  tasks (``data/livemcpbench_*.json``, built by ``build_livemcpbench.py``), BFCL's
  expert-written and user-contributed function-calling questions (``data/bfcl_*.json`` and
  ``data/bfcl_live_*.json``, built by ``build_bfcl.py``), and public MCP servers' READMEs:
  their tool lists and example requests (``data/mcp_readmes_*.json``, built by
  ``build_mcp_readmes.py``). Each request lists its needs; it is single-need (one tool
  serves it) or multi-need (two or more tools). Each source's requests are split, by
  server or function, into a validation part and a test part (``heldout_split.py``; the
  ``split`` of each request in the data files). ``benchmarks/fit_tool_search.py`` fits the
  ranker's weights on the training split and the validation parts; the test parts are
  only scored.

Metrics: single-need recall@k is the share of single-need requests with any tool of the
need in the top k; multi-need recall@5 is the mean over multi-need requests of the share of
their needs with a tool in the top 5, one search per request (``max_results`` 5);
per-need recall@5 is the same share when each need is searched on its own, with the text
the source gives for it: LiveMCPBench's annotators' steps (the other sources give no text
per need: "-").

Rankers side by side: plain ``bm25s`` over one flat field (name words, server,
description, parameters) with its own tokenizer, Snowball stemmer and English stop words;
the embedding model alone (cosine of the request's and each tool's vector,
:mod:`hands.discovery.ranking.embedding`); a plain hybrid of the two (reciprocal rank
fusion, ``k`` 60); hands without the embedding model (what runs when the ``search`` extra
is not installed); and hands as shipped (:mod:`hands.discovery.ranking.ranking`). Latency
is the median per query on 760 tools (the project's catalogue and LiveMCPBench's
together), over every request scored, the query's embedding included; the catalogue's
embedding is timed cold (no cached vectors) apart.

Run: ``python benchmarks/tool_search.py [--training] [--test]`` (``--training``: that
split alone; ``--test``: the held-out test parts instead of the validation parts: score
them only once per final design, and never tune on them).
"""

from __future__ import annotations

import json
import random
import statistics
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from hands.discovery.deferral import CHARS_PER_TOKEN, DeferredEntry, reminder_text
from hands.discovery.ranking.embedding import StaticModel, catalogue_vectors, loaded_model
from hands.discovery.ranking.ranking import SearchDoc, ToolIndex, doc_for, doc_text, name_parts
from hands.discovery.tool_search import ToolSearchTool
from hands.mcp.naming import tool_name

DATA = Path(__file__).parent / "data"
K = 5
PAIRS = 400
RRF_K = 60
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


HELD_OUT = (
    ("livemcpbench", "livemcpbench"),
    ("bfcl", "bfcl"),
    ("bfcl-live", "bfcl_live"),
    ("mcp-readmes", "mcp_readmes"),
)
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


def hands_ranker(tools: Sequence[dict[str, Any]], *, embedding: bool = True) -> Ranker:
    index = ToolIndex(docs_of(tools), model="installed" if embedding else None)
    return lambda q: [r.name for r in index.search(q, K)]


def _bm25s(tools: Sequence[dict[str, Any]]) -> tuple[list[str], Callable[[str], np.ndarray]]:
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
    return [d.name for d in docs], lambda query: index.get_scores(tokens([query])[0])


def _cosines(tools: Sequence[dict[str, Any]], model: StaticModel) -> Callable[[str], np.ndarray]:
    docs = docs_of(tools)
    with tempfile.TemporaryDirectory() as folder:
        vectors = catalogue_vectors(model, [doc_text(d) for d in docs], Path(folder))
    return lambda query: vectors @ model.embed([query])[0]


def _top(names: Sequence[str], scores: np.ndarray) -> list[str]:
    order = sorted(range(len(names)), key=lambda i: (-scores[i], names[i]))
    return [names[i] for i in order[:K] if scores[i] > 0]


def bm25s_ranker(tools: Sequence[dict[str, Any]]) -> Ranker:
    names, scores = _bm25s(tools)
    return lambda query: _top(names, scores(query))


def embedding_ranker(tools: Sequence[dict[str, Any]], model: StaticModel) -> Ranker:
    """The embedding model alone: tools by cosine with the request."""
    names = [d.name for d in docs_of(tools)]
    cosines = _cosines(tools, model)
    return lambda query: _top(names, cosines(query) + 1.0)


def _ranks(scores: np.ndarray) -> np.ndarray:
    order = np.argsort(-scores, kind="stable")
    ranks = np.empty(len(scores))
    ranks[order] = np.arange(1, len(scores) + 1)
    return ranks


def hybrid_ranker(tools: Sequence[dict[str, Any]], model: StaticModel) -> Ranker:
    """Plain bm25s and the embedding model, by reciprocal rank fusion (k 60)."""
    names, scores = _bm25s(tools)
    cosines = _cosines(tools, model)

    def rank(query: str) -> list[str]:
        fused = 1 / (RRF_K + _ranks(scores(query))) + 1 / (RRF_K + _ranks(cosines(query)))
        return _top(names, fused)

    return rank


def score(rankings: Sequence[Sequence[str]], requests: Sequence[Request]) -> dict[str, float]:
    """Single-need recall@1 and @5, multi-need recall@5 (share of needs found), per-need
    recall@5 (each need searched with its own text, where the source gives one), counts."""
    single = [(got, r) for got, r in zip(rankings, requests, strict=True) if r.single]
    multi = [(got, r) for got, r in zip(rankings, requests, strict=True) if not r.single]
    at1 = sum(1 for got, r in single if set(got[:1]) & r.needs[0])
    at5 = sum(1 for got, r in single if set(got[:K]) & r.needs[0])
    found = [sum(1 for need in r.needs if set(got[:K]) & need) / len(r.needs) for got, r in multi]
    steps: dict[str, list[bool]] = {}
    for got, r in single:
        task, _, number = r.source.rpartition(" Steps ")
        if task and number:
            steps.setdefault(task, []).append(bool(set(got[:K]) & r.needs[0]))
    return {
        "n_single": len(single),
        "single@1": at1 / max(1, len(single)),
        "single@5": at5 / max(1, len(single)),
        "n_multi": len(multi),
        "multi@5": statistics.mean(found) if found else float("nan"),
        "per-need@5": statistics.mean(statistics.mean(s) for s in steps.values())
        if steps
        else float("nan"),
    }


def timed(ranker: Ranker, queries: Sequence[str]) -> tuple[list[list[str]], float, float]:
    """The rankings of ``queries`` and the median milliseconds per query: wall, and CPU (the
    process's, which other processes on a busy machine do not inflate)."""
    out: list[list[str]] = []
    wall: list[float] = []
    cpu: list[float] = []
    for query in queries:
        started, used = time.perf_counter(), time.process_time()
        out.append(ranker(query))
        wall.append((time.perf_counter() - started) * 1000)
        cpu.append((time.process_time() - used) * 1000)
    return out, statistics.median(wall), statistics.median(cpu)


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


def embedding_times(model: StaticModel, tools: Sequence[dict[str, Any]]) -> dict[str, float]:
    """Median milliseconds (wall and CPU) to embed the catalogue cold, and to read it back."""
    texts = [doc_text(d) for d in docs_of(tools)]
    times: dict[str, list[float]] = {"cold": [], "cold CPU": [], "cached": []}
    for _ in range(5):
        with tempfile.TemporaryDirectory() as folder:
            started, used = time.perf_counter(), time.process_time()
            catalogue_vectors(model, texts, Path(folder))
            times["cold"].append((time.perf_counter() - started) * 1000)
            times["cold CPU"].append((time.process_time() - used) * 1000)
            started = time.perf_counter()
            catalogue_vectors(model, texts, Path(folder))
            times["cached"].append((time.perf_counter() - started) * 1000)
    return {key: statistics.median(values) for key, values in times.items()}


METRICS = ("single@1", "single@5", "multi@5", "per-need@5")


def _mean(values: Sequence[float]) -> float:
    """The mean of the values that are numbers (a source without such requests has none)."""
    numbers = [v for v in values if v == v]
    return statistics.mean(numbers) if numbers else float("nan")


def _cell(value: float) -> str:
    return "  -  " if value != value else f"{value:.3f}"


def main(argv: Sequence[str]) -> None:
    train = training()
    made = two_need_requests(train.requests, ToolIndex(docs_of(train.tools), model=None))
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
    started, used = time.perf_counter(), time.process_time()
    model = loaded_model()
    if model is None:
        sys.exit("the embedding model is not installed: pip install 'hands[search]'")
    load_ms = (time.perf_counter() - started) * 1000
    load_cpu_ms = (time.process_time() - used) * 1000
    latency_queries = [r.text for s in splits for r in s.requests]
    rows: dict[str, dict[str, Any]] = {}
    makers: tuple[tuple[str, Callable[[Sequence[dict[str, Any]]], Ranker]], ...] = (
        ("bm25s", bm25s_ranker),
        ("embeddings", lambda tools: embedding_ranker(tools, model)),
        ("bm25s+emb RRF", lambda tools: hybrid_ranker(tools, model)),
        ("hands, BM25 only", lambda tools: hands_ranker(tools, embedding=False)),
        ("hands", hands_ranker),
    )
    for label, make in makers:
        row: dict[str, Any] = {}
        for split in splits:
            rankings, _, _ = timed(make(split.tools), [r.text for r in split.requests])
            row[split.name] = score(rankings, split.requests)
        _, row["median_ms"], row["median_cpu_ms"] = timed(make(latency_tools), latency_queries)
        rows[label] = row
    held = [s.name for s in splits[1:]]
    print(f"\n{'ranker':<18}{'split':<26}single @1 / @5   multi @5  per-need @5")
    for label, row in rows.items():
        if held:
            means = {key: _mean([row[name][key] for name in held]) for key in METRICS}
            row["held-out mean"] = means
        for name in [s.name for s in splits] + (["held-out mean"] if held else []):
            got = row[name]
            print(
                f"{label:<18}{name:<26}{_cell(got['single@1'])} / {_cell(got['single@5'])}    "
                f"{_cell(got['multi@5'])}     {_cell(got['per-need@5'])}"
            )
        ms = (
            f"{row['median_ms']:.3f} wall, {row['median_cpu_ms']:.3f} CPU "
            f"({len(latency_tools)} tools)"
        )
        print(f"{label:<18}{'median ms/query':<26}{ms}")
    times = embedding_times(model, latency_tools)
    print(
        f"\nembedding model: loaded (imports included) in {load_ms:.0f} ms wall, "
        f"{load_cpu_ms:.0f} ms CPU; the {len(latency_tools)}-tool catalogue "
        f"embedded cold in {times['cold']:.1f} ms wall, {times['cold CPU']:.1f} ms CPU; read "
        "back from the cache in "
        f"{times['cached']:.1f} ms (medians of 5)"
    )
    print(
        "\nsingle @k: share of single-need requests with a serving tool in the top k; multi @5: "
        "mean share of a multi-need request's needs with a tool in the top 5 (nan: none); "
        "per-need @5: the same with each need searched alone by its own text ('-': the source "
        "gives none). held-out mean: the mean over the held-out sources that have such requests."
    )


if __name__ == "__main__":
    main(sys.argv[1:])
