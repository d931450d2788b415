"""Network facts every layer may ask: which addresses are public, how a host is spelt."""
