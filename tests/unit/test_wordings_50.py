"""Rows chosen by the state they show, and other rules of stop 48: each in words of its own."""
from __future__ import annotations

import pytest

from shared.screen import ScreenObservation, UIElement
from tests.unit.test_screen_planning import plan, steps


def _page(url: str, *els: UIElement, title: str = "") -> ScreenObservation:
    return ScreenObservation("web", url, title, tuple(els))


def _service_row(name: str, state: str) -> tuple[UIElement, ...]:
    row = f"{state} {name} pid 10, uptime 0:01 " + ("Stop Restart Tail" if state == "RUNNING" else "Start Tail")
    controls = ("Stop", "Restart", "Tail") if state == "RUNNING" else ("Start", "Tail")
    return (UIElement("cell", text=state, container=row), UIElement("link", name=name, container=row),
            *(UIElement("link", name=c, container=row) for c in controls))


def _services() -> ScreenObservation:
    """A lab host's services: pumps and encoders, some running, some stopped, one failed."""
    return _page("http://lab.test/services", UIElement("heading", name="Services", level=1),
                 *_service_row("pumps:pump_a", "RUNNING"), *_service_row("pumps:pump_b", "STOPPED"),
                 *_service_row("encoders:enc_one", "STOPPED"), *_service_row("encoders:enc_two", "RUNNING"),
                 *_service_row("encoders:enc_three", "FATAL"), title="Services")


def _clicked(task: str) -> list[str]:
    return [p["row"] for c, p in steps(plan(task, _services())) if c == "click_element" and "row" in p]


@pytest.mark.parametrize("task, rows", [
    ("start whichever encoders aren't running", ["encoders:enc_one", "encoders:enc_three"]),
    ("please start every encoder that is not running", ["encoders:enc_one", "encoders:enc_three"]),
    ("restart all the stopped services", ["pumps:pump_b", "encoders:enc_one"]),
    ("stop all running ones", ["pumps:pump_a", "encoders:enc_two"]),
    ("stop the encoders that are running", ["encoders:enc_two"]),
    ("start any service in the FATAL state", ["encoders:enc_three"]),
])
def test_rows_chosen_by_the_state_they_show_get_the_verbs_control_each(task: str, rows: list[str]) -> None:
    assert _clicked(task) == rows


def test_a_control_of_a_row_never_says_its_state() -> None:
    # "Stop" is a button of each running row: no row shows that it is stopped but by its own state cell
    assert "pumps:pump_a" not in _clicked("start every stopped pump")


def test_a_state_no_row_shows_is_no_choice_of_rows() -> None:
    p = plan("restart all the paused encoders", _services())
    assert not any("row" in s.params for s in p.steps), p


@pytest.mark.parametrize("task, row, present", [
    ("make sure pump_a is running", "pumps:pump_a", True),
    ("check that encoders:enc_two is running", "encoders:enc_two", True),
    ("verify pumps:pump_b is not running", "pumps:pump_b", False),
])
def test_a_state_said_of_a_name_in_a_row_is_checked_in_that_row_only(task: str, row: str, present: bool) -> None:
    # another row that runs never makes "pump_a is running" hold
    assert steps(plan(task, _services())) == [("wait_for_element", {"text": "running", "row": row, "present": present})]


@pytest.mark.parametrize("task, got", [
    # the condition holds: the request, its "it" the record the condition names
    ("if pump_b isn't running, start it", [("click_element", {"text": "Start", "role": "link", "row": "pumps:pump_b"})]),
    ("is enc_one up? if not, start it", [("click_element", {"text": "Start", "role": "link", "row": "encoders:enc_one"})]),
    ("Restart pump_a but only if it is running", [("click_element", {"text": "Restart", "role": "link",
                                                                      "row": "pumps:pump_a"})]),
    ("unless enc_three is running, start it", [("click_element", {"text": "Start", "role": "link",
                                                                   "row": "encoders:enc_three"})]),
    # it does not: nothing is done, and the run proves why, in the words the row shows
    ("if pump_a isn't running, start it", [("wait_for_element", {"text": "RUNNING", "row": "pumps:pump_a",
                                                                   "present": True})]),
    ("if enc_one is up, stop it", [("wait_for_element", {"text": "STOPPED", "row": "encoders:enc_one", "present": True})]),
    ("stop pump_b if it's running", [("wait_for_element", {"text": "STOPPED", "row": "pumps:pump_b", "present": True})]),
])
def test_a_condition_is_judged_on_the_screen_the_task_starts_on(task: str, got: list) -> None:
    assert steps(plan(task, _services())) == got


def _banner_page(banner: bool) -> ScreenObservation:
    extra = (UIElement("text", text="We use cookies to keep you signed in"),
             UIElement("button", name="Accept cookies")) if banner else ()
    return _page("http://shop.test/", UIElement("heading", name="Welcome", level=1),
                 UIElement("checkbox", name="Remember me", checked=False), *extra,
                 UIElement("button", name="Sign in"))


def test_something_shown_or_ticked_is_a_condition_too() -> None:
    assert steps(plan("if the Accept cookies button is there, click it", _banner_page(True)))[0] == \
        ("click_element", {"text": "Accept cookies", "role": "button"})
    assert steps(plan("if the Accept cookies button is there, click it", _banner_page(False))) == \
        [("wait_for_element", {"text": "Accept cookies", "present": False})]
    # a thing said in words of one's own, not found, may be there in others: never judged absent
    p = plan("if there is a cookie notice, dismiss it", _banner_page(False))
    assert not p.feasible or not any(s.params.get("present") is False for s in p.steps)
    assert steps(plan("tick Remember me unless it is already ticked", _banner_page(False)))[0][0] == "set_checked"
    assert steps(plan("if Remember me is ticked, untick it", _banner_page(False))) == \
        [("wait_for_element", {"text": "Remember me", "state": "unchecked", "present": True})]


@pytest.mark.parametrize("task", ["check if pump_a is running", "tell me if enc_two is up",
                                  "start pump_b if possible", "restart enc_two if needed"])
def test_a_question_or_a_polite_if_is_no_condition(task: str) -> None:
    from server.planners import conditions
    from server.planners.state import State
    from tests.unit.test_screen_planning import ctx_for

    st = State(ctx_for(_services()), None, _services())
    assert conditions.resolve(task, st) == task


def test_a_condition_after_a_step_that_moves_is_judged_on_the_screen_it_leads_to() -> None:
    p = plan("Tail pump_a, then start enc_one if it is stopped", _services())
    assert p.pending == ["start enc_one if it is stopped"] and len(p.steps) == 1


def test_what_a_task_asks_after_a_condition_is_asked_whatever_the_condition_says() -> None:
    got = steps(plan("if pump_a is stopped, start it, then check that enc_two is running", _services()))
    assert got == [("wait_for_element", {"text": "RUNNING", "row": "pumps:pump_a", "present": True}),
                   ("wait_for_element", {"text": "running", "row": "encoders:enc_two", "present": True})]


@pytest.mark.parametrize("task, said", [
    ("restart enc_hd1, the ITV1 HD feed on rack B is showing macroblocking", "restart enc_hd1"),
    ("reboot the box - the guide keeps freezing", "reboot the box"),
    ("restart enc_one, the Sky feed has been flaky all morning.", "restart enc_one"),
    # a check of the trouble is kept
    ("restart pump_a; it should no longer be stuck", "restart pump_a; it should no longer be stuck"),
    ("restart pump_a, check that pump_b is not stuck", "restart pump_a, check that pump_b is not stuck"),
])
def test_the_trouble_that_led_to_a_request_said_after_it_is_no_check(task: str, said: str) -> None:
    from server.planners.asides import aside

    assert aside(task) == said


@pytest.mark.parametrize("task, step", [
    ("is pump_a running?", {"text": "running", "row": "pumps:pump_a", "present": True}),
    ("is enc_three FATAL?", {"text": "FATAL", "row": "encoders:enc_three", "present": True}),
    # the row's own word for the state said ("up" where it says RUNNING); never the word of the opposite
    ("confirm enc_two is still up", {"text": "RUNNING", "row": "encoders:enc_two", "present": True}),
    ("verify pump_b is up", {"text": "up", "row": "pumps:pump_b", "present": True}),
])
def test_a_state_asked_of_a_row_is_checked_in_the_words_the_row_uses(task: str, step: dict) -> None:
    assert steps(plan(task, _services())) == [("wait_for_element", step)]
