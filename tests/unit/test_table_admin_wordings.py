"""A single-page admin of database tables as testers word their tasks (Piccolo Admin, never seen before), on captured
screens.

Its sidebar groups tables under toggles ("MOVIES", a link to "#" that folds Director, Movie, Studio); each row's
Edit and Delete are folded behind one unnamed icon (⋮) at its end; Log Out sits in a user menu. Each case is a
general rule the batch showed missing.
"""
from __future__ import annotations

from tests.unit.test_screen_planning import plan, steps
from tests.unit.test_tester_phrasings import screen

HOME, DIRECTORS, MENU = "table-admin/", "table-admin/director", "table-admin/director-menu"


def test_a_rows_folded_actions_are_opened_then_its_delete_is_used() -> None:
    p = plan("remove the director Ron Howard", screen(DIRECTORS))
    (cmd, params), = steps(p)
    assert cmd == "click_element" and params["selector"].endswith("tr:nth-of-type(8) > td:nth-of-type(6) > span > a")
    # the action asked for is then picked from what the icon unfolds, and the record must be gone
    assert p.pending == ['from the menu of "Ron Howard" pick delete', 'if asked confirm the deletion of the row "Ron Howard"']
    p = plan(p.pending[0], screen(MENU))
    assert steps(p) == [("click_element", {"text": "Delete", "role": "link", "row": "Ron Howard"})]
    # a menu that offers no such action is refused with the reason, never a click on something else
    p = plan('from the menu of "Ron Howard" pick edit', screen(DIRECTORS))
    assert not p.feasible and "offer no edit" in p.analysis


def test_a_group_toggle_is_no_list_and_sign_out_is_the_apps_log_out() -> None:
    # before: "MOVIES" (a toggle to "#") was opened as the list of movies, round and round
    p = plan("check that The Empire Strikes Back is in the movie list", screen(HOME))
    assert steps(p) == [("click_element", {"text": "Movie", "role": "link"})]
    assert steps(plan("sign out", screen(HOME))) == [("click_element", {"text": "Log Out", "role": "link"})]


def test_a_record_said_with_its_id_is_the_record_numbered_so() -> None:
    assert steps(plan("open the movie with id 12", screen("table-admin/movie"))) == [
        ("click_element", {"text": "12", "role": "link"}), ("wait_for_page", {"name": "movie 12", "present": True})]
    # its edit folded behind the row's icon is opened there, then read again
    p = plan("change the rating of Return of the Jedi to 83", screen("table-admin/movie"))
    assert steps(p)[0][1]["selector"].endswith("tr:nth-of-type(9) > td:nth-of-type(11) > span > a")
    assert p.pending[0] == 'from the menu of "Return of the Jedi" pick edit'
    assert p.pending[1:] == ['fill in rating "83"', "save", 'check that "83" was saved for "Return of the Jedi"']
