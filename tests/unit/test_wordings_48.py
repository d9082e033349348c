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


def test_a_gherkin_scenario_goes_where_given_does_what_when_says_and_checks_then() -> None:
    from server.planners.gherkin import flatten

    said = flatten("Feature: Guide\n  Scenario: Opening a channel from the guide\n    Given I'm on the Guide screen\n"
                   "    When I select the Wild Earth row\n    Then Live TV is shown\n    And the current channel is 6\n"
                   "    But the banner does not say Melody TV")
    assert said == ("go to the Guide screen, then select the Wild Earth row, then check Live TV is shown, then check "
                    "the current channel is 6, then check the banner does not say Melody TV")
    # on one line, and a Given that states something is checked, never made so
    assert flatten("Scenario: lock Given subtitles are Off When I open Settings Then Parental lock reads Off") == \
        "check subtitles are Off, then open Settings, then check Parental lock reads Off"
    # a sentence that says "When" is no scenario
    assert flatten("When the banner shows, check it says Laugh Track") == "When the banner shows, check it says Laugh Track"


def test_a_scenario_runs_on_the_tv() -> None:
    p = plan("Scenario: a paused film\nGiven I am on the Movies screen\nWhen I play \"Paper Kingdoms\"\n"
             "And I pause playback\nThen the player title is \"Paper Kingdoms\"\nAnd the player state is Paused",
             node="home")
    assert p.feasible, p.analysis
    got = steps(p)
    assert ("wait_for_element", {"text": "Paper Kingdoms", "selector": "#player-title", "present": True}) in got
    assert got[-1] == ("wait_for_element", {"text": "Paused", "selector": "#player-state", "present": True})


@pytest.mark.parametrize("task, count", [("press CH + four times", 4), ("hit CH - one time", 1), ("CH + twice", 2)])
def test_a_key_with_a_sign_and_a_count_in_words(task: str, count: int) -> None:
    p = plan(task, node="live")
    assert p.feasible, p.analysis
    key = [params for command, params in steps(p) if command == "press_key"]
    assert len(key) == 1 and key[0].get("repeat", 1) == count, steps(p)


def test_the_app_s_name_before_a_screen_and_confirming_with_a_key() -> None:
    assert steps(plan("return to the StreamTV home screen", node="guide")) == [("goto", {"node": "home"})]
    got = steps(plan("select Parental lock, key in 4321 and confirm with OK", node="settings"))
    assert got[-1] == ("press_key", {"key": "OK"}) and not any(p.get("text") == "with OK" for _, p in got)
    assert steps(plan("then verify the subtitles remain Off", node="settings")) == [
        ("wait_for_element", {"text": "Off", "selector": "#setting-subtitles", "present": True})]


def test_a_result_of_a_search_no_screen_knows_is_picked_once_the_results_show() -> None:
    p = plan("look up 'planet' in search and pick the result Robo Pals", node="home")
    assert p.feasible, p.analysis
    assert p.pending == ['pick "Robo Pals"'], p.pending


def test_a_tuned_channel_is_proved_before_the_task_goes_to_another_screen() -> None:
    got = steps(plan("tune to channel 2, then make sure subtitles are off", node="home"))
    tuned = got.index(("press_key", {"key": "DIGIT_2"}))
    assert got[tuned + 1][0] == "wait_for_element" and got[tuned + 1][1].get("text") == "2", got
    assert got[-1] == ("wait_for_element", {"text": "Off", "selector": "#setting-subtitles", "present": True})


@pytest.mark.parametrize("message, expected", [
    # an emoji ends a sentence; the greeting, the reason and the sign-off say nothing to do
    ("hey team 👋 the replay of Ocean Giants froze for a viewer 😬 can you play it from Replay and check the player "
     "says Playing? thanks, J.", "can you play Ocean Giants from Replay and check the player says Playing?"),
    ("FYI: someone left the box in room 2 on French audio. Could you set the audio language to English before the "
     "demo? Don't change anything else. Cheers", "Could you set the audio language to English"),
    ("Sales wants a picture of the Settings screen for a slide. Can you open Settings? Kind regards",
     "Can you open Settings?"),
])
def test_a_chat_message_around_its_request(message: str, expected: str) -> None:
    from server.planners.restating import restate

    assert restate(message) == expected


def test_a_name_said_before_is_what_it_means_and_a_team_that_wants_something_is_background() -> None:
    from server.planners.restating import restate

    said = restate("The newsletter claims Paper Kingdoms is from 2017. Could you open it and check its year says 2017?")
    assert "Could you open Paper Kingdoms" in said   # (its sentence, which says 2017, is kept)
    said = restate("The newsletter says Paper Kingdoms is a classic. Could you open it?")
    assert said == "Could you open Paper Kingdoms?", said
    # two names: "it" stays as said
    assert restate("My kids love Robo Pals and Star Cadets. Can you open it?").endswith("open it?")


def test_a_switch_in_a_place_with_its_pin_and_what_must_not_change() -> None:
    got = steps(plan("We're showing this to a client later so please put the Parental lock ON in Settings (PIN is "
                     "still the default 0000). And please don't change the audio language, it should stay English.",
                     node="home"))
    assert ("input_text", {"text": "0000", "selector": "#pin-input", "clear": True}) in got
    assert any(p.get("selector") == "#setting-audio" and p.get("text", "").lower() == "english" for _, p in got), got
    assert got[-1] == ("wait_for_element", {"text": "On", "selector": "#setting-parental", "present": True})


def test_a_purpose_said_after_the_request_is_dropped_unless_it_checks() -> None:
    from server.planners.restating import restate

    assert restate("lock the page so nobody else can edit it while we rework it") == "lock the page"
    assert "Melody TV" in restate("switch to channel 5 so that we can see the banner shows Melody TV")


def test_moving_a_thing_into_another_is_never_opening_it() -> None:
    from shared.screen import ScreenObservation, UIElement
    from tests.unit.test_screen_planning import plan as plan_on

    files = ScreenObservation("web", "http://127.0.0.1/#files", "Files", (
        UIElement("heading", name="Files", level=1), UIElement("link", name="report_q3.pdf", href="#"),
        UIElement("link", name="Archive", href="#"), UIElement("button", name="Upload")))
    p = plan_on("move report_q3.pdf into the Archive folder", files)
    assert not p.feasible and "moves 'report_q3.pdf'" in p.analysis, p.analysis
    assert steps(plan("move to the guide", node="home")) == [("goto", {"node": "guide"})]


@pytest.mark.parametrize("short, screen", [("lvtv", "live"), ("xtv", None), ("ltv", "live"), ("rply", "replay"), ("sttngs", "settings"),
                                           ("sett", "settings"), ("movie", None), ("gd", None)])
def test_a_screen_said_in_shorthand(short: str, screen: str | None) -> None:
    p = plan(f"{short} > ok", node="home")
    got = steps(p) if p.feasible else []
    assert (("goto", {"node": screen}) in got) if screen else ("goto", {"node": "live"}) not in got[:1], (short, got)


def test_terse_paths_a_value_at_the_end_and_a_request_after_an_arrow() -> None:
    assert steps(plan("settings > audio language > french", node="home")) == [
        ("goto", {"node": "settings"}), ("click_until", {"selector": "#setting-audio", "expect": "french"})]
    got = steps(plan("srch robots -> pick the first result", node="home"))
    assert got[:2] == [("goto", {"node": "search"}), ("input_text", {"text": "robots", "selector": "#search-input",
                                                                      "clear": True})], got
    assert ("click_element", {"selector": ".search-result", "index": 0}) in got
    got = steps(plan("guide: wild earth row -> ok, shld land on ch 6", node="home"))
    assert got[-1] == ("wait_for_element", {"text": "6", "selector": "#current-channel", "present": True}), got


def test_a_check_said_with_an_equals_sign_and_an_expect() -> None:
    got = steps(plan("ltv @ ch2. chk banner = Boreal Sports", node="home"))
    assert ("press_key", {"key": "DIGIT_2"}) in got
    assert got[-1][1].get("text") == "Boreal Sports" and got[-1][1].get("selector") == "#channel-banner", got
    got = steps(plan("live tv, ch+ x2 — wraps? expect the banner shows Cinema Nova", node="home"))
    assert got[-1][1].get("text") == "Cinema Nova", got


def test_a_channel_tuned_by_a_name_an_explored_draft_only_starts_its_row_with(explored_guide: None) -> None:
    from dataclasses import replace

    ctx = conftest.demo_context("home")
    draft = replace(ctx, navigation=replace(ctx.navigation, complete=False))   # an explored draft: an open world
    p = plan("could you switch to channel Wild Earth please", draft, "home")
    assert p.feasible, p.analysis
    got = steps(p)
    assert ("press_key", {"key": "DIGIT_6"}) in got
    assert got[-1] == ("wait_for_element", {"text": "Wild Earth", "selector": "#channel-banner", "present": True}), got


def test_a_value_set_as_a_records_field_and_a_question_answered_after_a_dash() -> None:
    from server.planners.registers import reword
    from server.planners.restating import restate

    assert restate("Set Dana Kim as the owner of the Billing Portal ticket") == \
        "set the owner of the Billing Portal ticket to Dana Kim"
    assert restate("set Dark as the default theme") == "set Dark as the default theme"   # no record: as written
    assert reword("check who approved the refund - it should be Lee Park") == \
        "check who approved the refund? it should be Lee Park"


@pytest.mark.parametrize("verb", ["duplicate", "clone", "copy"])
def test_copying_a_record_is_its_pages_copy_action_by_any_name(verb: str) -> None:
    from shared.screen import ScreenObservation, UIElement
    from tests.unit.test_screen_planning import plan as plan_on

    page = ScreenObservation("web", "http://127.0.0.1/pages/7/", "Editing Spring Sale", (
        UIElement("heading", name="Spring Sale", level=1), UIElement("button", name="Duplicate page"),
        UIElement("button", name="Delete"), UIElement("link", name="Pages", href="/pages/")))
    p = plan_on(f"{verb} the Spring Sale page", page)
    assert p.feasible, p.analysis
    assert p.steps[0].params.get("text") == "Duplicate page", p.steps


def test_an_items_own_page_is_checked_by_its_title() -> None:
    assert steps(plan("check the River of Glass details page is shown", node="movie")) == [
        ("wait_for_element", {"text": "River of Glass", "selector": "#movie-title", "present": True})]


@pytest.mark.parametrize("said, expected", [
    ("Stop the export. Yes, I'm sure.", "Stop the export. (confirm the dialog)"),
    ("Pause the upload, I need to swap the cable.", "Pause the upload."),
    ("create a plan called Basic with 10 for the seats and 5 for the projects", "create a plan called Basic with seats 10, "
     "projects 5"),
])
def test_what_is_said_beside_a_request(said: str, expected: str) -> None:
    from server.planners.registers import reword

    assert reword(said) == expected


@pytest.mark.parametrize("said, check", [("Zed Park: city should say Munich", True), ("verify Zed Park is listed", True),
                                         ("export Zed Park as PDF", False), ("open Zed Park", False)])
def test_a_refusal_says_whether_what_it_refused_was_a_check(said: str, check: bool) -> None:
    from server.planners.builtin import _a_check
    from server.planners.language import read_clause

    assert _a_check(read_clause(said)) is check


@pytest.mark.parametrize("said, expected", [
    ("The Autumn Menu page is done at last, publish it pls", "publish The Autumn Menu page"),
    ("take the 'Old Prices' page offline - unpublish it, but keep the page, we'll rework it later",
     "unpublish the 'Old Prices' page"),
    ("put the Spring Menu page live and check it says Live", "publish the Spring Menu page and check it says Live"),
])
def test_a_pages_publishing_in_a_testers_words(said: str, expected: str) -> None:
    from server.planners.restating import restate

    assert restate(said) == expected


def test_a_correction_changes_a_value_only_when_it_says_the_value() -> None:
    from server.planners.restating import restate

    assert restate("shorten the slug of the Spring Menu page to spring") == \
        "change the slug of the Spring Menu page to spring"
    # no value said: never read as "edit it", which an opened form alone would pass
    assert not restate("The Long Walk says 1998, that's wrong. Please correct it.").lower().startswith("edit")


def test_what_an_arrow_after_a_request_leads_to_is_checked_when_it_says_a_result() -> None:
    from server.planners.language import split_clauses

    assert split_clauses("find 'invoice' -> 4 matches", []) == ["find 'invoice'", "check 4 matches"]
    assert split_clauses("search for robo -> Robo Pals", []) == ["search for robo", "open Robo Pals"]


@pytest.mark.parametrize("said, kept", [
    ("switch to channel 5, I need to check the banner shows Melody TV", "Melody TV"),
    ("switch to channel 5 (do not change the audio language, it must stay English)", "English"),
    ("switch to channel 5 so I know the banner has Melody TV", "Melody TV"),
    ("turn subtitles on before you play Ocean Giants", "Ocean Giants"),
    ("check the results show Robo Pals, nothing else", "nothing else"),
    ("The newsletter says Silent Harbor came out in 2020. Could you open it and check the year?", "2020"),
])
def test_what_is_dropped_around_a_request_never_holds_a_check_or_a_value(said: str, kept: str) -> None:
    from server.planners.restating import restate

    assert kept in restate(said)


def test_a_scenario_is_only_a_scenario_and_says_what_is_seen_as_a_check() -> None:
    from server.planners.gherkin import flatten

    assert flatten("Scenario: zap\nGiven I am on Live TV with channel 2 on\nWhen I press CH +\n"
                   "Then I should see \"Cinema Nova\" in the banner") == \
        'go to Live TV, then check channel 2 on, then press CH +, then check the banner shows "Cinema Nova"'
    plain = "Open the guide.\nThen pick Wild Earth.\nWhen it plays, check the banner."
    assert flatten(plain) == plain


@pytest.mark.parametrize("record, expected", [
    ("TC-31 | screen: movies | item: Neon Tides | action: play | player state: Playing",
     'go to movies, then open Neon Tides, then play, then check player state shows "Playing"'),
    ("TC-32: open Movies -> open The Last Orbit -> headline == The Last Orbit",
     'open Movies, then open The Last Orbit, then check headline shows "The Last Orbit"'),
    ("test_id=TC-33 screen=settings parental_lock=On", 'go to settings, then check parental lock shows "On"'),
])
def test_a_records_state_fields_are_checked_never_done(record: str, expected: str) -> None:
    from server.planners.restating import restate

    assert restate(record) == expected


@pytest.mark.parametrize("task", ["press down twice", "check the time shows 20:00", "go over the guide"])
def test_common_words_are_no_screens_shorthand(task: str) -> None:
    from server.planners.builtin import _shorthand_screens
    from server.planners.state import State

    ctx = conftest.demo_context("live")
    assert _shorthand_screens(task, State(ctx, "live"), frozenset()) == task


def test_a_page_named_by_one_proper_word_is_looked_for_where_the_screen_does_not_show_it() -> None:
    from shared.screen import ScreenObservation, UIElement
    from tests.unit.test_screen_planning import plan as plan_on

    home = ScreenObservation("web", "http://127.0.0.1/admin/", "Dashboard", (
        UIElement("heading", name="Dashboard", level=1), UIElement("link", name="Pages", href="/admin/pages/"),
        UIElement("textbox", name="Search", placeholder="Search"), UIElement("button", name="Search")))
    p = plan_on("open the Newsroom page", home)
    assert p.feasible and p.pending, p.analysis   # looked for (the app's search or its lists), then opened there
    assert not plan_on("go to the Settings page", home).pending   # a page every app has is never searched for


def test_the_channel_on_said_as_its_banner_writes_it_or_as_what_it_should_now_be() -> None:
    assert steps(plan("verify the current channel shows 'CH 4'", node="live")) == [
        ("wait_for_element", {"text": "4", "selector": "#current-channel", "present": True})]
    got = steps(plan("press CH - once and make sure we are no longer on channel 3 — it should now be Boreal Sports, channel two",
                     node="live"))
    assert ("wait_for_element", {"text": "2", "selector": "#current-channel", "present": True}) in got
    assert all("should" not in str(p.get("text", "")) for _, p in got), got


def test_a_records_action_on_a_page_that_does_not_show_it_first_finds_its_page() -> None:
    from shared.screen import ScreenObservation, UIElement
    from tests.unit.test_screen_planning import plan as plan_on

    home = ScreenObservation("web", "http://127.0.0.1/admin/", "Dashboard", (
        UIElement("heading", name="Dashboard", level=1), UIElement("link", name="Pages", href="/admin/pages/"),
        UIElement("textbox", name="Search", placeholder="Search"), UIElement("button", name="Search")))
    p = plan_on("archive Summer Fair 2026", home)
    assert p.feasible and p.pending and p.pending[-1] == "archive Summer Fair 2026", (p.analysis, p.pending)
    from server.planners.restating import restate

    assert restate("rename it to Summer Fair and publish the change") == "rename it to Summer Fair and click Publish"


def test_that_row_is_the_one_the_check_before_named() -> None:
    got = steps(plan("check that Laugh Track is showing Stand-Up Sunday, then select that row", node="guide"))
    assert ("click_element", {"selector": ".guide-row[data-channel='7']"}) in got, got


def test_a_screen_a_channel_and_what_shows_with_it_each_checked() -> None:
    assert steps(plan("verify Live TV is shown on CH 6", node="live")) == [
        ("wait_for_element", {"text": "Live TV", "selector": "#screen-live .screen-title", "present": True}),
        ("wait_for_element", {"text": "6", "selector": "#current-channel", "present": True})]
    got = steps(plan("make sure it's on CH 2 with Now: Alpine Ski Cup", node="live"))
    assert got == [("wait_for_element", {"text": "2", "selector": "#current-channel", "present": True}),
                   ("wait_for_element", {"text": "Now: Alpine Ski Cup", "present": True})], got
