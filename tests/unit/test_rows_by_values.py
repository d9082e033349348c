"""A row named by the values it shows, and statements and counts about them, on a NiceGUI rota's real screen
(tests/fixtures/screens/new_apps.json, "rota/shifts_with_selects"): a shift is a row of Day, Time, Person,
Team and Status, and each row has a "Remove shift" button."""
from __future__ import annotations

import pytest

from tests.unit.test_data_grid_app import screen
from tests.unit.test_screen_planning import plan, steps

ROTA = "rota/shifts_with_selects"
OMAR_TUE = "Tue 08:00-14:00 Omar Kitchen Assigned"


@pytest.mark.parametrize("task", ["remove the Tuesday kitchen shift of Omar", "delete Omar's Tuesday shift",
                                  "remove Omar's Tue shift"])
def test_a_row_named_by_several_of_its_values_is_the_one_deleted(task: str) -> None:
    """No one value names the row (Omar has two shifts; two people work on Tuesday): together they do. The
    row's own button is clicked, and the row must be gone after."""
    p = plan(task, screen(ROTA))
    (click, where), = steps(p)
    assert (click, where["text"], where["row"]) == ("click_element", "Remove shift", OMAR_TUE)
    assert any(OMAR_TUE in part for part in p.pending)


def test_a_row_that_one_value_does_not_pick_out_is_never_the_first_of_them() -> None:
    """"the Tuesday shift": two rows show Tue. Deleting the first of them would remove the wrong record."""
    p = plan("delete the Tuesday shift", screen(ROTA))
    assert not p.feasible and not p.steps


@pytest.mark.parametrize("task, row, text", [
    ("check that Omar works on Tuesday", OMAR_TUE, "Tue"),     # the row of both
    ("check that Lena works on Tuesday", "Tue 17:00-23:00 Lena Bar Assigned", "Tue"),
    ("check that Maya works on Tuesday", "Wed 12:00-18:00 Maya Floor Assigned", "Tue"),   # no row of both: fails
])
def test_a_statement_of_two_values_neither_of_which_picks_a_row_is_checked_in_the_row_of_both(
        task: str, row: str, text: str) -> None:
    (check, args), = steps(plan(task, screen(ROTA)))
    assert check == "wait_for_element" and args["row"] == row and args["text"] == text and args["present"]


@pytest.mark.parametrize("task", ["how many shifts does Omar have? there should be 2", "Omar should have 2 shifts",
                                  "check that Omar has two shifts"])
def test_a_count_of_what_one_person_has_counts_the_rows_that_show_them(task: str) -> None:
    (check, args), = steps(plan(task, screen(ROTA)))
    assert check == "wait_for_element" and args["text"] == "Omar" and args["count"] == 2
    assert args["selector"].endswith("td:nth-of-type(3)")   # the Person column


@pytest.mark.parametrize("task, name", [("verify that no shift is assigned to Zed", "Zed"),
                                        ("check that no shift is assigned to Omar", "Omar"),
                                        ("check nobody called Zed is on the rota", "Zed"),
                                        ("check that Zed has no shifts", "Zed"),
                                        ("make sure Omar has no shifts", "Omar")])
def test_no_record_for_someone_is_checked_by_their_name_not_shown(task: str, name: str) -> None:
    """The name alone: a check of "Zed is on the rota" not shown could never fail. Omar is shown, so those fail."""
    (check, args), = steps(plan(task, screen(ROTA)))
    assert check == "wait_for_element" and args["text"] == name and args["present"] is False


@pytest.mark.parametrize("task", ["remove Lena from the rota", "delete Omar", "remove Floor",
                                  "delete the 12:00-18:00 shift", "delete the shift"])
def test_a_delete_that_several_rows_fit_as_well_is_refused_not_done_on_the_first(task: str) -> None:
    p = plan(task, screen(ROTA))
    assert not p.feasible and not p.steps


def test_all_of_a_value_deletes_every_row_that_shows_it_and_only_those() -> None:
    done = steps(plan("remove all Bar shifts", screen(ROTA)))
    clicked = [args["row"] for command, args in done if command == "click_element"]
    assert clicked == ["Tue 17:00-23:00 Lena Bar Assigned", "Fri 17:00-23:00 Lena Bar Assigned",
                       "Sun 10:00-16:00 Maya Bar Assigned"]
    gone = [args["text"] for command, args in done if command == "wait_for_element" and args["present"] is False]
    assert gone == clicked


@pytest.mark.parametrize("task", ["check that no shift is assigned to anyone",
                                  "no shift is scheduled for the weekend", "check that Omar Haddad has no shifts"])
def test_an_absence_with_no_one_name_as_the_list_shows_it_is_not_a_check_of_some_words_not_shown(task: str) -> None:
    p = plan(task, screen(ROTA))
    assert not any(s.command == "wait_for_element" and s.params.get("present") is False for s in p.steps)


def test_a_quoted_name_is_typed_as_it_is_said() -> None:
    from tests.unit.test_form_values import THIRD_PARTY
    import json
    from shared.screen import ScreenObservation

    todos = ScreenObservation.from_dict(json.loads(THIRD_PARTY.read_text())["todomvc/index.html#/"])
    (typed, args), *_ = steps(plan('add a todo "Kids should have 2 snacks"', todos))
    assert args["text"] == "Kids should have 2 snacks"
