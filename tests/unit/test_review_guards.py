"""Screens of common kinds, built by hand, where a plan once passed while the app was wrong (found in review of
the planner's rules for notebooks, load-test forms and Streamlit apps). Each must plan the right thing, or
refuse, or end failed."""
from __future__ import annotations

from backend_core.verifications.matching import ElementQuery, label_shown
from server.planners.restating import restate
from shared.screen import ScreenObservation, UIElement as E
from tests.unit.test_screen_planning import plan, steps


def web(title: str, *els: E, url: str = "http://127.0.0.1/x") -> ScreenObservation:
    return ScreenObservation("web", url, title, els)


def test_a_label_said_whole_wins_over_the_same_label_with_an_aside() -> None:
    s = web("App", E("link", name="Reports (legacy)", href="/old"), E("link", name="Reports", href="/r"))
    assert steps(plan("open Reports", s))[0] == ("click_element", {"text": "Reports", "role": "link", "index": 1})


def test_a_verb_alone_never_starts_one_row_of_many_nor_a_page_it_does_not_name() -> None:
    services = web("Services", E("heading", name="Services", level=1),
                   E("row", text="worker stopped"), E("button", name="Start", container="cache stopped"))
    p = plan("start the worker", services)
    assert all(st.params.get("text") != "Start" for st in p.steps)   # the cache's Start starts no worker
    wizard = web("Setup", E("heading", name="Welcome", level=1), E("button", name="Start"), E("link", name="Settings",
                                                                                              href="/settings"))
    assert steps(plan("go to settings", wizard))[0] == ("click_element", {"text": "Settings", "role": "link"})


def test_close_said_of_a_record_with_its_own_close_is_that_action_not_the_dialogs_cross() -> None:
    s = web("Issues", E("button", name="×"), E("heading", name="Login bug", level=2), E("text", text="Cannot log in"),
            E("button", name="Close issue"))
    assert steps(plan("close the Login bug issue", s))[0] == ("click_element", {"text": "Close issue", "role": "button"})


def test_a_labelled_field_holding_new_york_is_never_the_name_field() -> None:
    s = web("New customer", E("textbox", name="Name"), E("textbox", name="City", value="New York"), E("button", name="Save"))
    assert steps(plan('fill in name "Bob Smith"', s))[0] == \
        ("input_text", {"text": "Bob Smith", "field": "Name", "clear": True})


def test_a_box_that_searches_another_kind_is_not_the_apps_search() -> None:
    s = web("Users", E("textbox", placeholder="Search projects…"), E("heading", name="Users", level=1),
            E("row", text="Ann Lee"), E("link", name="Next", href="?page=2"))
    p = plan("check Emma Schmidt is not listed", s)
    assert not p.feasible or all(st.params.get("text") != "Emma Schmidt" or st.command != "input_text" for st in p.steps)


def test_a_value_is_the_one_right_after_its_label_and_never_a_number_before_it() -> None:
    cards = [E("text", text="12"), E("text", text="Users"), E("text", text="0"), E("text", text="Errors")]
    assert not ElementQuery(text="0", label="Users").matches(cards)   # the "0" is the Errors card's
    bar = [E("text", text="RPS"), E("text", text="5"), E("separator"), E("text", text="Failures"), E("text", text="0%")]
    assert ElementQuery(text="0%", label="Failures").matches(bar) and not ElementQuery(text="0", label="RPS").matches(bar)
    assert not label_shown("Status", bar)   # "Status is not RUNNING" proves nothing where no Status is shown


def test_a_heading_is_never_the_label_of_a_negative_check() -> None:
    s = web("Orders", E("heading", name="Orders", level=1), E("row", text="#1 Paid"), E("row", text="#2 Cancelled"))
    assert steps(plan("check the Orders page does not show Cancelled", s)) == \
        [("wait_for_element", {"text": "Cancelled", "present": False})]


def test_send_is_the_save_of_a_message_form_not_save_draft() -> None:
    s = web("Compose", E("textbox", name="To"), E("textbox", name="Subject"), E("button", name="Send"),
            E("button", name="Save draft"))
    assert steps(plan('fill in To "a@b.c", Subject "Hi"; submit', s))[-1] == \
        ("click_element", {"text": "Send", "role": "button"})


def test_the_kind_word_never_turns_a_client_page_into_the_project_to_delete() -> None:
    s = web("Acme", E("heading", name="Acme", level=1), E("button", name="Delete"), E("heading", name="Projects", level=2),
            E("button", name="New project"), url="http://127.0.0.1/clients/3")
    p = plan("delete the Acme project", s)
    assert not p.feasible or all(st.params.get("text") != "Delete" for st in p.steps)


def test_a_cards_control_is_its_own_never_the_card_before_it() -> None:
    s = web("Notes", E("heading", name="Alpha", level=2), E("text", text="first"), E("button", name="Edit"),
            E("heading", name="Beta", level=2), E("text", text="second"), E("button", name="Edit"))
    assert steps(plan("delete Beta", s))[0] == ("click_element", {"text": "Edit", "role": "button", "index": 1})


def test_there_s_no_inside_a_message_is_text_to_find() -> None:
    s = web("Todos", E("text", text="There's no todo yet"))
    assert steps(plan("check the message There's no todo yet is shown", s)) == \
        [("wait_for_element", {"text": "There's no todo yet", "present": True})]


def test_two_settings_said_of_one_record_stay_together() -> None:
    assert restate("change the title of Dune to Arrakis and the author to Herbert") == \
        "change the title of Dune to Arrakis and the author to Herbert"
    assert restate("set the number of users to 3 and the ramp up to 1") == \
        "set the number of users to 3, then set ramp up to 1"


def test_numbers_of_a_booking_are_all_in_before_it_is_booked() -> None:
    s = web("Book a room", E("textbox", name="Adults", value="1"), E("textbox", name="Children", value="0"),
            E("textbox", name="Nights", value="1"), E("button", name="Book"))
    p = plan("book 2 adults, 2 children for 3 nights", s)
    assert steps(p) == [("input_text", {"text": "2", "field": "Adults", "clear": True})]
    assert p.pending == ["2 children for 3 nights", "book"]
    assert [x[1]["field"] for x in steps(plan("1 child and 2 adults", s)) if x[0] == "input_text"] == ["Children", "Adults"]


def test_a_count_said_to_open_something_is_never_typed_into_a_page_size() -> None:
    s = web("Orders", E("textbox", name="Items per page", value="20"), E("link", name="Order #1 (3 items)", href="/o/1"))
    assert all(x[0] != "input_text" for x in steps(plan("open the order with 3 items", s)))
