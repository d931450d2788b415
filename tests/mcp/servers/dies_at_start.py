"""An MCP server that cannot start: it says why on stderr and exits with status 3."""

import sys

print("cannot open the database", file=sys.stderr)
sys.exit(3)
