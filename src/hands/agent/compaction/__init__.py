"""Keeping a long session inside the model's context window.

Each request's size is known from the provider's usage of the one before it
(:mod:`.tokens`). When the next request would pass the threshold of the model's window
(:mod:`.settings`), the oldest tool results' bodies are cleared first (:mod:`.clearing`);
if that is not enough, the conversation so far is summarised by the session's model and
the session goes on from the summary and its most recent turns (:mod:`.compactor`).
"""

from hands.agent.compaction.compactor import Compactor, CompactOutcome, compact_conversation
from hands.agent.compaction.settings import CompactionSettings

__all__ = [
    "CompactOutcome",
    "CompactionSettings",
    "Compactor",
    "compact_conversation",
]
