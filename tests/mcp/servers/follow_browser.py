"""A stand-in browser for ``BROWSER``: follows the URL it is given, redirects and all.

The user approves at once: the authorization server's redirect reaches hands' loopback
listener exactly as a real browser would deliver it.
"""

from __future__ import annotations

import sys

import httpx

response = httpx.get(sys.argv[1], follow_redirects=True, timeout=30)
sys.exit(0 if response.status_code == 200 else 1)
