"""MCP both ways: servers' tools in hands' pool, and hands' tools served to MCP hosts.

- :mod:`.config`: ``.mcp.json`` / ``~/.hands/mcp.json`` / ``~/.claude.json`` loading.
- :mod:`.client`: :class:`~.client.McpManager`, background connections and calls.
- :mod:`.tools`, :mod:`.resources`: the ``mcp__<server>__<tool>`` tools and the two
  resource tools.
- :mod:`.source`: :class:`~.source.McpToolSource`, the pool the loop asks every turn.
- :mod:`.setup`: :func:`~.setup.start_mcp`, project directory → running servers.
- :mod:`.server`, :mod:`.cli`: ``hands mcp serve`` and ``hands mcp list``.

Importing this package loads nothing of the MCP SDK.
"""
