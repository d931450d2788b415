"""The agent loop (``query``), its options and events, transcripts."""
