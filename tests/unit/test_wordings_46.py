"""Wordings and apps of fresh batches (a help desk, a wiki, and StreamTV in six more registers: bug reports,
questions, non-native word order, long-winded context, chat shorthand, test sheets). Each rule is shown in words
of its own, on the demo's tree or a small page; the guards beside them (what must stay as it was) pass either
way."""
from __future__ import annotations

from datetime import date

import pytest

from backend_core.verifications.matching import words_in
from server.planners import grounding
from server.planners.layouts import flatten
from server.planners.records import parse_record
from server.planners.restating import restate
from shared import dates
from shared.screen import ScreenObservation, UIElement
from tests.unit.test_builtin_planner import plan as tv_plan
from tests.unit.test_builtin_planner import steps as tv_steps
from tests.unit.test_screen_planning import plan as web_plan
from tests.unit.test_screen_planning import steps as web_steps

E = UIElement
_STATE = "#player-state"


def page(title: str, *els: UIElement, url: str = "http://127.0.0.1/x") -> ScreenObservation:
    return ScreenObservation("web", url, title, tuple(els))


# ---------------------------------------------------------------- layouts: reports, checklists, sheets

def test_a_bug_report_with_numbered_lines_is_its_steps_then_its_check() -> None:
    said = "Repro:\n1. Go to Settings\n2. Turn on subtitles\nExpected result: Subtitles show On"
    assert flatten(said) == "Go to Settings, then Turn on subtitles. Expected: Subtitles show On"
    got = tv_steps(tv_plan(said, node="home"))
    assert ("click_until", {"selector": "#setting-subtitles", "expect": "On"}) in got


@pytest.mark.parametrize("said, flat", [
    ("- [ ] open Replay\n- [x] choose Star Cadets", "open Replay, then choose Star Cadets"),
    ("* Settings\n* Audio language shows English", "open Settings, then check Audio language shows English"),
    ("# | action\n1 | Guide\n2 | Kids Planet", "open Guide, then open Kids Planet"),
    ("channel=6 | expect now: Laugh Track", 'switch to channel 6. Expected: now shows "Laugh Track"'),
    ("Steps: 1. Movies 2. Select Neon Tides 3. Press Play", "open Movies, then Select Neon Tides, then Press Play"),
])
def test_a_checklist_a_table_and_a_test_sheet_row_are_one_sentence(said: str, flat: str) -> None:
    assert flatten(said) == flat


@pytest.mark.parametrize("said", ["set the volume to 1.5 then check it", "Pause | Play are the player's keys",
                                  "open channel 1. Then press OK", "check the menu shows Live TV | Guide | Movies"])
def test_a_sentence_with_a_number_or_a_bar_of_its_own_is_no_list(said: str) -> None:
    # a guard: only a run of steps counted from 1, or a row of fields, is laid out
    assert flatten(said) == said


def test_a_sentence_wrapped_over_lines_is_one_sentence() -> None:
    # a guard: "… shows\nMelody TV" is no list whose second step opens Melody TV
    assert flatten("switch to channel 5 and check the banner shows\nMelody TV") == \
        "switch to channel 5 and check the banner shows Melody TV"


@pytest.mark.parametrize("said", ["Steps:\n1. Turn subtitles on\n2. Subtitles On", "- [ ] open Settings\n- [ ] subtitles off"])
def test_a_line_that_names_a_state_is_checked_never_set(said: str) -> None:
    assert flatten(said).endswith(("check Subtitles On", "check subtitles off"))


@pytest.mark.parametrize("options, said", [(("New", "Unresolved", "Closed"), "resolved"),
                                          (("Active", "Inactive"), "inactive only"),
                                          (("Work", "Workshop"), "Workshops")])
def test_an_option_is_never_its_opposite_nor_another_word(options: tuple, said: str) -> None:
    assert grounding.option_for(options, said) in (None, "Workshop") if said == "Workshops" else \
        grounding.option_for(options, said) is None


def test_a_value_a_sheet_checks_is_checked_where_its_label_says_never_anywhere() -> None:
    # "Off" anywhere on Settings is no proof the subtitles are off (the parental lock says Off too)
    got = tv_steps(tv_plan("screen=Settings | expect subtitles: Off", node="home"))
    assert ("wait_for_element", {"text": "Off", "present": True}) not in got
    assert any(s[1].get("selector") == "#setting-subtitles" for s in got if s[0] == "wait_for_element")


# ---------------------------------------------------------------- asides: questions and background

def test_a_question_then_the_request_that_answers_it_is_the_request_then_its_check() -> None:
    said = restate("Is Laugh Track really on channel 7? Put channel 7 on please.")
    assert said.startswith("switch to channel 7") and said.endswith("check is Laugh Track on channel 7?")


@pytest.mark.parametrize("said, kept", [
    ("Can viewers switch the audio? Set the audio to Spanish.", "Set the audio to Spanish."),
    ("Does the guide actually work? Open the Guide.", "Open the Guide."),
])
def test_a_question_of_whether_it_can_be_done_is_what_the_request_tries(said: str, kept: str) -> None:
    assert restate(said) == kept


def test_background_about_the_tester_or_a_customer_is_no_step() -> None:
    said = "A viewer wrote in that the guide is slow. Our support team promised a fix. Open the Guide please."
    assert restate(said).startswith("Open the Guide")


@pytest.mark.parametrize("said", ["We're testing that subtitles stay on. Open settings.",
                                  "Could you set the audio to French? Thanks."])
def test_what_is_tested_and_a_polite_request_are_kept(said: str) -> None:
    assert "subtitles stay on" in restate(said) or "audio to French" in restate(said)


@pytest.mark.parametrize("said, asked", [
    ("delete the old invoice ticket, it's a duplicate", "delete the old invoice ticket"),
    ("raise the cooker ticket to urgent, somebody got burned", "raise the cooker ticket to urgent"),
])
def test_a_reason_said_after_the_request_is_no_step(said: str, asked: str) -> None:
    assert restate(said).lower().startswith(("set the", asked.split()[0]))
    assert "burned" not in restate(said) and "duplicate" not in restate(said)


def test_a_reason_that_says_a_value_is_kept() -> None:
    assert "should be" in restate("fix the phone number on the Acme ticket, it should be 555-0100")


# ---------------------------------------------------------------- registers

@pytest.mark.parametrize("said, meant", [
    ("goto guide n open kids planet thx", "goto guide and open kids planet"),
    ("srch tides n play it", "search tides and play it"),
    ("subs on + audio french pls", "turn subtitles on and audio french"),
    ("The audio, change it to German please.", "change The audio to German please."),
    ("The movie Paper Kingdoms, I want that it plays now.", "play The movie Paper Kingdoms."),
    ("Go up of three channels.", "press channel up 3 times."),
])
def test_shorthand_and_word_orders_of_other_registers(said: str, meant: str) -> None:
    assert restate(said) == meant


@pytest.mark.parametrize("said, gone", [
    ("Rename the note 'Plan' to 'Roadmap'. Keep its tags as they are.", "Keep"),
    ("Set the title to Ops Wiki, and leave the subtitle alone", "leave"),
    ("Update the release note, dont touch its tags", "touch"),
    ("Add a tag 'ops' to the Runbook page without changing its text", "without"),
])
def test_what_not_to_change_is_no_step(said: str, gone: str) -> None:
    assert gone not in restate(said)


def test_a_check_of_two_settings_said_with_their_states_stays_a_check() -> None:
    # a guard: "… and subtitles on" after a check is a state to check, never a setting to turn on
    got = tv_steps(tv_plan("verify the audio is English and subtitles off", node="settings"))
    assert not any(s[0] == "click_until" for s in got)


def test_a_statement_asked_about_then_confirm_is_its_check() -> None:
    assert restate("Channel 3 is Cinema Nova, right? please confirm") == "check Channel 3 is Cinema Nova"


# ---------------------------------------------------------------- dates

@pytest.mark.parametrize("said, when", [
    ("3 March 2027", date(2027, 3, 3)), ("march 3rd, 2027", date(2027, 3, 3)), ("2027-03-03", date(2027, 3, 3)),
    ("Wed 3 Mar 2027", date(2027, 3, 3)), ("13/03/2027", date(2027, 3, 13)), ("03/13/2027", date(2027, 3, 13)),
])
def test_a_date_said_whole_is_read(said: str, when: date) -> None:
    assert dates.parse(said) == when


@pytest.mark.parametrize("said", ["03/04/2027", "March 2027", "3 March", "the 3rd"])
def test_a_date_with_two_readings_or_no_year_is_not_read(said: str) -> None:
    assert dates.parse(said) is None


def test_a_date_is_typed_as_the_field_shows_one_and_found_however_the_page_writes_it() -> None:
    when = date(2027, 3, 3)
    assert dates.for_field(when) == "2027-03-03" and dates.for_field(when, "dd/mm/yyyy") == "03/03/2027"
    for shown in ("Due: Mar. 3, 2027", "03/03/2027", "3 March 2027", "2027-03-03"):
        assert words_in("3 March 2027", shown), shown
    assert not words_in("3 March 2027", "13 March 2027") and not words_in("3 March 2027", "2027-03-13")


def test_a_date_is_typed_in_a_date_field_in_iso() -> None:
    form = page("Edit task", E("heading", name="Walk the dog", level=1),
                E("textbox", name="Due date", selector="#id_due"), E("button", name="Save"))
    got = web_steps(web_plan("set the due date of Walk the dog to 9 April 2027", form))
    assert got[0] == ("input_text", {"text": "2027-04-09", "field": "Due date", "clear": True})


# ---------------------------------------------------------------- open world: records and their forms

def _task_page(form: bool = False) -> ScreenObservation:
    els = [E("heading", name="Fix the gate", level=2), E("button", name="Edit", selector="#edit"),
           E("text", text="List: Chores")]
    if form:
        els += [E("textbox", name="Title", value="Fix the gate", selector="#t"),
                E("combobox", name="List", value="Chores", options=("Chores", "Garden", "Shopping"), selector="#l"),
                E("listbox", name="Owners", value="Ann Lee (ann)", options=("Ann Lee (ann)", "Bo Kim (bo)"),
                  selector="#o"),
                E("button", name="Save changes")]
    return page("Fix the gate", *els, url="http://127.0.0.1/task/3/")


def test_moving_a_named_record_changes_its_form_never_the_screen() -> None:
    # before: "move X to Garden" opened X's page and passed
    folded = web_plan("move Fix the gate to Garden", _task_page())
    assert web_steps(folded) == [("click_element", {"text": "Edit", "role": "button"})]
    got = web_plan("move Fix the gate to Garden", _task_page(form=True))
    assert web_steps(got)[:2] == [("select_option", {"option": "Garden", "selector": "#l"}),
                                  ("click_element", {"text": "Save changes", "role": "button"})]
    assert got.pending == ['check that "Garden" was saved for "Fix the gate"']


def test_a_list_of_options_shown_open_is_chosen_by_the_name_said() -> None:
    got = web_steps(web_plan("assign Fix the gate to Bo Kim", _task_page(form=True)))
    assert got[0] == ("select_option", {"option": "Bo Kim (bo)", "selector": "#o"})


@pytest.mark.parametrize("said, option", [("Bo Kim", "Bo Kim (bo)"), ("bo", "Bo Kim (bo)"), ("Kim", None),
                                          ("Garden", "Garden")])
def test_an_option_is_the_one_the_words_name(said: str, option: str | None) -> None:
    assert grounding.option_for(("Ann Lee (ann)", "Bo Kim (bo)", "Garden", "Garden Tools - shed"), said) == option


def test_words_after_a_comment_control_s_label_are_typed_never_dropped() -> None:
    p = page("Fix the gate", E("heading", name="Fix the gate", level=2),
             E("textbox", hint="comment body", selector="#c"), E("button", name="Add Comment"))
    got = web_steps(web_plan("add comment Hinges ordered", p))
    assert got[0][0] == "input_text" and got[0][1]["text"] == "Hinges ordered"


def test_a_list_deleted_on_its_page_is_confirmed_on_the_page_that_asks() -> None:
    lst = page("Lists: Chores", E("heading", name="Chores", level=1),
               E("link", name="Delete this list", href="/lists/4/delete/"), url="http://127.0.0.1/lists/4/")
    p = web_plan("delete the Chores list", lst)
    assert web_steps(p) == [("click_element", {"text": "Delete this list", "role": "link"})]
    assert p.pending == ['if asked confirm the deletion of the row "Chores"']
    asks = page("Delete", E("heading", name="Delete the list Chores?", level=1),
                E("link", name="Back to Chores", href="/lists/4/"),
                E("button", name="Yes, go ahead →", hint="btn danger delete confirm"))
    assert web_steps(web_plan(p.pending[0], asks))[0] == ("click_element", {"text": "Yes, go ahead →", "role": "button"})


def test_a_bare_delete_on_a_clients_page_never_deletes_a_project_said_of_it() -> None:
    # a guard: the page's "Delete" says nothing of what it deletes
    acme = page("Acme", E("heading", name="Acme", level=1), E("button", name="Delete"),
                E("button", name="New project"), url="http://127.0.0.1/clients/3")
    p = web_plan("delete the Acme project", acme)
    assert not p.feasible or all(s.params.get("text") != "Delete" for s in p.steps)


def _story() -> ScreenObservation:
    gate = "Gate notes 1 May Garden Fix the hinges before summer."
    welcome = "Welcome Pages about jobs are tagged Chores or Garden."
    return page("Notes", E("article", text=gate), E("heading", name="Gate notes", level=2, container=gate),
                E("button", name="Edit this note", container=gate),
                E("article", text=welcome), E("heading", name="Welcome", level=2, container=welcome),
                E("button", name="Edit this note", container=welcome),
                E("listitem", text="Pages about jobs are tagged Chores or Garden", container=welcome))


def test_what_is_said_of_a_named_record_is_checked_in_its_own_card() -> None:
    # before: "tagged Chores" was looked for anywhere, and the Welcome card says it
    got = web_steps(web_plan("check Gate notes is tagged Chores", _story()))
    assert len(got) == 1 and got[0][1]["text"] == "Chores" and got[0][1]["row"].startswith("Gate notes")


def test_a_line_added_to_a_page_shown_among_others_uses_that_page_s_edit() -> None:
    got = web_steps(web_plan("add the line 'Oil the hinges' at the end of 'Welcome'", _story()))
    assert len(got) == 1 and got[0][1]["text"] == "Edit this note" and got[0][1]["row"].startswith("Welcome")


def test_tags_said_between_a_name_and_its_text_are_a_field() -> None:
    rec = parse_record("a note called Gate Log tagged Garden with the text \"Oil, paint, fix\"")
    assert rec.name == "Gate Log" and ("tags", "Garden") in rec.fields


def _respond_tab(folded: bool) -> ScreenObservation:
    els = [E("heading", name="Gate sticks #4", level=2), E("tab", name="History", selected=not folded),
           E("tab", name="Respond", selected=folded)]
    if folded:
        els += [E("textbox", name="Comment / Resolution", selector="#c"),
                E("checkbox", name="Is this update public?", checked=True),
                E("button", name="Update ticket details"), E("button", name="Save")]
    return page("Gate sticks #4", *els, url="http://127.0.0.1/tickets/4/")


def test_a_field_behind_a_tab_and_a_fold_is_reached_before_it_is_filled() -> None:
    assert web_steps(web_plan('fill in due date "2027-02-01"', _respond_tab(folded=False))) == [
        ("click_element", {"text": "Respond", "role": "tab"})]
    # a date is never taken for the box "Is this update public?" (it only looked like "update")
    assert web_steps(web_plan('fill in due date "2027-02-01"', _respond_tab(folded=True))) == [
        ("click_element", {"text": "Update ticket details", "role": "button"})]


def test_a_value_saved_is_never_proved_by_a_choice_or_a_navigation_link_that_names_it() -> None:
    # a status left unsaved shows its "Closed" radio still; the sidebar always links "Errands"
    form = page("Ticket 4", E("heading", name="Ticket 4", level=1), E("radio", name="Closed", checked=True),
                E("radio", name="Open"), E("button", name="Save"))
    p = web_plan('check that "Closed" was saved for "Ticket 4"', form)
    assert not p.feasible
    task = page("Fix the gate", E("link", name="Errands", hint="nav link", href="/lists/2/"),
                E("heading", name="Fix the gate", level=1), E("listitem", text="In list: Errands"))
    got = web_steps(web_plan('check that "Errands" was saved for "Fix the gate"', task))
    assert got == [("wait_for_element", {"text": "Errands", "role": "listitem", "present": True})]


def test_the_setting_a_check_names_after_a_change_is_that_setting_never_any_on() -> None:
    # "On" anywhere on Settings passed when the lock stayed off: subtitles said On
    got = tv_steps(tv_plan("turn the parental lock on with PIN 0000 and check the setting reads On", node="settings"))
    assert got[-1] == ("wait_for_element", {"text": "On", "selector": "#setting-parental", "present": True})


@pytest.mark.parametrize("said, meant", [
    ("the Rake now costs 17.50, update it", "set the price of the Rake to 17.50"),
    ("set the description of Budget Bytes to: Cheap recipes", "set the description of Budget Bytes to Cheap recipes"),
    ("This box already has the lock on. Could you switch it off with PIN 0000?",
     "Could you switch the lock off with PIN 0000"),
])
def test_what_a_request_is_about_when_said_before_it(said: str, meant: str) -> None:
    assert restate(said).rstrip("?") == meant


def _docs_page(url: str = "http://127.0.0.1/pkg/validate.html") -> ScreenObservation:
    return page("pkg.validate API documentation", E("link", name="Email", hint="class", href="#Email",
                                                     container="Email Email default_message"),
                E("text", text="class Email(Validator):", hint="attr class"),
                E("text", text="Validate an email address."), url=url)


def test_what_names_a_class_opens_through_its_link_and_the_address_proves_it() -> None:
    # before: the signature's text was clicked (it opens nothing) and nothing was checked, so the run passed
    got = web_steps(web_plan("open the Email validator", _docs_page()))
    assert got == [("click_element", {"text": "Email", "role": "link"}),
                   ("wait_for_page", {"name": "Email", "present": True})]


def test_a_results_header_that_says_the_query_back_is_never_a_result() -> None:
    found = page("Search", E("heading", name="4 search results for 'load'.", level=2),
                 E("link", name="pkg.load", href="pkg.html#load"), E("textbox", name="search", value="load"))
    p = web_plan("open load", found)
    assert all("search results" not in s.params.get("text", "") for s in p.steps)


def test_in_it_after_going_somewhere_is_where_the_rest_is_planned_never_a_place_to_go_again() -> None:
    index = page("Modules", E("link", name="pkg.validate", href="pkg/validate.html"),
                 E("link", name="pkg.fields", href="pkg/fields.html"), url="http://127.0.0.1/index.html")
    p = web_plan("go to pkg.validate, then open the Email validator in it", index)
    assert p.pending == ["open the Email validator"]
