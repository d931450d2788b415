"""Size limits of the file tools, in one place so tests and docs agree."""

from __future__ import annotations

DEFAULT_LINES = 1 << 62
"""Lines a Read returns when no ``limit`` is given: no line window, the character cap
bounds the result (see docs/compatibility.md for the measurements behind the choice)."""
MAX_LINE_CHARS = 2_000
"""Longer lines are cut with a marker."""
MAX_READ_CHARS = 100_000
"""Character cap on one Read result; beyond it the result is a partial view."""
LARGE_READ_CHARS = 1_000_000
"""The hard cap of a Read with ``allow_large``: no default line window, no line cut, and
the result (and the memory it takes) stops at this many characters."""
MAX_EDIT_BYTES = 1 << 30
"""Files larger than this are not loaded for editing."""
HASH_LIMIT_BYTES = 64 << 20
"""Files up to this size get a content hash in the read-state cache."""
PDF_PAGES_WITHOUT_RANGE = 10
"""PDFs with more pages need ``pages``."""
PDF_MAX_PAGES_PER_CALL = 20
PDF_DOCUMENT_MAX_BYTES = 20 << 20
"""PDFs (or the pages asked for) up to this size also go to the model as the document
itself, which providers that read PDFs (Anthropic) see natively; larger: text only."""
MAX_NOTEBOOK_BYTES = 100 << 20
MAX_CELL_OUTPUT_CHARS = 5_000
"""Each notebook output is cut to this many characters when read."""
