"""Terminal rendering helpers; rich is imported only when something is rendered."""
