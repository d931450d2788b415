"""Plan mode: EnterPlanMode, ExitPlanMode and the session's plan state."""
