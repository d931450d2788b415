"""The web tools: WebFetch reads one URL, WebSearch asks a search backend.

What WebFetch shares with the browser lives outside the family: the address lookup and
URL parsing in :mod:`hands.net`, the rules both obey in :mod:`hands.tools.web_rules`.
The family's ``_modules`` are its own.
"""
