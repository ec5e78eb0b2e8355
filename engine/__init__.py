"""Tablejudge's game engines: one subpackage per game, sharing the architecture in engine/README.md.

Shared parts: :mod:`engine.errors` (typed errors), :mod:`engine.rng` (the seeded generator inside
every state), :mod:`engine.adjudicator` (who decides word questions).
"""
