"""TV testers' wordings, planned on the demo's screens as an explorer drafts them (parameterised movie and player
pages): written for this file, not taken from the task corpus."""
from __future__ import annotations

import pytest

from server.planners.language import read_clause
from server.planners.restating import restate
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
    row = ElementInfo("tech today", "8 Tech Today Gadget Lab 20:00 – 20:45", "#guide-list > button:nth-of-type(8)",
                      opens="live")
    # the guide as an explorer drafts it: the channel's row, with all it shows, opening Live TV for that channel
    nodes = tuple(replace(n, elements=(*(e for e in n.elements if e.name != "tech today"), row)) if n.id == "guide"
                  else replace(n, param="channel", items=("8 Tech Today",)) if n.id == "live"
                  else n for n in ctx.navigation.nodes)
    draft = replace(ctx, navigation=replace(ctx.navigation, nodes=nodes, complete=False))
    got = _planned("switch to channel 8 and make sure Tech Today is on", draft)
    assert ("press_key", {"key": "DIGIT_8"}) in got
    assert got[-1][1].get("text") == "Tech Today" and got[-1][1].get("text") != "On"
    setting = _planned("make sure the subtitles are on", draft)
    assert setting[-1][1].get("text") == "On"
    subtitles = ElementInfo("subtitles", "Subtitles None", "#setting-subtitles")   # a settings row: opens nothing
    nodes = tuple(replace(n, elements=(*(e for e in n.elements if e.name != "subtitles"), subtitles))
                  if n.id == "settings" else n for n in draft.navigation.nodes)
    named = _planned("check that Subtitles are on", replace(draft, navigation=replace(draft.navigation, nodes=nodes)))
    assert named[-1][1].get("text") == "On"


def test_synonyms_hold_as_written_and_with_particles_joined() -> None:
    from server.planners.grounding import similarity

    assert similarity("sign out", "Log out") >= 0.95 and similarity("captions on", "Subtitles on") >= 0.95
    assert similarity("catch up", "Replay") >= 0.95


def test_take_me_back_to_the_previous_page_is_back_not_a_previous_link() -> None:
    assert read_clause("take me back to the previous page").act.value == "back"


@pytest.mark.parametrize("task", ["check that Silent Harbor is in Movies", "the rating of River of Glass is 4"])
def test_a_place_or_a_small_number_said_of_an_item_is_not_checked_as_text_on_its_page(task: str) -> None:
    from server.planners.intents_item_facts import item_fact_check
    from server.planners.state import State

    assert not item_fact_check(read_clause(restate(task)), State(param_context(), "home"))


def test_it_after_scrolling_to_an_item_is_not_read_on_the_list() -> None:
    from server.planners.intents_item_facts import item_fact_check
    from server.planners.state import State

    st = State(param_context(), "movies")
    st.last_object, st.last_act = "Silent Harbor", "pointer"   # scrolled to, not opened
    assert not item_fact_check(read_clause("check it was made in 2019"), st)


def test_the_replay_of_an_item_is_an_item_of_what_replay_opens_only() -> None:
    from server.planners.base import PlanRequest
    from server.planners.builtin import BuiltinPlanner

    p = BuiltinPlanner().plan(PlanRequest("watch the live tv of Jazz at the Lake", param_context()))
    assert not any(s.params.get("param") == "Jazz at the Lake" for s in p.steps)


@pytest.mark.parametrize("task, channel, key", [("go one channel down from Boreal Sports", "Boreal Sports", "CHANNEL_DOWN"),
                                                ("move to the next channel from Aurora News", "Aurora News", "CHANNEL_UP")])
def test_a_channel_step_from_a_named_channel_tunes_to_it_first(task: str, channel: str, key: str) -> None:
    got = _planned(task, demo_context())
    tuned = next(i for i, (_, params) in enumerate(got) if params.get("text") == channel)
    assert got[-1] == ("press_key", {"key": key, "repeat": 1}) and tuned < len(got) - 1


def test_a_screen_said_with_a_word_for_a_place_is_that_screen() -> None:
    from dataclasses import replace

    ctx = param_context()   # Replay as a draft names it: no keyword "catch-up" written by hand
    nodes = tuple(replace(n, keywords=("replay",)) if n.id == "replay" else n for n in ctx.navigation.nodes)
    drafted = replace(ctx, navigation=replace(ctx.navigation, nodes=nodes))
    assert _planned("open catch-up TV", drafted) == [("goto", {"node": "replay"})]
    assert _planned("go to live TV", drafted) == [("goto", {"node": "live"})]


@pytest.mark.parametrize("task", ["switch to channel 42", "watch channel 77", "switch to channel 0"])
def test_a_channel_the_guide_does_not_list_is_refused_with_the_line_up(task: str) -> None:
    from server.planners.builtin import BuiltinPlanner
    from server.planners.base import PlanRequest

    p = BuiltinPlanner().plan(PlanRequest(task, demo_context()))
    assert not p.feasible and not p.steps and "channels 1 to 8" in p.analysis


def test_a_channel_the_guide_lists_is_tuned() -> None:
    assert ("press_key", {"key": "DIGIT_8"}) in _planned("tune to channel 8", demo_context())


@pytest.mark.parametrize("task, first", [
    ("get me to the film library", ("goto", {"node": "movies"})),              # a library of films: the Movies
    ("watch the 5th channel", ("goto", {"node": "live"})),
    ("from the home screen open settings", ("goto", {"node": "home"})),
    ("set the soundtrack to Spanish and verify it took effect", ("goto", {"node": "settings"})),
])
def test_more_tv_wordings_written_before_their_first_run(task: str, first: tuple) -> None:
    got = _planned(task, demo_context())
    assert got[0] == first
    assert not any(s[1].get("text") == "it took effect" for s in got)   # the setting's own step proves it


def test_an_ordinal_channel_is_that_number() -> None:
    assert read_clause(restate("watch the third channel")).text == "watch channel 3"


def test_a_check_that_something_was_saved_is_never_dropped() -> None:
    # only "it took effect" after a setting is proved by the setting's own step; a save is proved apart
    assert restate("create a ticket without a summary and check it was saved").endswith("check it was saved")
    assert restate("set the audio to Spanish and verify it took effect") == "set the audio to Spanish"


@pytest.mark.parametrize("task, first, text", [
    ("check that River of Glass is from 2019", ("goto", {"node": "movie", "param": "River of Glass"}), "2019"),
    ("verify that channel 3 is Kids Planet", ("goto", {"node": "live"}), "Kids Planet"),
])
def test_a_check_on_a_screen_of_an_explored_draft_is_planned_at_once(task: str, first: tuple, text: str) -> None:
    """With the home screen shown, a check on a screen of the draft the plan goes to is planned there at once: the
    draft knows that screen. Before, it was put off until the screen was shown, with no step before it, and so
    refused ("nothing called '2023' is on the screen now")."""
    from dataclasses import replace

    from shared.screen import ScreenObservation, UIElement

    ctx = param_context()
    home = ScreenObservation("web", "http://tv.local/#/home", "StreamTV", (
        UIElement("heading", "StreamTV", level=1), UIElement("button", "Live TV"), UIElement("button", "Movies")))
    draft = replace(ctx, navigation=replace(ctx.navigation, complete=False), current_node="home", screen=home)
    got = _planned(task, draft)
    assert got[0] == first
    assert got[-1][0] == "wait_for_element" and got[-1][1].get("text") == text and got[-1][1].get("present") is True


@pytest.mark.parametrize("task, node", [("open the EPG", "guide"), ("go to VOD", "movies")])
def test_a_tv_s_own_words_for_its_screens_need_no_keyword_of_the_tree(task: str, node: str) -> None:
    """An explored draft names its screens by what they show ("Guide", "Movies"); testers of TVs say EPG and VOD."""
    from dataclasses import replace

    ctx = demo_context()
    bare = tuple(replace(n, keywords=()) for n in ctx.navigation.nodes)
    got = _planned(task, replace(ctx, navigation=replace(ctx.navigation, nodes=bare)))
    assert got[0] == ("goto", {"node": node})
