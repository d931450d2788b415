"""MCP both ways: servers' tools in hands' pool, and hands' tools served to MCP hosts.

- :mod:`.config`: ``.mcp.json`` / ``~/.hands/mcp.json`` / ``~/.claude.json`` loading.
- :mod:`.manager`: :class:`~.manager.McpManager`, every server started in the background,
  and the calls.
- :mod:`.connection`: :class:`~.connection.McpConnection`, one server's transport,
  start-up, reconnects and stderr.
- :mod:`.results`: SDK results as hands blocks; start-up failures in words.
- :mod:`.tools`, :mod:`.resources`: the ``mcp__<server>__<tool>`` tools and the two
  resource tools.
- :mod:`.source`: :class:`~.source.McpToolSource`, the pool the loop asks every turn.
- :mod:`.tool_cache`, :mod:`.lazy`: tool lists kept on disk, so a server whose tools are
  all deferred starts only when one is needed.
- :mod:`.setup`: :func:`~.setup.start_mcp`, project directory → running servers.
- :mod:`.server`, :mod:`.cli`: ``hands mcp serve`` and ``hands mcp list``.

Importing this package loads nothing of the MCP SDK.
"""
