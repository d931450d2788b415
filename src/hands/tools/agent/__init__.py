"""The tools that reach the session's sub-agents: ListAgents and SendMessage."""
