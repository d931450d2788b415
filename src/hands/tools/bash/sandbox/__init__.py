"""The bubblewrap sandbox and its network proxy."""
