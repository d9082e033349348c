"""Wordings and trees of a fresh batch (StreamTV with an explored tree, polite requests), each in words of its own."""
from __future__ import annotations

from pathlib import Path

import pytest
import yaml

import tests.unit.conftest as conftest
from tests.unit.test_builtin_planner import plan, steps


@pytest.fixture
def explored_guide(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The demo tree with its guide rows as an explorer reads them: number, channel, programme and time in one
    text ("3 Cinema Nova Midnight Matinee 20"), never the channel's name alone."""
    tree = yaml.safe_load(conftest.DEMO_TREE.read_text())
    guide = next(n for n in tree["nodes"] if n["id"] == "guide")
    shows = iter(["Evening Headlines 20", "Alpine Ski Cup 19", "Midnight Matinee 20", "Robo Pals 20",
                  "Top 40 Countdown 20", "Secrets of the Reef 20", "Stand-Up Sunday 20", "Gadget Lab 20"])
    for number, e in enumerate((e for e in guide["elements"] if e.get("opens") == "live" and e.get("text")), start=1):
        e["text"] = f"{number} {e['text']} {next(shows)}"
        e["name"] = e["text"].lower()
    path = tmp_path / "streamtv.explored.yaml"
    path.write_text(yaml.safe_dump(tree, sort_keys=False))
    monkeypatch.setattr(conftest, "DEMO_TREE", path)


@pytest.mark.parametrize("task, number", [
    ("make sure the channel on now is Cinema Nova", "3"),
    ("check we are watching Kids Planet", "4"),
])
def test_a_channel_named_is_the_guide_row_that_starts_with_its_name(explored_guide: None, task: str,
                                                                    number: str) -> None:
    p = plan(task, node="live")
    assert p.feasible, p.analysis
    assert any(params.get("text") == number for _, params in steps(p)), steps(p)


def test_a_word_inside_a_row_is_still_not_a_channel(explored_guide: None) -> None:
    p = plan("check the channel is Nova", node="live")   # "Nova" names no channel: say which
    assert not p.feasible


@pytest.mark.parametrize("task, number", [
    ("could you put channel Laugh Track on for us?", "7"),
    ("put ch 6 on please", "6"),
])
def test_put_a_channel_on_with_a_polite_tail(task: str, number: str) -> None:
    p = plan(task, node="home")
    assert p.feasible, p.analysis
    tuned = ("press_key", {"key": f"DIGIT_{number}"}) in steps(p) or \
        ("click_element", {"selector": f".guide-row[data-channel='{number}']"}) in steps(p)
    assert tuned, steps(p)
