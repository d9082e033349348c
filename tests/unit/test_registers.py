"""Tasks in registers the planner's phrasings had not covered (server.planners.registers): dictated with fillers,
written by a non-native speaker, acceptance criteria in one sentence, terse regression steps. Wordings are this
test's own, on the demo's tree; each fails before."""
from __future__ import annotations

import pytest

from server.planners.registers import reword
from tests.unit.test_builtin_planner import plan, steps

_SUBS = "#setting-subtitles"


@pytest.mark.parametrize("task, said", [
    ("ok so um open the guide", "open the guide"),
    ("yeah uh switch to channel 4 you know", "switch to channel 4"),
    ("so like open live tv and like go up two channels", "open live tv and go up two channels"),
    ("please to pause the film", "please pause the film"),
    ("make play Comedy Gala and after you do pause on it", "play Comedy Gala and then pause it"),
    ("I want that subtitles are deactivated", "turn subtitles off"),
    ("search Robo Pals and start it for watching", "search Robo Pals and play it"),
    ("As a tester, I want to open the guide, so that Kids Planet is listed",
     "open the guide, then check Kids Planet is listed"),
    ("Given I am on the settings screen, when I switch subtitles on, then the label should read On",
     "go to the settings screen, then switch subtitles on, then check the label should read On"),
    ("Live TV -> CH- x3", "Live TV -> CH- 3 times"),
    ("1) open Movies 2) pick Neon Tides 3) press Play", "open Movies, then pick Neon Tides, then press Play"),
    ("Subtitles ON (PIN 1234)", "turn Subtitles on with PIN 1234"),
    ("Exp: state = Paused", "Expected: state shows Paused"),
])
def test_a_register_is_said_in_the_planners_words(task: str, said: str) -> None:
    assert reword(task) == said


@pytest.mark.parametrize("task", [
    "add a todo called like a boss", "set owner_email = x", "filter the products down to category = Kitchen",
    "add a todo: buy milk x2", "Melody TV is on channel 5. Check the banner.", "update the price so that it costs 75",
    "Customers -> Add", "check Monstera is at the top", "Home page: append the sentence 'Hi'",
    # (a review's: a state said, a key said first, words that only look like fillers or abbreviations)
    "Go to Settings. Subtitles are ON", "OK, then check the player shows Playing", "Fritz Lang movie", "10 mm",
    "Exp. date 12/26", "Make sure playback is still running after you press OK",
])
def test_what_is_no_register_of_these_stays_as_said(task: str) -> None:
    assert reword(task) == task


def test_dictated_steps_are_planned() -> None:
    assert steps(plan("ok so uh go to settings and um turn subtitles on", node="home")) == [
        ("goto", {"node": "settings"}), ("click_until", {"selector": _SUBS, "expect": "On"})]


def test_terse_steps_with_keys_and_a_check_are_planned() -> None:
    assert steps(plan("Live TV -> CH+ x2 -> verify banner = Cinema Nova", node="home")) == [
        ("goto", {"node": "live"}), ("press_key", {"key": "CHANNEL_UP", "repeat": 2}),
        ("wait_for_element", {"text": "Cinema Nova", "selector": "#channel-banner", "present": True})]
    assert steps(plan("Settings > Subtitles: ON", node="home")) == [
        ("goto", {"node": "settings"}), ("click_until", {"selector": _SUBS, "expect": "On"})]


def test_a_user_story_is_its_request_then_its_outcome() -> None:
    got = steps(plan("As a viewer, when I open Replay and choose Star Cadets, the episode should start playing.",
                     node="home"))
    assert got[:2] == [("goto", {"node": "replay"}), ("click_element", {"selector": ".replay-item[data-index='3']"})]
    assert ("wait_for_element", {"text": "Playing", "selector": "#player-state", "present": True}) in got
    got = steps(plan("As a parent, I want to enable the parental lock using the PIN 0000, so that the setting is "
                     "shown as On.", node="home"))
    assert got[-1] == ("wait_for_element", {"text": "On", "selector": "#setting-parental", "present": True})


def test_a_claim_then_a_bare_verify_is_that_claim_checked() -> None:
    p = plan("The Quiet Valley detail page: genre should read Drama. Verify, don't play.", node="home")
    assert steps(p)[-1] == ("click_element", {"selector": ".movie-tile[data-slug='the-quiet-valley']"})
    assert p.pending[0] == "check genre should read Drama"


def test_an_ok_before_a_request_is_a_filler_and_before_then_it_is_the_key() -> None:
    assert reword("ok check that the banner says Aurora News") == "check that the banner says Aurora News"
    assert reword("OK then press back") == "OK then press back"


def test_what_the_player_shows_after_a_pause_is_read_as_shown() -> None:
    got = steps(plan("pause playback, then check the player shows the state Paused", node="player"))
    assert got[-1] == ("wait_for_element", {"text": "Paused", "present": True})
