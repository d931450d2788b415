"""Test helpers shipped with hands: a deterministic, scripted model."""

from hands.models.scripted import Script, ScriptedModel

__all__ = ["Script", "ScriptedModel"]
