"""Sub-agents: the Agent tool, its built-in and custom agent types, and how one runs."""
