"""More of a TV tester's wordings on the demo's tree: short forms, what is told first, a question after a request, a
check of where the device ends up, a setting that asks for a PIN, a field of an item's page. Each case is a general
rule; the wordings are the tests' own."""
from __future__ import annotations

import pytest

from tests.unit.test_builtin_planner import plan, steps

BANNER_8 = ("wait_for_element", {"text": "8", "selector": "#channel-banner", "present": True})


@pytest.mark.parametrize("task", ["ch 8", "ch8 please", "switch to ch. 8"])
def test_ch_is_channel(task: str) -> None:
    assert steps(plan(task, node="live")) == [("press_key", {"key": "DIGIT_8"}), BANNER_8]


def test_a_question_after_a_channel_is_checked_never_dropped() -> None:
    # before: the whole clause was read as "channel 8" and the question was never asked
    got = steps(plan("tune to ch 8 - is the banner showing Aurora News?", node="live"))
    assert got[-1] == ("wait_for_element", {"text": "Aurora News", "selector": "#channel-banner", "present": True})
    got = steps(plan("put channel 2 on to see if Boreal Sports shows", node="live"))
    assert got[-1] == ("wait_for_element", {"text": "Boreal Sports", "present": True})
    # a clause that says more than the channel, that nothing reads, is refused rather than half done
    assert not plan("channel 3 with the volume at the max", node="live").feasible


def test_where_the_device_must_end_up_is_checked_and_never_tuned_first() -> None:
    got = steps(plan("channel up x3, it should land on channel 4", node="live"))
    assert got[0] == ("press_key", {"key": "CHANNEL_UP", "repeat": 3})
    assert got[-1] == ("wait_for_element", {"text": "4", "selector": "#current-channel", "present": True})
    assert not any(s[1].get("key", "").startswith("DIGIT") for s in got)   # checking channel 4 never tunes it
    got = steps(plan("i'm on channel 2 - channel down once, should end up on Aurora News", node="live"))
    # the channel's number on the element of the current channel, not its name anywhere (the guide's rows name every
    # channel, and the banner hides)
    assert got[-1] == ("wait_for_element", {"text": "1", "selector": "#current-channel", "present": True})
    assert steps(plan("check we are on channel 6", node="live")) == [
        ("wait_for_element", {"text": "6", "selector": "#current-channel", "present": True})]


def test_a_channel_or_programme_is_on_when_shown_and_a_setting_when_its_state_says_so() -> None:
    assert steps(plan("is Cinema Nova what's on right now?", node="live")) == [
        ("wait_for_element", {"text": "3", "selector": "#current-channel", "present": True})]
    assert steps(plan("check subtitles are on", node="settings")) == [
        ("wait_for_element", {"text": "On", "selector": "#setting-subtitles", "present": True})]


def test_the_players_toggle_is_pressed_until_its_state_says_so() -> None:
    pause = ("click_until", {"selector": "#btn-playpause", "expect": "Paused", "shows": "#player-state",
                             "max_clicks": 2})
    for task in ("hit pause", "press the pause button", "pause it"):
        assert steps(plan(task, node="player")) == [pause], task
    got = steps(plan("The video is paused - get it going again and make sure it is really playing", node="player"))
    assert got[0][1]["expect"] == "Playing"
    assert got[-1] == ("wait_for_element", {"text": "Playing", "selector": "#player-state", "present": True})


def test_a_setting_that_asks_for_a_pin_is_given_it() -> None:
    for task in ("switch on the parental controls, the PIN is 0000", "enable parental lock using pin 0000",
                 "turn the parental lock on (PIN 0000)"):
        got = steps(plan(task, node="settings"))
        assert got == [("wait_for_element", {"text": "Off", "selector": "#setting-parental", "present": True}),
                       ("click_element", {"selector": "#setting-parental"}),
                       ("input_text", {"text": "0000", "selector": "#pin-input", "clear": True}),
                       ("click_element", {"selector": "#pin-ok"}),
                       ("wait_for_element", {"text": "On", "selector": "#setting-parental", "present": True})], task


def test_a_fact_of_an_item_is_read_on_its_own_page_after_it_is_opened() -> None:
    got = steps(plan("check River of Glass came out in 2019", node="movies"))
    assert got == [("click_element", {"selector": ".movie-tile[data-slug='river-of-glass']"}),
                   ("wait_for_element", {"text": "River of Glass", "selector": "#movie-title", "present": True}),
                   ("wait_for_element", {"text": "2019", "selector": "#movie-year", "present": True})]
    got = steps(plan("open the details of Paper Kingdoms. The year should be 2020", node="movies"))
    assert got[0] == ("click_element", {"selector": ".movie-tile[data-slug='paper-kingdoms']"})
    assert ("wait_for_element", {"text": "2020", "selector": "#movie-year", "present": True}) in got


@pytest.mark.parametrize("task, first", [
    ("begin playback of Neon Tides", ("goto", {"node": "movies"})),
    ("play last night's Comedy Gala from catch-up", ("goto", {"node": "replay"})),
    ("is the audio language set to Spanish? check it in the settings", ("goto", {"node": "settings"})),
])
def test_what_surrounds_a_name_is_not_part_of_it(task: str, first: tuple) -> None:
    assert steps(plan(task, node="home"))[0] == first, task


def test_what_a_question_asks_about_is_what_it_refers_to() -> None:
    got = steps(plan("whats the number of Melody TV? switch to it", node="home"))
    assert got[-1] == ("wait_for_element", {"text": "Melody TV", "selector": "#channel-banner", "present": True})


def test_a_name_checked_on_a_list_is_no_field_of_the_page() -> None:
    # found by the dev split: "Tech Today is listed" on the guide was read as Tech Today's field, valued "listed"
    assert steps(plan("open the guide, then check Tech Today is listed", node="home")) == [
        ("goto", {"node": "guide"}), ("wait_for_element", {"text": "Tech Today", "present": True})]


def test_an_item_played_by_its_position_is_played_and_seen_playing() -> None:
    # before: "play the second movie" opened its page and passed, nothing playing
    assert steps(plan("play the third film", node="home"))[-2:] == [
        ("click_element", {"selector": "#btn-play"}),
        ("wait_for_element", {"text": "Playing", "selector": "#player-state", "present": True})]


def test_a_setting_asked_enabled_is_its_value_never_the_controls_own_enabled_state() -> None:
    # before: "is parental lock enabled?" passed on any element named so that could be clicked
    assert steps(plan("is parental lock enabled?", node="home"))[-1] == \
        ("wait_for_element", {"text": "On", "selector": "#setting-parental", "present": True})
    assert steps(plan("are subtitles switched off?", node="settings")) == [
        ("wait_for_element", {"text": "Off", "selector": "#setting-subtitles", "present": True})]


def test_a_title_said_playing_or_paused_is_the_players_title_and_its_state() -> None:
    assert steps(plan("check Silent Harbor is paused", node="player")) == [
        ("wait_for_element", {"text": "Silent Harbor", "selector": "#player-title", "present": True}),
        ("wait_for_element", {"text": "Paused", "selector": "#player-state", "present": True})]


@pytest.mark.parametrize("task, got", [
    ("take me to the movie section", ("goto", {"node": "movies"})),
    ("I'd like to see what's on the guide", ("goto", {"node": "guide"})),
    ("turn the subtitles off if they are on", ("click_until", {"selector": "#setting-subtitles", "expect": "Off"})),
])
def test_more_ways_to_say_a_place_or_a_setting(task: str, got: tuple) -> None:
    assert steps(plan(task, node="home"))[-1] == got, task


def test_a_field_of_an_item_that_holds_words() -> None:
    assert steps(plan("check the synopsis of Neon Tides mentions the sea", node="movies"))[-1] == \
        ("wait_for_element", {"text": "sea", "selector": "#movie-synopsis", "present": True})
    assert steps(plan("verify the guide lists 8 channels", node="home"))[0] == ("goto", {"node": "guide"})


def test_a_check_said_after_the_step_it_follows_and_arrow_moves() -> None:
    assert steps(plan("the banner should read 3 Cinema Nova after switching to channel 3", node="live")) == [
        ("press_key", {"key": "DIGIT_3"}),
        ("wait_for_element", {"text": "3 Cinema Nova", "selector": "#channel-banner", "present": True})]
    assert steps(plan("navigate down 2 and press ok", node="home")) == [
        ("press_key", {"key": "DOWN", "repeat": 2}), ("press_key", {"key": "OK"})]
    assert steps(plan("watch channel 2 for a bit", node="live"))[0] == ("press_key", {"key": "DIGIT_2"})


def test_where_a_thing_is_listed_is_opened_to_check_it() -> None:
    assert steps(plan("confirm River of Glass is in the movies list", node="home"))[0] == ("goto", {"node": "movies"})
    assert steps(plan("is there a movie called Neon Tides?", node="home"))[0] == ("goto", {"node": "movies"})
    # a kind that is only a keyword of a screen (channels: Live TV) names no place to look
    assert steps(plan("is there a channel called Wild Earth", node="home"))[0][0] == "wait_for_element"


def test_a_toggle_with_no_end_state_selects_the_setting_once() -> None:
    assert steps(plan("toggle subtitles", node="home")) == [
        ("goto", {"node": "settings"}), ("click_element", {"selector": "#setting-subtitles"})]


@pytest.mark.parametrize("task, key", [("press CH -", "CHANNEL_DOWN"), ("press 'CH -'", "CHANNEL_DOWN"),
                                       ("hit CH+", "CHANNEL_UP"), ("click CH -", "CHANNEL_DOWN")])
def test_the_channel_keys_are_told_apart_by_their_sign(task: str, key: str) -> None:
    # before: "CH -" and "CH +" were one name once their signs were dropped, and CH + was pressed for both
    assert steps(plan(task, node="live"))[0] == ("press_key", {"key": key, "repeat": 1}), task
