"""Ranking tools for a plain-language request."""
