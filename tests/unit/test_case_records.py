"""Test-case records as CI jobs and test-management tools print them (an id and a title, then fields; key=value
words; YAML-ish lines with nested checks; preconditions; an id then steps), said as one sentence the planner reads.
Each form is shown in words of its own, flattened, restated and planned on the demo TV; the guards (what must stay
as it was) sit beside them."""
from __future__ import annotations

import pytest

from server.planners import records_layout
from server.planners.layouts import flatten
from server.planners.restating import restate
from tests.unit.test_builtin_planner import plan, steps


# ---------------------------------------------------------------- an id and a title, then a row of fields

@pytest.mark.parametrize("said, flat", [
    ("QA-88 kids zapping | action: tune | channel: 4 | expect now playing: Robo Pals",
     'switch to channel 4. Expected: now playing shows "Robo Pals"'),
    ("REG_14 sports zapping | ch: 2 | expect banner: Boreal Sports",
     'switch to channel 2. Expected: banner shows "Boreal Sports"'),
    ("#310 | screen=Settings | expect audio language: English",
     'go to Settings. Expected: audio language shows "English"'),
    ("Case 9 | query: tides | expect result: Neon Tides", 'search for tides. Expected: result shows "Neon Tides"'),
    ("tv/menus.spec.ts | menu: Replay | action: play | item: Star Cadets", "open Replay, then play Star Cadets"),
    ("test: guide row | Guide > Wild Earth | expect now playing: Secrets of the Reef",
     'Guide > Wild Earth. Expected: now playing shows "Secrets of the Reef"'),
])
def test_an_id_and_a_title_before_a_row_of_fields_say_nothing_to_do(said: str, flat: str) -> None:
    assert flatten(said) == flat


def test_a_one_word_action_is_what_the_next_field_does() -> None:
    # "action: search" then "query: …" is one search; "action: select" then "row: 2" selects row 2
    assert flatten("REG-2 | action: search | query: harbor") == "search for harbor"
    assert flatten("REG-3 | screen: Guide | action: select | row: 2") == "go to Guide, then select row 2"


def test_a_field_names_what_a_bare_expected_value_is_of() -> None:
    assert flatten("REG-31 release year | movie=Paper Kingdoms | field=year | expected=2020") == \
        'open Paper Kingdoms. Expected: year shows "2020"'
    assert flatten("QA-5 | title=Silent Harbor | attribute=genre | expected=Thriller") == \
        'open Silent Harbor. Expected: genre shows "Thriller"'


def test_steps_as_a_path_and_asserts_cut_at_commas_are_the_path_then_its_checks() -> None:
    said = "job: nightly-vod | steps: Movies > Neon Tides > Play | assert: title = Neon Tides, state = Playing"
    assert flatten(said) == 'Movies > Neon Tides > Play. Expected: title shows "Neon Tides", then check state ' \
                            'shows "Playing"'


# ---------------------------------------------------------------- an id, then its steps

@pytest.mark.parametrize("said, flat", [
    ("tv/zap_up.spec.ts: open Live TV -> press channel up -> assert now_playing == 'Alpine Ski Cup'",
     'open Live TV, then press channel up, then check now playing shows "Alpine Ski Cup"'),
    ("SMOKE-4: open Replay → select Ocean Giants → verify playerState = 'Playing' and title == \"Ocean Giants\"",
     'open Replay, then select Ocean Giants, then check player state shows "Playing", then check title shows '
     '"Ocean Giants"'),
    ("tests/test_tv.py::test_settings: open Settings -> expect(audioLanguage).toHaveText('English')",
     'open Settings, then check audio language shows "English"'),
    ("[QA-12] movies tab: Movies > The Last Orbit", "Movies > The Last Orbit"),
])
def test_an_id_then_a_colon_then_steps_is_the_steps_with_asserts_checked_where_said(said: str, flat: str) -> None:
    assert flatten(said) == flat


def test_a_value_in_quotes_is_one_value_even_with_a_separator_inside() -> None:
    said = "ui/search.spec: open Search -> assert query == 'a; b && c'"
    assert flatten(said) == 'open Search, then check query shows "a; b && c"'


# ---------------------------------------------------------------- key=value words

def test_key_value_words_are_fields_the_id_dropped_and_names_said_in_words() -> None:
    said = ('tc_id=QA-401 from=home page=movies pick=second_tile expect_page=movie_detail '
            'expect_title="The Last Orbit" expect_synopsis="A stranded engineer"')
    assert flatten(said) == ('go to home, then go to movies, then select the second tile. Expected: movie detail is '
                             'shown, then check title shows "The Last Orbit", then check synopsis shows '
                             '"A stranded engineer"')


def test_key_value_words_after_an_id_of_their_own_are_a_record() -> None:
    assert flatten('REG-77 screen=search query=orbit expect_first_result="The Last Orbit"') == \
        'go to search, then search for orbit. Expected: first result shows "The Last Orbit"'
    # "expected_result=…" is what is expected, said as it is
    assert flatten("REG-78 screen=search query=zzz expected_result=empty") == \
        "go to search, then search for zzz. Expected: empty"


# ---------------------------------------------------------------- YAML-ish lines

def test_a_yaml_record_with_a_nested_expect_block() -> None:
    said = ("- step: replay_ocean\n"
            "  from: home\n"
            "  screen: Replay\n"
            "  item: 'Ocean Giants'\n"
            "  expect:\n"
            "    title: Ocean Giants\n"
            "    playback_state: Playing\n")
    assert flatten(said) == ('go to home, then go to Replay, then open Ocean Giants. Expected: title shows '
                             '"Ocean Giants", then check playback state shows "Playing"')


def test_a_list_of_yaml_records_checks_each_before_the_next_starts() -> None:
    said = ("- id: tc_open\n"
            "  steps:\n"
            "    - Replay\n"
            "    - Comedy Gala\n"
            "  assert:\n"
            "    - state == Playing\n"
            "- id: tc_pause\n"
            "  steps:\n"
            "    - press Pause\n"
            "  assert:\n"
            "    - state == Paused\n")
    assert flatten(said) == ('open Replay, then open Comedy Gala, then check state shows "Playing", then press Pause. '
                             'Expected: state shows "Paused"')


def test_a_record_on_lines_under_its_title_with_a_precondition() -> None:
    said = ("CASE 21 Parental lock\n"
            "  setup: on the Settings screen, Parental lock: Off\n"
            "  priority: P2\n"
            "  action: turn the parental lock on\n"
            "  expected: 'Parental lock: On'; subtitles unchanged (Off)\n")
    assert flatten(said) == ('go to Settings, then check Parental lock shows "Off", then turn the parental lock on. '
                             'Expected: Parental lock shows "On", then check subtitles shows "Off"')


def test_a_precondition_that_states_a_value_is_checked_never_made_so() -> None:
    said = "TC-60 audio\nprecondition: Audio language = English\naction: set audio language to Spanish"
    assert flatten(said).startswith('check Audio language shows "English", then set audio language to Spanish')


def test_numbered_steps_under_a_title_are_steps() -> None:
    said = "QA-3 guide zap\n1. open Guide\n2. select Laugh Track\nExpected: now playing shows Stand-Up Sunday"
    assert flatten(said) == "open Guide, then select Laugh Track. Expected: now playing shows Stand-Up Sunday"


def test_a_path_of_steps_and_an_assert_on_lines() -> None:
    assert flatten("steps: Replay > Star Cadets\nassert: state = Playing") == \
        'Replay > Star Cadets. Expected: state shows "Playing"'


# ---------------------------------------------------------------- restated

@pytest.mark.parametrize("said, restated", [
    ("REG_14 tides year | movie=Neon Tides | field=year | expected=2023", 'open Neon Tides. check year shows "2023"'),
    ("#310 audio | setup: in Settings | action: set audio language to French | assert: audio_language == French",
     'go to Settings, then set audio language to French. check audio language shows "French"'),
])
def test_a_record_restated_is_its_steps_then_its_checks(said: str, restated: str) -> None:
    assert restate(said) == restated


# ---------------------------------------------------------------- guards: what is no record

@pytest.mark.parametrize("said", [
    "go to settings and set audio to French",
    "check the banner says 'CH 5 | Melody TV'",
    'check the banner says "CH 2 | Boreal Sports"',
    "Note: the PIN is 0000, turn the lock on",
    "search for a=b",
    "send the log to qa.team@example.test",
    "open https://x.test/?a=1&b=2",
    "open https://x.test/?a=1 and https://x.test/?b=2",
    "TC-5",
    "QA-9 Live TV smoke",
    "user=ann pass=secret",
    "a=1 b=2",
    "Test 3 times: press channel up",
    "CH-4: Kids Planet",
    "Expected: Now: Robo Pals",
])
def test_a_sentence_an_address_or_an_id_alone_is_no_record(said: str) -> None:
    assert records_layout.records(said) is None
    assert flatten(said) == said


@pytest.mark.parametrize("said, flat", [
    ("Steps to reproduce:\n1. Go to Settings\n2. Turn on subtitles\nExpected result: Subtitles show On",
     "Go to Settings, then Turn on subtitles. Expected: Subtitles show On"),
    ("#1 open Movies\n#2 select Neon Tides", "open Movies, then select Neon Tides"),
    ("- channel: 7\n- expect now playing: Stand-Up Sunday", 'switch to channel 7. Expected: now playing shows '
                                                           '"Stand-Up Sunday"'),
    ("Note: the PIN is 0000\nTODO: turn the lock on", "Note: the PIN is 0000 TODO: turn the lock on"),
    ("channel=8 | expect now: Gadget Lab", 'switch to channel 8. Expected: now shows "Gadget Lab"'),
])
def test_a_report_a_numbered_list_a_checklist_and_a_plain_row_read_as_before(said: str, flat: str) -> None:
    assert flatten(said) == flat


# ---------------------------------------------------------------- planned on the demo TV

def test_a_titled_row_tunes_and_checks_the_now_line() -> None:
    got = steps(plan("QA-88 kids zapping | action: tune | channel: 4 | expect now playing: Robo Pals", node="home"))
    assert got == [("goto", {"node": "live"}), ("press_key", {"key": "DIGIT_4"}),
                   ("wait_for_element", {"text": "Robo Pals", "selector": "#live-now", "present": True})]


def test_key_value_words_open_a_movie_and_check_its_year() -> None:
    got = steps(plan("case_id=REG-19 start=home screen=movies select=silent_harbor expect_year=2021", node="home"))
    assert ("click_element", {"selector": ".movie-tile[data-slug='silent-harbor']"}) in got
    assert got[-1] == ("wait_for_element", {"text": "2021", "selector": "#movie-year", "present": True})


def test_a_yaml_record_plays_a_replay_and_checks_the_player() -> None:
    said = '- step: replay_ocean\n  from: home\n  screen: Replay\n  item: "Ocean Giants"\n  expect:\n    state: Playing'
    got = steps(plan(said, node="home"))
    assert ("click_element", {"selector": ".replay-item[data-index='5']"}) in got
    assert got[-1] == ("wait_for_element", {"text": "Playing", "selector": "#player-state", "present": True})


def test_a_record_with_a_precondition_checks_it_before_the_action() -> None:
    said = ("CASE 7 Audio to Spanish\n  setup: on the Settings screen, Audio language: English\n"
            "  action: set audio language to Spanish\n  expected: Audio language: Spanish; subtitles unchanged (Off)")
    got = steps(plan(said, node="home"))
    before = ("wait_for_element", {"text": "English", "selector": "#setting-audio", "present": True})
    act = ("click_until", {"selector": "#setting-audio", "expect": "Spanish"})
    assert got[0] == ("goto", {"node": "settings"}) and got.index(before) < got.index(act)
    assert got[-1] == ("wait_for_element", {"text": "Off", "selector": "#setting-subtitles", "present": True})


def test_a_job_with_a_path_of_steps_plays_the_movie_and_checks_the_player() -> None:
    got = steps(plan("job: nightly-vod | steps: Movies > Neon Tides > Play | assert: player title = Neon Tides, "
                     "player state = Playing", node="home"))
    assert ("click_element", {"selector": "#btn-play"}) in got
    assert got[-2:] == [("wait_for_element", {"text": "Neon Tides", "selector": "#player-title", "present": True}),
                        ("wait_for_element", {"text": "Playing", "selector": "#player-state", "present": True})]


def test_an_id_then_steps_zaps_up_and_checks_what_is_on() -> None:
    got = steps(plan("tv/zap_up.spec.ts: open Live TV -> press channel up -> assert now_playing == 'Alpine Ski Cup'",
                     node="home"))
    assert got[-1] == ("wait_for_element", {"text": "Alpine Ski Cup", "selector": "#live-now", "present": True})
    assert ("press_key", {"key": "CHANNEL_UP", "repeat": 1}) in got
