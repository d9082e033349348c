"""Values said with no field's name, placed by what the screen shows (server/planners/form_values.py).

The screen is a NiceGUI rota's (tests/fixtures/screens/new_apps.json, "rota/shifts_with_selects"): Quasar
dropdowns whose options are drawn only when opened, a Team filter above the list, and a form below it with
Day, Time, Person and Team, sent by "Add shift".
"""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from server.planners.records import parse_record
from shared.screen import ScreenObservation
from tests.unit.test_data_grid_app import screen
from tests.unit.test_screen_planning import plan, steps

ROTA = "rota/shifts_with_selects"
THIRD_PARTY = Path(__file__).resolve().parents[1] / "fixtures" / "screens" / "third_party.json"


def _filled(task: str) -> dict[str, tuple[str, dict]]:
    done = steps(plan(task, screen(ROTA)))
    assert done[-1][0] == "click_element" and done[-1][1]["text"].lower() == "add shift", done
    return {p.get("field", ""): (c, p) for c, p in done[:-1]}


def test_the_page_reads_a_kits_dropdown_whose_input_it_hides() -> None:
    boxes = [(e.name, e.value) for e in screen(ROTA).elements if e.role == "combobox"]
    assert boxes == [("Team", ""), ("Day", ""), ("Person", ""), ("Team", "")]


@pytest.mark.parametrize("task", ["add a shift on Fri, time 18:00-23:00, for Maya in the Bar team",
                                  "add a shift on Friday from 18:00-23:00 for Maya in the Bar team",
                                  "add a shift: day Fri, time 18:00-23:00, person Maya, team Bar"])
def test_values_go_in_the_fields_the_lists_columns_name(task: str) -> None:
    """Maya is shown in the Person column, Bar in Team, Fri in Day: each goes in the form's field of that name.
    The form's Team, not the filter above the list that has the same name (index 1)."""
    filled = _filled(task)
    assert filled["Time"] == ("input_text", {"text": "18:00-23:00", "field": "Time", "clear": True})
    assert filled["Person"] == ("select_option", {"option": "Maya", "field": "Person"})
    assert filled["Team"] == ("select_option", {"option": "Bar", "field": "Team", "index": 1})
    assert filled["Day"] == ("select_option", {"option": "Fri", "field": "Day"})


def test_a_kind_said_with_a_value_of_a_field_sets_that_field_and_the_check_names_a_new_value() -> None:
    """"a Bar shift": the form has no field for a name; Bar is a team. "Bar shift" is shown nowhere after the
    save, so the saved check names the new time."""
    p = plan("create a Bar shift on Sat 09:00-12:00", screen(ROTA))
    filled = {prm.get("field"): prm for c, prm in steps(p)}
    assert filled["Team"]["option"] == "Bar" and filled["Day"]["option"] == "Sat"
    assert filled["Time"]["text"] == "09:00-12:00"
    assert any("09:00-12:00" in part for part in p.pending)


@pytest.mark.parametrize("text, name, on", [("a shift on Fri, time 18:00", "", "Fri"),
                                            ("a meeting on Fri called Retro", "Retro", "Fri"),
                                            ("a note on Monday standup", "on Monday standup", None),
                                            ("a talk on Python", "talk on Python", None)])
def test_on_takes_a_day_or_a_date_only(text: str, name: str, on: str | None) -> None:
    rec = parse_record(text)
    assert rec.name == name
    assert dict(rec.fields).get("on") == on


def test_a_record_whose_values_are_all_shown_already_is_proved_by_one_more_of_them() -> None:
    """Another Bar shift on Fri, 17:00-23:00 exists: "Bar" shown after the save proves nothing. One more cell of
    the Team column showing Bar than before does."""
    p = plan("create a Bar shift on Fri 17:00-23:00", screen(ROTA))
    proof, = p.pending
    assert proof.startswith('check that "Bar" was saved (3 in "') and proof.endswith('td:nth-of-type(4)" before)')
    (check, args), = steps(plan(proof, screen(ROTA)))
    assert check == "wait_for_element" and args["text"] == "Bar" and args["count"] == 4 and args["exact"]


def test_the_saved_check_names_the_value_as_it_was_put_not_as_it_was_said() -> None:
    p = plan("add a shift on Fri, time 17:00-23:00, for Lena in the Bar team", screen(ROTA))
    assert not any("Bar team" in part for part in p.pending)


def test_a_value_for_a_field_the_form_has_used_already_never_goes_in_the_filter_above_the_list() -> None:
    p = plan("add a Bar shift for Omar in the Kitchen team", screen(ROTA))
    assert not p.feasible and not p.steps


@pytest.mark.parametrize("key, task, name", [("trac/newticket", "create a ticket titled Outage on Friday",
                                              "Outage on Friday"),
                                             ("buku/bookmark/new/", "add a bookmark titled Talk on Monday with url "
                                              "https://talk.example.com", "Talk on Monday")])
def test_a_day_after_called_or_titled_stays_in_the_name(key: str, task: str, name: str) -> None:
    shown = ScreenObservation.from_dict(json.loads(THIRD_PARTY.read_text())[key])
    typed = [args["text"] for command, args in steps(plan(task, shown)) if command == "input_text"]
    assert name in typed
