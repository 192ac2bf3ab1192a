"""Agents: the protocol users implement and the built-in strategies."""

from evaluator.agents.protocol import (Agent, Answer, MediaInput, MemorySession, MemoryTurn,
                                       Query)

__all__ = ["Agent", "Answer", "MediaInput", "MemorySession", "MemoryTurn", "Query"]
