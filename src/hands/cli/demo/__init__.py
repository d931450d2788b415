"""The offline demo: a scripted session over a small bundled project."""
