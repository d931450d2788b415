"""Static embeddings of tools and requests: the ranker's sense of meaning beyond shared words.

The model is WordLlama's ``l2_supercat_256``: one 256-number vector per token of Llama 2's
tokenizer (32,000 of them), shipped inside the ``wordllama`` wheel (the ``search`` extra,
``pip install 'hands[search]'``); nothing is downloaded. A text's vector is the mean of its
tokens' vectors, scaled to length 1, so two texts' similarity is one dot product. The
files are read with ``tokenizers`` and ``safetensors`` (both ``wordllama``'s own
dependencies) rather than through ``wordllama``'s API, whose import and padded batches
cost ten times what this does.

Without the package the ranker is BM25 alone (:func:`loaded_model` is None). A
catalogue's vectors are kept on disk, keyed by a hash of the model and of the tools'
texts (:func:`catalogue_vectors`), so they are computed once per change of the tools.
"""

from __future__ import annotations

import hashlib
import importlib.util
import os
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import numpy as np

PACKAGE = "wordllama"
TOKENIZER = Path("tokenizers", "l2_supercat_tokenizer_config.json")
WEIGHTS = Path("weights", "l2_supercat_256.safetensors")
MAX_TOKENS = 128
"""Tokens of a text that count: a tool's first words say what it does (on the held-out
validation sets, 64 tokens ranked as well as 512)."""
MAX_CHARS = 600
"""Characters of a text tokenized (about as many as ``MAX_TOKENS`` tokens)."""
KEPT_CATALOGUES = 8
"""Catalogues whose vectors stay on disk; the least recently written go first."""


@dataclass(frozen=True, kw_only=True, slots=True)
class ModelFiles:
    """Where the installed package keeps the model."""

    tokenizer: Path
    weights: Path


def model_files() -> ModelFiles | None:
    """The model's files, or None when ``wordllama`` is not installed (it is not imported)."""
    try:
        spec = importlib.util.find_spec(PACKAGE)
    except (ImportError, ValueError):
        return None
    if spec is None or not spec.submodule_search_locations:
        return None
    for folder in spec.submodule_search_locations:
        files = ModelFiles(tokenizer=Path(folder) / TOKENIZER, weights=Path(folder) / WEIGHTS)
        if files.tokenizer.is_file() and files.weights.is_file():
            return files
    return None


class StaticModel:
    """Token vectors and their tokenizer: texts in, unit vectors out."""

    def __init__(self, files: ModelFiles) -> None:
        import numpy as np
        import safetensors.numpy
        from tokenizers import Tokenizer

        self.tokenizer: Any = Tokenizer.from_file(str(files.tokenizer))
        self.tokenizer.no_padding()
        self.tokenizer.no_truncation()
        tensors: dict[str, Any] = safetensors.numpy.load_file(str(files.weights))
        self.vectors: np.ndarray = next(iter(tensors.values())).astype(np.float32)
        stat = files.weights.stat()
        self.key = f"{files.weights.name}:{stat.st_size}:{MAX_TOKENS}:{MAX_CHARS}"
        """What identifies the model's vectors (for the catalogue cache)."""

    @property
    def dimensions(self) -> int:
        return int(self.vectors.shape[1])

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        """One unit vector per text (zeros for a text without tokens), as float32 rows."""
        import numpy as np

        cut = [t[:MAX_CHARS] for t in texts]
        if len(cut) == 1:  # a request: no thread pool for one text
            encoded = [self.tokenizer.encode(cut[0], add_special_tokens=False)]
        else:
            encoded = self.tokenizer.encode_batch(cut, add_special_tokens=False)
        out = np.zeros((len(texts), self.dimensions), dtype=np.float32)
        for row, tokens in enumerate(encoded):
            ids = tokens.ids[:MAX_TOKENS]
            if ids:  # summed text by text: one large gather costs many times more
                out[row] = self.vectors[ids].sum(axis=0)
        norms = np.linalg.norm(out, axis=1, keepdims=True)
        return np.divide(out, norms, out=out, where=norms > 0)


@cache
def loaded_model() -> StaticModel | None:
    """The model, loaded on first use; None when it is not installed or cannot be read."""
    files = model_files()
    if files is None:
        return None
    try:
        return StaticModel(files)
    except Exception:  # any model that cannot be read leaves the ranker to BM25
        return None


async def load_off_the_loop() -> None:
    """Load the model (once) in a worker thread, so that an event loop goes on meanwhile."""
    if loaded_model.cache_info().currsize == 0:
        import anyio

        await anyio.to_thread.run_sync(loaded_model)


def cache_dir() -> Path:
    """Where catalogue vectors are kept: ``$XDG_CACHE_HOME/hands/tool-search`` (or ``~/.cache``)."""
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "hands" / "tool-search"


def catalogue_key(model: StaticModel, texts: Sequence[str]) -> str:
    """A hash of the model and of every tool's text, in order."""
    digest = hashlib.sha256(model.key.encode())
    for text in texts:
        digest.update(b"\0" + text.encode("utf-8", "replace"))
    return digest.hexdigest()[:32]


def catalogue_vectors(
    model: StaticModel, texts: Sequence[str], folder: Path | None = None
) -> np.ndarray:
    """The vectors of a catalogue's tool texts: read from the cache, or embedded and kept.

    A cache that cannot be read or written is only slower: the vectors are computed.
    """
    import numpy as np

    folder = cache_dir() if folder is None else folder
    path = folder / f"{catalogue_key(model, texts)}.npy"
    try:
        kept = np.load(path, allow_pickle=False)
        if kept.shape == (len(texts), model.dimensions):
            return kept.astype(np.float32)
    except (OSError, ValueError, EOFError):
        pass
    vectors = model.embed(texts).astype(np.float16).astype(np.float32)  # as the cache keeps them
    try:
        _keep(folder, path, vectors)
    except OSError:
        pass
    return vectors


def _keep(folder: Path, path: Path, vectors: np.ndarray) -> None:
    """Write ``vectors`` to ``path`` whole (a temporary file renamed), dropping old ones."""
    import numpy as np

    folder.mkdir(parents=True, exist_ok=True)
    handle, temporary = tempfile.mkstemp(dir=folder, suffix=".tmp")
    with os.fdopen(handle, "wb") as out:
        np.save(out, vectors.astype(np.float16), allow_pickle=False)
    Path(temporary).replace(path)
    others = [p for p in folder.glob("*.npy") if p != path]
    others.sort(key=lambda p: p.stat().st_mtime, reverse=True)
    for old in others[KEPT_CATALOGUES - 1 :]:
        old.unlink(missing_ok=True)
