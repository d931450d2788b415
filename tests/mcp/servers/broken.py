"""A server that prints an error and exits before the handshake."""

import sys

print("broken server: missing API key BROKEN_TOKEN", file=sys.stderr)
sys.exit(1)
