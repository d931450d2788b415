"""Model providers behind one streaming protocol."""
