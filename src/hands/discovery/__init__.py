"""Deferred tool discovery: ToolSearch, the ranker, and the deferring tool source."""
