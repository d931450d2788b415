"""The web tools: WebFetch reads one URL, WebSearch asks a search backend."""
