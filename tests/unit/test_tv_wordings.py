"""TV testers' wordings, planned on the demo's screens as an explorer drafts them (parameterised movie and player
pages): written for this file, not taken from the task corpus."""
from __future__ import annotations

import pytest

from server.planners.language import read_clause, restate
from tests.unit.conftest import demo_context
from tests.unit.test_intents_param import _planned, param_context


@pytest.mark.parametrize("task, said", [
    ("show me what's on live TV", "open live TV"),
    ("I need the audio in Spanish", "set the audio to Spanish"),
    ("what year is Silent Harbor from? it should be 2018", "check the year of Silent Harbor is 2018"),
])
def test_restated(task: str, said: str) -> None:
    assert read_clause(restate(task)).text == said


def test_flip_over_to_a_channel_tunes_to_it() -> None:
    assert read_clause("flip over to Melody TV").act.value == "tune"
    got = _planned("flip over to Melody TV", demo_context())
    assert "Melody TV" in str(got)


def test_a_field_of_an_item_said_with_its_value_is_checked_on_the_item_s_page() -> None:
    got = _planned("what year is Silent Harbor from? it should be 2018")
    assert got[0] == ("goto", {"node": "movie", "param": "Silent Harbor"})
    assert got[-1][1].get("text") == "2018"


def test_is_an_item_listed_under_a_screen_checks_it_there() -> None:
    got = _planned("is River of Glass listed under movies?", demo_context())
    assert got[0] == ("goto", {"node": "movies"})
    assert "River of Glass" in str(got[-1][1]) and "listed" not in str(got[-1][1])


def test_a_play_control_that_opens_the_player_is_not_expected_to_show_its_own_label() -> None:
    from dataclasses import replace

    from server.planners.grounding import Target, TargetKind
    from server.planners.intents_act import _expect_after_declared
    from server.planners.state import State

    ctx = param_context()
    draft = replace(ctx, navigation=replace(ctx.navigation, complete=False))   # an explored draft: an open world
    movie = next(n for n in draft.navigation.nodes if n.id == "movie")
    play = next(e for e in movie.elements if e.text == "Play")
    st = State(draft, "movie")
    _expect_after_declared(st, Target(TargetKind.TREE_ELEMENT, 1.0, "Play", node=movie, element=play))
    assert st.expect is None   # the player shows the movie and a Pause control, not "Play"


def test_a_channel_said_to_be_on_is_on_the_air_not_a_setting_switched_on() -> None:
    from dataclasses import replace

    from shared.models import ElementInfo

    ctx = param_context()
    row = ElementInfo("tech today", "8 Tech Today Gadget Lab 20:00 – 20:45", "#guide-list > button:nth-of-type(8)")
    # the guide as an explorer drafts it: the channel's row, with all it shows
    nodes = tuple(replace(n, elements=(*(e for e in n.elements if e.name != "tech today"), row)) if n.id == "guide"
                  else n for n in ctx.navigation.nodes)
    draft = replace(ctx, navigation=replace(ctx.navigation, nodes=nodes, complete=False))
    got = _planned("switch to channel 8 and make sure Tech Today is on", draft)
    assert ("press_key", {"key": "DIGIT_8"}) in got
    assert got[-1][1].get("text") == "Tech Today" and got[-1][1].get("text") != "On"
    setting = _planned("make sure the subtitles are on", draft)
    assert setting[-1][1].get("text") == "On"
