"""``python -m hands``."""

from hands.cli import main

main()
