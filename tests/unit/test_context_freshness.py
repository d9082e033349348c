"""A host that re-registers a device with another tree or other commands invalidates its cached context."""
from __future__ import annotations

from server.ai_central import AICentral
from shared.commands import CommandKind
from shared.models import ExecutorContext


def _device(tree_version: int, commands: list[str]) -> dict:
    return {"id": "tv-1", "model": "stb", "userinterface": "menu",
            "controllers": [{"type": "WebRemote", "controller_type": "remote", "commands": commands}],
            "navigation_tree": {"userinterface": "menu", "version": tree_version, "nodes": []}}


def _fill(ai: AICentral) -> None:
    for kind in CommandKind:
        ai._cache[ai.cache_key(kind, "stb", "menu")] = ExecutorContext(kind)
    ai._cache[ai.cache_key(CommandKind.ACTION, "other", "menu")] = ExecutorContext(CommandKind.ACTION)


def test_same_registration_keeps_the_cache_and_a_changed_one_clears_it() -> None:
    ai = AICentral(lab=None, planners=[])  # type: ignore[arg-type]
    assert ai.note_registration([_device(1, ["press_key"])]) == 0
    _fill(ai)
    assert ai.note_registration([_device(1, ["press_key"])]) == 0          # a reconnect, nothing changed
    assert len(ai.cached_keys()) == 4
    assert ai.note_registration([_device(2, ["press_key"])]) == 3          # a new tree
    assert ai.cached_keys() == ["action:other:menu"]
    _fill(ai)
    assert ai.note_registration([_device(2, ["press_key", "input_text"])]) == 3   # new commands


def test_malformed_registrations_are_ignored() -> None:
    ai = AICentral(lab=None, planners=[])  # type: ignore[arg-type]
    assert ai.note_registration("nodes") == 0
    assert ai.note_registration([1, None, "x"]) == 0
