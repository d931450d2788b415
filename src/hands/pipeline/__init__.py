"""One tool_use in, exactly one tool_result out: the per-call pipeline."""
