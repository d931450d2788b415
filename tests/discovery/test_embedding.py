"""The ranker's embedding model: used when installed, BM25 alone when not, vectors cached."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest
from test_ranking import catalogue, names

from hands.discovery.ranking.embedding import (
    StaticModel,
    catalogue_key,
    catalogue_vectors,
    loaded_model,
    model_files,
)
from hands.discovery.ranking.ranking import ToolIndex, doc_text


def installed() -> StaticModel:
    model = loaded_model()
    assert model is not None, "the search extra (wordllama) is part of the dev install"
    return model


def test_texts_become_unit_vectors_and_like_texts_lie_close() -> None:
    vectors = installed().embed(["send an email", "mail a message", "screenshot a web page", ""])
    assert vectors.shape == (4, 256) and vectors.dtype == np.float32
    assert np.allclose(np.linalg.norm(vectors[:3], axis=1), 1.0, atol=1e-5)
    assert not vectors[3].any()
    assert vectors[0] @ vectors[1] > vectors[0] @ vectors[2] + 0.2


def test_the_embedding_is_used_when_installed() -> None:
    """ "mail" is no word of any tool: only the embedding tells e-mail from a draft."""
    hybrid = ToolIndex(catalogue())
    plain = ToolIndex(catalogue(), model=None)
    assert hybrid.embedder() is not None and plain.embedder() is None
    query = "send the report by mail"
    assert names(plain.search(query, 2)) == ["mcp__gmail__send_draft", "mcp__gmail__send_email"]
    assert names(hybrid.search(query, 1)) == ["mcp__gmail__send_email"]


def test_the_embedding_orders_the_tools_the_words_found_and_adds_none() -> None:
    """A search loads only tools that share a word with it, as with BM25 alone."""
    hybrid = ToolIndex(catalogue())
    plain = ToolIndex(catalogue(), model=None)
    assert hybrid.search("electronic correspondence", 5) == []
    for query in ("read my mail", "send the report by mail", "open a page", "get my issues"):
        found = {r.name for r in hybrid.search(query, 50)}
        assert found and found == {r.name for r in plain.search(query, 50)}


def test_without_the_package_the_ranker_is_bm25_alone(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "wordllama", None)  # import wordllama: ModuleNotFoundError
    loaded_model.cache_clear()
    try:
        assert model_files() is None and loaded_model() is None
        index = ToolIndex(catalogue())
        assert index.embedder() is None and index.cosines("send email") is None
        plain = ToolIndex(catalogue(), model=None)
        for query in ("send the report by mail", "read ~/notes/todo.md", "list pull requests"):
            assert index.search(query, 5) == plain.search(query, 5)
    finally:
        loaded_model.cache_clear()


def test_catalogue_vectors_are_kept_under_the_catalogues_hash(tmp_path: Path) -> None:
    model = installed()
    docs = catalogue()
    first = ToolIndex(docs, vectors_dir=tmp_path)
    found = first.embedder()
    assert found is not None
    texts = [doc_text(d) for d in first.docs]
    kept = tmp_path / f"{catalogue_key(model, texts)}.npy"
    assert [p.name for p in tmp_path.iterdir()] == [kept.name]
    assert np.array_equal(np.load(kept).astype(np.float32), found[1])

    # the same catalogue reads the file back (here: a changed one, to see it is read)
    marked = np.roll(found[1], 1, axis=0)
    np.save(kept, marked.astype(np.float16))
    again = ToolIndex(docs, vectors_dir=tmp_path).embedder()
    assert again is not None and np.array_equal(again[1], marked)

    # another catalogue has another key, and a file of its own
    other = ToolIndex(docs[:-1], vectors_dir=tmp_path).embedder()
    assert other is not None and len(list(tmp_path.glob("*.npy"))) == 2
    assert catalogue_key(model, texts[:-1]) != catalogue_key(model, texts)


def test_a_broken_or_unwritable_cache_only_costs_time(tmp_path: Path) -> None:
    model = installed()
    texts = ["send an email", "read a file"]
    fresh = catalogue_vectors(model, texts, tmp_path)
    (tmp_path / f"{catalogue_key(model, texts)}.npy").write_bytes(b"not an array")
    assert np.array_equal(catalogue_vectors(model, texts, tmp_path), fresh)
    blocked = tmp_path / "a-file"
    blocked.write_text("")
    assert np.array_equal(catalogue_vectors(model, texts, blocked / "cache"), fresh)
    assert not (tmp_path / "cache").exists()


def test_a_model_that_cannot_be_read_leaves_bm25_alone(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A ``wordllama`` whose files are damaged: no error reaches a search."""
    package = tmp_path / "wordllama"
    (package / "tokenizers").mkdir(parents=True)
    (package / "weights").mkdir()
    (package / "__init__.py").write_text("")
    (package / "tokenizers" / "l2_supercat_tokenizer_config.json").write_text("{not json")
    (package / "weights" / "l2_supercat_256.safetensors").write_bytes(b"\0" * 64)
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.delitem(sys.modules, "wordllama", raising=False)
    loaded_model.cache_clear()
    try:
        files = model_files()
        assert files is not None and files.tokenizer.is_relative_to(tmp_path)
        assert loaded_model() is None
        index = ToolIndex(catalogue())
        plain = ToolIndex(catalogue(), model=None)
        assert index.search("send the report by mail", 5) == plain.search(
            "send the report by mail", 5
        )
    finally:
        loaded_model.cache_clear()


def test_the_first_ranked_search_loads_the_model_off_the_event_loop(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import threading

    import anyio

    from hands.discovery.ranking import embedding

    threads: list[threading.Thread] = []
    real = embedding.model_files

    def spied() -> embedding.ModelFiles | None:
        threads.append(threading.current_thread())
        return real()

    monkeypatch.setattr(embedding, "model_files", spied)
    loaded_model.cache_clear()
    try:
        anyio.run(embedding.load_off_the_loop)
        anyio.run(embedding.load_off_the_loop)  # loaded: nothing more to do
        assert len(threads) == 1 and threads[0] is not threading.main_thread()
        assert loaded_model() is not None and len(threads) == 1
    finally:
        loaded_model.cache_clear()


def test_the_cache_keeps_the_latest_catalogues_only(tmp_path: Path) -> None:
    from hands.discovery.ranking.embedding import KEPT_CATALOGUES

    model = installed()
    for number in range(KEPT_CATALOGUES + 2):
        catalogue_vectors(model, [f"tool number {number}"], tmp_path)
    kept = {p.name for p in tmp_path.glob("*.npy")}
    assert len(kept) == KEPT_CATALOGUES and not list(tmp_path.glob("*.tmp"))
    assert f"{catalogue_key(model, ['tool number 9'])}.npy" in kept
