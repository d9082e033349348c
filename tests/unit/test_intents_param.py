"""'open <item>' grounds to a parameterised node with that item: goto(node, param=item)."""
from __future__ import annotations

import pytest
import yaml

from backend_core.executors.navigation import GOTO_SPEC
from backend_core.navigation.tree import NavigationTree
from server.planners import builtin
from server.planners.base import PlanRequest
from server.planners.intents_param import item_of, param_intent
from server.planners.language import read_clause
from server.planners.state import State
from shared.commands import CommandKind
from shared.models import ExecutorContext, PlanningContext
from tests.unit.conftest import DEMO_TREE, demo_context

PLAYER_ITEMS = ["Election Night Special Aurora News · Yesterday 21:00", "Jazz at the Lake Melody TV · Fri 22:00"]


def param_context() -> PlanningContext:
    """The demo's context with its movie and player screens parameterised, as the explorer drafts them."""
    raw = yaml.safe_load(DEMO_TREE.read_text())
    for n in raw["nodes"]:
        if n["id"] == "movie":
            n.update(label="Movie detail for {title}", param="title",
                     items=["The Last Orbit", "River of Glass", "Silent Harbor"],
                     param_verifications=[{"command": "waitForElementToAppear",
                                           "params": {"selector": "#movie-title", "text": "{title}"}}])
        if n["id"] == "player":
            n.update(param="name", items=PLAYER_ITEMS)
    for e in raw["edges"]:
        if e["to"] == "movie":
            e.update(param="title", actions=[{"command": "click_element", "params": {"text": "{title}"}}])
            e.pop("retry_actions")
    tree = NavigationTree.from_dict(raw, base_dir=DEMO_TREE.parent)
    base = demo_context()
    nav = ExecutorContext(CommandKind.NAVIGATION, (GOTO_SPEC,), tuple(tree.node_infos()))
    return PlanningContext(base.device_model, base.userinterface, base.action, base.verification, nav, "home")


def ground(task: str) -> State | None:
    st = State(param_context(), "home")
    return st if param_intent(read_clause(task), st) else None


def test_open_an_item_goes_to_its_node_with_the_item() -> None:
    st = ground("open River of Glass")
    assert st is not None
    assert [(s.command, s.params) for s in st.steps] == [("goto", {"node": "movie", "param": "River of Glass"})]
    assert st.node == "movie"


def test_the_item_is_spelled_as_the_device_spells_it() -> None:
    st = ground("open the movie river of glass")
    assert st is not None and st.steps[0].params["param"] == "River of Glass"


def test_an_item_starting_with_an_article_keeps_it() -> None:
    ctx = param_context()
    assert item_of("The Last Orbit", ctx.nodes["movie"]) == (1.0, "The Last Orbit")
    assert item_of("the last orbit", ctx.nodes["movie"]) == (1.0, "The Last Orbit")


def test_open_a_title_with_an_article_keeps_the_whole_title() -> None:
    st = ground("open The Last Orbit")
    assert st is not None and st.steps[0].params["param"] == "The Last Orbit"


def test_part_of_a_longer_item_name_is_the_item_as_shown() -> None:
    score, found = item_of("jazz at the lake", param_context().nodes["player"])
    assert score >= 0.85 and found == "Jazz at the Lake"


def test_a_screen_name_or_an_unknown_item_is_left_to_other_intents() -> None:
    assert ground("open movies") is None
    assert ground("open the guide") is None
    assert ground("open Casablanca") is None
    assert ground("turn subtitles on") is None


def test_registered_first_the_builtin_planner_plans_it(monkeypatch: pytest.MonkeyPatch) -> None:
    at = [name for name, _ in builtin.INTENTS].index("select")     # just before the generic "open X"
    monkeypatch.setattr(builtin, "INTENTS", [*builtin.INTENTS[:at], ("param", param_intent), *builtin.INTENTS[at:]])
    plan = builtin.BuiltinPlanner().plan(PlanRequest("open Silent Harbor", param_context()))
    assert plan.feasible
    assert ("goto", {"node": "movie", "param": "Silent Harbor"}) in [(s.command, s.params) for s in plan.steps]


def radio_context(current: str) -> PlanningContext:
    """A radio app as the explorer drafts one: stations play on their own screen; a podcast episode's page
    has a Play control of its own; both lists have an item naming "Jazz FM"."""
    check = [{"command": "waitForElementToAppear", "params": {"selector": "h1"}}]
    raw = {"userinterface": "radio", "entry": "home", "nodes": [
        {"id": "home", "label": "Radio", "verifications": check},
        {"id": "stations", "label": "Stations", "verifications": check,
         "elements": [{"name": "station", "selector": ".station", "many": True, "opens": "station"}]},
        {"id": "station", "label": "On Air", "param": "name", "items": ["1 Jazz FM", "2 Talk Radio"],
         "keywords": ["station"], "verifications": check},
        {"id": "podcasts", "label": "Podcasts", "verifications": check,
         "elements": [{"name": "episode", "selector": ".episode", "many": True, "opens": "episode"}]},
        {"id": "episode", "label": "Episode for {name}", "param": "name", "items": ["Jazz FM Classics", "Deep Dive"],
         "verifications": check, "elements": [{"name": "play", "text": "Play", "selector": "#play", "opens": "home"}]},
    ], "edges": [
        {"from": "home", "to": "stations", "actions": [{"command": "click_element", "params": {"text": "Stations"}}]},
        {"from": "home", "to": "podcasts", "actions": [{"command": "click_element", "params": {"text": "Podcasts"}}]},
        {"from": "stations", "to": "station", "param": "name",
         "actions": [{"command": "click_element", "params": {"text": "{name}"}}]},
        {"from": "podcasts", "to": "episode", "param": "name",
         "actions": [{"command": "click_element", "params": {"text": "{name}"}}]},
    ]}
    tree = NavigationTree.from_dict(raw)
    base = demo_context()
    nav = ExecutorContext(CommandKind.NAVIGATION, (GOTO_SPEC,), tuple(tree.node_infos()))
    return PlanningContext("radio", "radio", base.action, base.verification, nav, current)


def radio_plan(task: str, current: str = "home") -> list[tuple[str, dict]]:
    st = State(radio_context(current), current)
    assert param_intent(read_clause(task), st), task
    return [(s.command, s.params) for s in st.steps]


@pytest.mark.parametrize("task", ["put Talk Radio on", "play the station Talk Radio", "tune to Talk Radio"])
def test_an_item_that_plays_on_its_own_screen_is_played_by_opening_it(task: str) -> None:
    assert radio_plan(task) == [("goto", {"node": "station", "param": "Talk Radio"})]


def test_playing_never_stops_on_a_page_that_has_its_own_play_control() -> None:
    # "Jazz FM Classics" names Jazz FM too, but its page only leads to playing: the station is what plays
    assert radio_plan("play Jazz FM") == [("goto", {"node": "station", "param": "Jazz FM"})]


def test_an_item_of_the_list_on_screen_is_preferred() -> None:
    assert radio_plan("pick Jazz FM", current="podcasts") == [("goto", {"node": "episode", "param": "Jazz FM"})]
    assert radio_plan("pick Jazz FM", current="stations") == [("goto", {"node": "station", "param": "Jazz FM"})]


@pytest.mark.parametrize("task", ["go to the film section", "open films", "go to the movie screen"])
def test_a_page_of_one_item_named_with_no_item_is_not_where_a_plain_screen_name_goes(task: str) -> None:
    # "Movie detail for {title}" is a page of one movie: with none named, "movie" means the list of them
    p = builtin.BuiltinPlanner().plan(PlanRequest(task, param_context()))
    assert p.feasible, p.analysis
    assert [(s.command, s.params) for s in p.steps] == [("goto", {"node": "movies"})]


@pytest.mark.parametrize("task", ["take me back to the home screen", "bring us over to settings",
                                  "get me back to the guide"])
def test_take_me_to_a_screen_is_going_there(task: str) -> None:
    clause = read_clause(task)
    assert clause.act.value == "navigate"
    p = builtin.BuiltinPlanner().plan(PlanRequest(task, param_context()))
    assert p.feasible and p.steps[0].command == "goto", p.analysis


def test_catch_up_is_what_a_tv_calls_its_replay() -> None:
    from server.planners.grounding import similarity

    assert similarity("catch up", "Replay") >= 0.95 and similarity("catch-up", "replay") >= 0.95


def _planned(task: str, ctx: PlanningContext | None = None) -> list[tuple[str, dict]]:
    p = builtin.BuiltinPlanner().plan(PlanRequest(task, ctx or param_context()))
    assert p.feasible, p.analysis
    return [(s.command, s.params) for s in p.steps]


@pytest.mark.parametrize("task", ["check that The Last Orbit is from 2022", "The Last Orbit came out in 2022",
                                  "make sure The Last Orbit was released in 2022"])
def test_a_value_said_of_an_item_is_checked_on_the_item_s_own_page(task: str) -> None:
    got = _planned(task)
    assert got[0] == ("goto", {"node": "movie", "param": "The Last Orbit"})
    assert len(got) == 2 and got[1][1].get("text") == "2022"


def test_a_value_said_of_it_is_checked_on_the_page_of_what_was_opened_last() -> None:
    got = _planned("open River of Glass and make sure it came out in 2019")
    assert got[0] == ("goto", {"node": "movie", "param": "River of Glass"})
    assert len(got) == 2 and got[1][1].get("text") == "2019"


def test_a_channel_said_by_its_number_alone_is_tuned_to_and_checked() -> None:
    got = _planned("check that Laugh Track is channel 7", demo_context())
    assert ("press_key", {"key": "DIGIT_7"}) in got and "Laugh Track" in str(got[-1][1])


def test_watching_the_replay_of_an_item_plays_that_item() -> None:
    got = _planned("watch the replay of Jazz at the Lake")
    assert got == [("goto", {"node": "player", "param": "Jazz at the Lake"})]


@pytest.mark.parametrize("task, said", [
    ("start The Last Orbit from the beginning", "start The Last Orbit"),
    ("watch River of Glass all over again", "watch River of Glass"),
    ("what's on Boreal Sports right now? it should be Alpine Ski Cup", "check that Boreal Sports shows Alpine Ski Cup"),
    ("what is showing on channel 4? it should be Robo Pals", "check that channel 4 shows Robo Pals"),
])
def test_tester_wordings_of_playing_and_of_what_a_channel_shows(task: str, said: str) -> None:
    from server.planners.restating import restate

    assert read_clause(restate(task)).text == said


def test_a_page_of_one_item_named_alone_is_still_that_screen() -> None:
    from dataclasses import replace

    ctx = param_context()
    nodes = tuple(replace(n, label="Player for {name}") if n.id == "player" else n for n in ctx.navigation.nodes)
    drafted = replace(ctx, navigation=replace(ctx.navigation, nodes=nodes))
    assert _planned("go to the player", drafted) == [("goto", {"node": "player"})]
