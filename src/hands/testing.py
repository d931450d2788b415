"""Test helpers shipped with hands: a deterministic, scripted model."""

from hands.models.scripted import Script, ScriptedAgents, ScriptedModel

__all__ = ["Script", "ScriptedAgents", "ScriptedModel"]
