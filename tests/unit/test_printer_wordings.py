"""A 3D printer's web interface (captured screens, never tuned on before): a file list of <div>s, a grid of target
temperatures each with its own Set button, a Connection panel folded once connected, and testers' asides around
their requests. Wordings written for this file (and by another hand for its first run), not taken from the corpus."""
from __future__ import annotations

import pytest

from server.planners.grounding import similarity
from server.planners.language import Act, drop_asides, read_clause, split_clauses
from server.planners.restating import restate
from tests.unit.test_screen_planning import plan, steps
from tests.unit.test_tester_phrasings import screen

HOME, CONNECTED = "printer/home", "printer/connected"


@pytest.mark.parametrize("task, clauses", [
    ("get rid of the phone stand file, we don't need it anymore", ["get rid of the phone stand file"]),
    ("We're finished with the printer for today, please disconnect it.", ["please disconnect it"]),
    ("Load the cube so it's ready to go, but DON'T start the print.", ["Load the cube"]),
    ("select shelf_bracket for printing (dont hit print yet)", ["select shelf_bracket for printing"]),
    ("we don't print ABS anymore - delete that preset", ["delete that preset"]),
    ("open the terminal so I can watch what it's sending", ["open the terminal"]),
    ("How many files are there? Let me know pls.", ["How many files are there"]),
    # what is no aside stays: a value said with "so it reads", a "don't forget", a name with a dash
    ("edit buy milk so it reads buy oat milk", ["edit buy milk so it reads buy oat milk"]),
    ("don't forget to save", ["don't forget to save"]),
    ("delete Solo - A Star Wars Story", ["delete Solo - A Star Wars Story"]),
    ("I want to add buy milk", ["I want to add buy milk"]),
    # a part that checks something is never an aside (review)
    ("open the terminal so I can check that it says Operational", ["open the terminal so I can check that it says Operational"]),
    ("click Send. Thank you page should be shown", ["click Send", "Thank you page should be shown"]),
    ("Don't Look Up should be listed", ["Don't Look Up should be listed"]),
    ("we don't want the dark theme", ["we don't want the dark theme"]),
    ("load benchy, thanks", ["load benchy"]),
])
def test_what_a_tester_says_around_a_request_is_not_planned(task: str, clauses: list[str]) -> None:
    assert drop_asides(split_clauses(restate(task), [])) == clauses


def test_double_check_is_a_check_never_a_double_click() -> None:
    assert read_clause("Double-check that the printer is named Bench").act is Act.CHECK
    assert read_clause("double check the banner").act is Act.CHECK
    assert read_clause("double-click the row").act is Act.DOUBLE_CLICK


def test_a_file_is_named_without_its_extension() -> None:
    assert similarity("phone stand", "phone_stand.gcode") >= 0.95
    assert similarity("the calibration cube", "calibration_cube.gcode") >= 0.95
    assert similarity("phone", "phone_stand.gcode") < 0.9


@pytest.mark.parametrize("task, row", [
    ("get rid of the phone stand file", "phone_stand.gcode"), ("delete the benchy file", "benchy.gcode"),
    ("remove calibration cube", "calibration_cube.gcode"),
])
def test_a_file_of_a_list_of_divs_is_deleted_with_its_own_row_s_control(task: str, row: str) -> None:
    got = steps(plan(task, screen(CONNECTED)))
    assert got[0] == ("click_element", {"text": "Remove", "role": "link", "row": row})


def test_a_verb_that_is_a_row_s_control_clicks_it_counted_in_that_row() -> None:
    """"load the cube": its row's Load (not "Load and Print", not the file's title), with no index of the page."""
    assert steps(plan("Load the calibraton cube", screen(CONNECTED))) == [
        ("click_element", {"text": "Load", "role": "link", "row": "calibration_cube.gcode"})]


def test_a_box_with_its_own_set_button_is_sent_and_the_value_must_show() -> None:
    got = steps(plan("set the bed to 55", screen(CONNECTED)))
    assert got[0] == ("input_text", {"text": "55", "field": "Bed Target", "clear": True, "submit": True})
    assert got[-1] == ("wait_for_element", {"text": "55", "present": True})


def test_a_name_never_goes_in_a_number_box_and_a_trailing_off_button_opens_its_dialog() -> None:
    """"Create folder..." opens a dialog: it is clicked first, and the name is typed there, never into the
    temperature box (a number) beside it."""
    p = plan("Make a new folder called archive", screen(CONNECTED))
    assert steps(p) == [("click_element", {"text": "Create folder...", "role": "button"})]
    assert p.pending and 'name "archive"' in p.pending[0]


def test_connect_and_disconnect_are_their_buttons_proved_by_their_giving_way() -> None:
    got = steps(plan("Connect to the printer", screen(HOME)))
    assert got == [("click_element", {"text": "Connect", "role": "button"}),
                   ("wait_for_element", {"text": "Connect", "role": "button", "state": "enabled", "exact": True,
                                         "present": False})]
    # once connected its panel is folded: its Disconnect is there, hidden, and is the verb's; a hidden button is
    # not shown before the click either, so the proof is its opposite offered after it
    got = steps(plan("We're finished with the printer for today, please disconnect it.", screen(CONNECTED)))
    assert got == [("click_element", {"text": "Disconnect", "role": "button"}),
                   ("wait_for_element", {"text": "Connect", "role": "button", "exact": True, "present": True})]


@pytest.mark.parametrize("task", ["set the heated bed to 55°C", "heat the bed up to 55 degrees", "cool the bed down to 55"])
def test_a_box_named_by_its_last_word_and_a_number_said_with_its_unit(task: str) -> None:
    """"the heated bed" is the one box whose name has "bed" ("Bed Target"); "55°C" in a box for a number is 55;
    "heat X up to 55" is a setting of X."""
    got = steps(plan(task, screen(CONNECTED)))
    assert got[0] == ("input_text", {"text": "55", "field": "Bed Target", "clear": True, "submit": True})


def test_run_a_record_is_never_passed_on_opening_it() -> None:
    """"kick off a run of the nightly deployment": opening its page passed the run once, then its "Add" was taken for
    the run on that page. Refused, with the reason, rather than passed on a click that runs nothing."""
    from shared.screen import ScreenObservation, UIElement

    shown = ScreenObservation("web", "http://flows.local/deployments", "Deployments", (
        UIElement("heading", "Deployments", level=1), UIElement("link", "nightly-etl-prod", container="nightly-etl-prod"),
        UIElement("link", "sales-report-weekly", container="sales-report-weekly"), UIElement("button", "Add")))
    p = plan("kick off a run of the nightly-etl-prod deployment now", shown)
    assert not p.feasible and not p.steps and "only opens it" in p.analysis
