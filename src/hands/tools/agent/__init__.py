"""What the tools layer knows of sub-agents: the background ones TaskOutput reads."""
