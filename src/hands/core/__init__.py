"""The tool protocol: what a tool author imports. Imports nothing above it."""
