"""The Claude Agent SDK's CLI protocol: ``hands`` as the executable an SDK program starts.

The SDKs (``claude-agent-sdk`` for Python, ``@anthropic-ai/claude-agent-sdk`` for
TypeScript) start their CLI with ``--input-format stream-json --output-format
stream-json`` and speak JSON lines over stdin and stdout: user messages and control
requests in, messages and control requests out. One module per concept: the flags,
the control channel, the control requests hands answers, the ones it sends (permission
questions, hook callbacks, in-process MCP servers), the messages out, and the session.
"""
