"""Built-in tools, one package per family."""
