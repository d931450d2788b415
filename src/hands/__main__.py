"""``python -m hands``."""

from hands.entry import main

main()
