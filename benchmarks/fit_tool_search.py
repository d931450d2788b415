"""Fit the ToolSearch ranker's weights on training and validation data; ``--write`` saves them.

What is fitted: BM25's ``k1`` and ``b`` (one pair for every field), the weight of each
field's score (the flat ``text`` field's is fixed at 1: only ratios matter), the weight of the
tool-name verbs a request's verbs stand for (``verb_groups.json``; 0 leaves them out), and
whether the ranking of the whole request leads the needs' rankings of a multi-need request,
and the weight of the embedding cosine beside the BM25 score scaled to the best tool's 1
(0 is BM25 alone).

Data: the training split of ``tool_search.py`` (the project's catalogue and its 2,068
single-need requests, and multi-need requests made from it: pairs of single-clause training
requests joined as one, each half a need) and the validation part of each held-out source
(LiveMCPBench, BFCL, BFCL live; each with its own catalogue). The held-out test parts are
never read here.

Objective: the sum over those splits (each counts the same) of single-need recall@1 +
recall@5 (each request weighted by one over the number of requests for its tool's server)
+ multi-need recall@5 (the mean share of needs found in the top 5). Search: a grid over
``k1`` and ``b``; for each, coordinate ascent over the field weights, the verb weight and
``whole_first`` and the embedding weight (two passes over fixed grids). Choice: the
one-standard-error rule. Of every setting tried whose objective is within one standard
error of the best, the one nearest plain BM25 (the flat field alone, ``k1`` 1.5, ``b`` 0.75,
no verbs) and, among those, the best: the data cannot tell those settings apart, and the
plainer one is likelier to carry over to other catalogues. The embedding weight is not
counted in that distance: it is the design's choice, fitted by the objective alone.

It takes many minutes, so ``make bench`` does not run it. Run by hand:
``python benchmarks/fit_tool_search.py --fit [--embedding] [--write]`` (``--embedding``:
keep the BM25 settings of ``ranking_weights.json`` and fit the embedding weight alone).
"""

from __future__ import annotations

import dataclasses
import json
import sys
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from hands.discovery.ranking.needs import interleave
from hands.discovery.ranking.ranking import (
    FIELDS,
    WEIGHTS_FILE,
    Ranked,
    ToolIndex,
    Weights,
    fitted_weights,
    query_terms,
    verb_terms,
)
from tool_search import PAIRS, Request, Split, docs_of, held_out, training, two_need_requests

K = 5
K1_GRID = (0.9, 1.2, 1.5, 2.0)
B_GRID = (0.5, 0.75, 0.9)
WEIGHT_GRID = (0.0, 0.1, 0.25, 0.5, 1.0)
VERB_GRID = (0.0, 0.25, 0.5, 0.75, 1.0)
EMBEDDING_GRID = (0.0, 0.5, 1.0, 1.5, 2.0, 3.0, 4.0)
FITTED = tuple(f for f in FIELDS if f != "text")


@dataclass(frozen=True, kw_only=True, slots=True)
class Prepared:
    """A request's field-score matrices and cosines: the whole request's and each need's."""

    whole: np.ndarray
    needs: tuple[np.ndarray, ...]
    whole_cosines: np.ndarray
    needs_cosines: tuple[np.ndarray, ...]
    wanted: tuple[frozenset[int], ...]
    share: float = 1.0
    """The request's weight: one over the number of requests for its tool's server."""


def prepare(index: ToolIndex, requests: Sequence[Request]) -> list[Prepared]:
    position = {d.name: i for i, d in enumerate(index.docs)}

    def cosines(text: str) -> np.ndarray:
        found = index.cosines(text)
        return np.zeros(len(index.docs)) if found is None else found

    def matrix(text: str) -> np.ndarray:
        """Field scores of the words (row 0) and of the verbs they stand for (row 1)."""
        words = query_terms(text)
        extra = verb_terms(words)
        plain = np.stack(index.field_scores(words))
        return np.stack([plain, np.stack(index.field_scores(extra)) if extra else 0 * plain])

    servers = [_server(r, index) for r in requests]
    count = Counter(servers)
    out: list[Prepared] = []
    for r, server in zip(requests, servers, strict=True):
        needs = index.needs(r.text)
        out.append(
            Prepared(
                whole=matrix(r.text),
                needs=tuple(matrix(n) for n in needs) if len(needs) > 1 else (),
                whole_cosines=cosines(r.text),
                needs_cosines=tuple(cosines(n) for n in needs) if len(needs) > 1 else (),
                wanted=tuple(
                    frozenset(position[n] for n in need if n in position) for need in r.needs
                ),
                share=1.0 / count[server],
            )
        )
    return out


def _server(request: Request, index: ToolIndex) -> str:
    """The server of the first tool that serves a single-need request ("" for the rest)."""
    if not request.single:
        return ""
    servers = {d.name: d.server for d in index.docs}
    return min(servers.get(n, "") for n in request.needs[0])


def _fused(
    weights: np.ndarray, matrix: np.ndarray, cosines: np.ndarray, verbs: float, embedding: float
) -> np.ndarray:
    """Tools' scores as :meth:`ToolIndex._total` gives them."""
    total = weights @ (matrix[0] + verbs * matrix[1])
    best = float(total.max())
    if embedding <= 0.0 or best <= 0.0:
        return total
    return np.where(total > 0.0, total / best + embedding * np.maximum(cosines, 0.0), 0.0)


def _top(scores: np.ndarray) -> list[Ranked]:
    order = np.argsort(-scores, kind="stable")[:K]
    return [Ranked(name=str(i), score=float(scores[i])) for i in order if scores[i] > 0]


def evaluate(
    parts: Sequence[Sequence[Prepared]],
    weights: Sequence[np.ndarray],
    whole_first: bool,
    verbs: float,
    embedding: float,
) -> tuple[float, float]:
    """The sum over ``parts`` (each split counts the same; its own field weights, as each
    split's index has the fields its tools fill) of :func:`evaluate_one`."""
    values = [
        evaluate_one(p, w, whole_first, verbs, embedding)
        for p, w in zip(parts, weights, strict=True)
    ]
    return sum(v for v, _ in values), sum(se**2 for _, se in values) ** 0.5


def evaluate_one(
    prepared: Sequence[Prepared],
    weights: np.ndarray,
    whole_first: bool,
    verbs: float,
    embedding: float,
) -> tuple[float, float]:
    """Single-need recall@1 + recall@5 + multi-need recall@5, and its standard error."""
    single: list[tuple[float, float]] = []  # (share, hits at 1 and at 5)
    multi: list[float] = []
    for p in prepared:
        whole = _top(_fused(weights, p.whole, p.whole_cosines, verbs, embedding))
        if p.needs:
            rankings = [
                _top(_fused(weights, m, c, verbs, embedding))
                for m, c in zip(p.needs, p.needs_cosines, strict=True)
            ]
            got = interleave([whole, *rankings] if whole_first else rankings, K)
        else:
            got = whole
        found = {int(r.name) for r in got}
        if len(p.wanted) == 1:
            hits = float(bool(got) and int(got[0].name) in p.wanted[0]) + bool(found & p.wanted[0])
            single.append((p.share, hits))
        else:
            multi.append(sum(1 for w in p.wanted if found & w) / len(p.wanted))
    value = variance = 0.0
    for part in ([s for s, _ in single], [h for _, h in single]), ([1.0] * len(multi), multi):
        shares, points = np.array(part[0]), np.array(part[1])
        if len(points):
            shares = shares / shares.sum()
            mean = float(shares @ points)
            value += mean
            variance += float(shares**2 @ (points - mean) ** 2)
    return value, variance**0.5


def distance_from_plain(weights: Weights) -> float:
    """How far weights are from plain BM25: one flat field, bm25s's k1 1.5 and b 0.75, no verbs."""
    fields = 4 * sum(w for f, w in weights.fields.items() if f != "text")
    plain = abs(np.log2(weights.k1 / 1.5)) + 4 * abs(weights.b - 0.75) + 4 * weights.verbs
    return float(fields + plain)


def ascend(
    prepared: Sequence[Sequence[Prepared]], fields: Sequence[Sequence[str]], k1: float, b: float
) -> list[tuple[float, float, Weights]]:
    """Coordinate ascent over the weights at one ``k1``, ``b``: every setting tried."""
    tried: list[tuple[float, float, Weights]] = []

    def value(w: dict[str, float], first: bool, verbs: float, embedding: float) -> float:
        vectors = [np.array([w[f] for f in part]) for part in fields]
        got, se = evaluate(prepared, vectors, first, verbs, embedding)
        weights = Weights(
            k1=k1, b=b, fields=w, whole_first=first, verbs=verbs, embedding=embedding
        )
        tried.append((got, se, weights))
        return got

    weights, whole_first, verbs = {f: float(f == "text") for f in FIELDS}, True, 0.0
    embedding = 0.0
    current = value(weights, whole_first, verbs, embedding)
    for _ in range(2):
        for level in EMBEDDING_GRID:
            got = value(weights, whole_first, verbs, level)
            if got > current:
                current, embedding = got, level
        for field in FITTED:
            for candidate in WEIGHT_GRID:
                trial = {**weights, field: candidate}
                got = value(trial, whole_first, verbs, embedding)
                if got > current:
                    current, weights = got, trial
        for level in VERB_GRID:
            got = value(weights, whole_first, level, embedding)
            if got > current:
                current, verbs = got, level
        other = value(weights, not whole_first, verbs, embedding)
        if other > current:
            current, whole_first = other, not whole_first
    print(f"k1 {k1} b {b}: best {current:.4f}")
    return tried


def splits() -> list[Split]:
    """The training split (with its two-need requests) and each held-out validation part."""
    train = training()
    pairs = two_need_requests(train.requests, ToolIndex(docs_of(train.tools)))
    train = Split(name=train.name, tools=train.tools, requests=[*train.requests, *pairs])
    return [train, *held_out("validation")]


def fit() -> tuple[Weights, float, float, float]:
    """The plainest weights within one standard error of the best: (them, value, best, SE)."""
    data = splits()
    every = {f: 1.0 for f in FIELDS}
    tried: list[tuple[float, float, Weights]] = []
    for k1 in K1_GRID:
        for b in B_GRID:
            weights = Weights(k1=k1, b=b, fields=every, embedding=1.0)
            indexes = [ToolIndex(docs_of(s.tools), weights) for s in data]
            prepared = [prepare(i, s.requests) for i, s in zip(indexes, data, strict=True)]
            tried += ascend(prepared, [i.fields for i in indexes], k1, b)
    best, se, _ = max(tried, key=lambda t: t[0])
    near = [t for t in tried if t[0] >= best - se]
    chosen = min(near, key=lambda t: (distance_from_plain(t[2]), -t[0]))
    print(f"best {best:.4f} (SE {se:.4f}): {max(tried, key=lambda t: t[0])[2]}")
    return chosen[2], chosen[0], best, se


def fit_embedding() -> tuple[Weights, float, float, float]:
    """The BM25 settings kept (``ranking_weights.json``), the embedding weight fitted alone:
    the best on the grid (the full fit takes many times longer). (weights, value, best, SE)."""
    data = splits()
    kept = fitted_weights()
    indexes = [
        ToolIndex(docs_of(s.tools), dataclasses.replace(kept, embedding=1.0)) for s in data
    ]
    prepared = [prepare(i, s.requests) for i, s in zip(indexes, data, strict=True)]
    vectors = [np.array([kept.fields[f] for f in i.fields]) for i in indexes]
    tried: list[tuple[float, float, Weights]] = []
    for level in EMBEDDING_GRID:
        got, se = evaluate(prepared, vectors, kept.whole_first, kept.verbs, level)
        print(f"embedding {level}: {got:.4f} (SE {se:.4f})")
        tried.append((got, se, dataclasses.replace(kept, embedding=level)))
    best, se, weights = max(tried, key=lambda t: t[0])
    return weights, best, best, se


def main(argv: Sequence[str]) -> None:
    weights, objective, best, se = fit_embedding() if "--embedding" in argv else fit()
    data: dict[str, Any] = {
        "about": (
            "Fitted by benchmarks/fit_tool_search.py on the training split (the project's "
            f"catalogue and requests, and {PAIRS} two-need requests made from them) and the "
            "validation part of each held-out source; objective: the sum over those splits of "
            "single@1 + single@5 + multi@5 (single-need requests weighted by one over their "
            f"server's count) {objective:.4f}: "
            + (
                "BM25's settings kept from the full fit, the embedding weight the best of its "
                f"grid (SE {se:.4f}). "
                if "--embedding" in argv
                else f"of the weights within one standard error of the best found ({best:.4f}, "
                f"SE {se:.4f}), those nearest plain BM25, the embedding weight the best of them. "
            )
            + "Do not edit by hand."
        ),
        "k1": weights.k1,
        "b": weights.b,
        "fields": dict(weights.fields),
        "whole_first": weights.whole_first,
        "verbs": weights.verbs,
        "embedding": weights.embedding,
    }
    print(json.dumps(data, indent=1))
    if "--write" in argv:
        Path(WEIGHTS_FILE).write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
        print(f"wrote {WEIGHTS_FILE.name}")


if __name__ == "__main__":
    if "--fit" in sys.argv:
        main(sys.argv[1:])
    else:
        print(__doc__.strip().splitlines()[-1])
