"""Search tools: Glob and Grep, both on ripgrep."""
