"""Shared by Pirate Tricks tests: the state as its snapshot holds it."""

from __future__ import annotations


def saved(state) -> dict:
    """The state as its snapshot holds it (crew cards as ids): the engine keeps indexes."""
    return state.to_dict()["state"]
