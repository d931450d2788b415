"""``python -m hands``."""

from hands.cli.entry import main

main()
