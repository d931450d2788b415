"""Claude Code configuration on disk: settings files, env file, JSON helpers."""
