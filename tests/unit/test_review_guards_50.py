"""Ways to pass wrongly that a review of stop 48's changes found, each closed: a condition that does not hold
never drops what the task asks after it, a record's name never says its state, an outcome is never a reason."""
from __future__ import annotations

import pytest

from shared.screen import ScreenObservation, UIElement
from tests.unit.test_screen_planning import plan, steps
from tests.unit.test_wordings_50 import _services


def _named_cells() -> ScreenObservation:
    """Services named by plain cells, some of whose names hold a state's word ("Live ingest", "Active …")."""
    els = [UIElement("heading", name="Services", level=1), UIElement("row", text="Name State Actions")]
    for name, state in (("Live ingest", "Stopped"), ("Active Directory sync", "Stopped"), ("Offline cache", "Running")):
        row = f"{name} {state} " + ("Stop" if state == "Running" else "Start")
        els += [UIElement("row", text=row), UIElement("cell", text=name, container=row),
                UIElement("cell", text=state, container=row),
                UIElement("button", name="Stop" if state == "Running" else "Start", container=row)]
    return ScreenObservation("web", "http://lab.test/services", "Services", tuple(els))


@pytest.mark.parametrize("task, wanted", [
    # the other branch, and what is asked after the request, are planned whatever the condition says
    ("If pump_b is running, stop it, otherwise start it", ("click_element", "Start", "pumps:pump_b")),
    ("if pump_a is stopped, start it and check that pump_b is running", ("wait_for_element", "running", "pumps:pump_b")),
    ("Start pump_b if it is STOPPED. Then check enc_one is running", ("click_element", "Start", "pumps:pump_b")),
])
def test_what_the_task_asks_besides_a_condition_is_kept(task: str, wanted: tuple) -> None:
    got = [(c, p.get("text"), p.get("row")) for c, p in steps(plan(task, _services()))]
    assert wanted in got, got


def test_two_conditions_said_together_are_never_judged_as_one() -> None:
    p = plan("if pump_a is running and pump_b is stopped, start pump_b", _services())
    assert not p.feasible and not p.steps


@pytest.mark.parametrize("task, row", [("if Live ingest isn't running, start it", "Live ingest"),
                                       ("is Live ingest up? if not, start it", "Live ingest"),
                                       ("if Active Directory sync is not running, start it", "Active Directory sync")])
def test_a_records_own_name_never_says_its_state(task: str, row: str) -> None:
    assert steps(plan(task, _named_cells())) == [("click_element", {"text": "Start", "role": "button", "row": row})]


def test_a_state_word_in_a_name_chooses_no_row() -> None:
    rows = [p["row"] for _, p in steps(plan("start every service that isn't active", _named_cells()))]
    assert rows == ["Live ingest", "Active Directory sync"]


@pytest.mark.parametrize("task", ["Click Simulate fault, then the encoder status is failing",
                                  "Kill enc_two, its row is showing crashed", "Pause the stream; the picture is frozen"])
def test_what_a_request_makes_happen_is_no_reason_for_it(task: str) -> None:
    from server.planners.asides import aside

    assert aside(task) == task


@pytest.mark.parametrize("said, name", [("a todo called Release notes - draft", "Release notes - draft"),
                                        ("a todo called 'Call mum - tonight'", "Call mum - tonight")])
def test_a_dash_inside_a_name_stays_in_it(said: str, name: str) -> None:
    from server.planners.records import parse_record

    assert parse_record(said).name == name


def test_fields_after_a_named_records_place_are_its_fields() -> None:
    page = ScreenObservation("web", "http://x.test/users", "Users", (
        UIElement("heading", name="Users", level=1), UIElement("link", name="Beta features", href="/beta"),
        UIElement("textbox", name="Name"), UIElement("textbox", name="Email"), UIElement("button", name="Add user")))
    got = steps(plan("add a user Bob to the beta: email bob@x.test", page))
    assert ("input_text", {"text": "Bob", "field": "Name", "clear": True}) in got
    assert ("input_text", {"text": "bob@x.test", "field": "Email", "clear": True}) in got


@pytest.mark.parametrize("task", ["Hover Jobs, then open that job's page", "Check Workers is shown, then open that job's page"])
def test_that_records_page_is_never_what_was_named_last_of_another_kind(task: str) -> None:
    page = ScreenObservation("web", "http://q.test/", "Queues", (
        UIElement("link", name="Jobs", href="/jobs"), UIElement("link", name="Workers", href="/workers"),
        UIElement("heading", name="Queues", level=1)))
    assert not plan(task, page).feasible


def test_a_misspelt_verb_after_a_record_is_no_field_of_it() -> None:
    from tests.unit.test_screen_planning import todo_screen

    p = plan("add a todo buy milk, delte task 2", todo_screen(("walk the dog", False)))
    assert p.feasible and p.pending == ["delete task 2"]


def _bugs_summary() -> ScreenObservation:
    head = "Kind Open Closed"
    els = [UIElement("heading", name="Overview", level=1), UIElement("link", name="Login bug", href="/bug/17"),
           UIElement("link", name="Email settings", href="/settings/email"),
           UIElement("row", text=head), *(UIElement("cell", text=h, container=head) for h in head.split())]
    for kind, counts in (("Bugs", (4, 9)), ("Email", (3, 1))):
        row = f"{kind} {counts[0]} {counts[1]}"
        els += [UIElement("row", text=row), UIElement("cell", text=kind, container=row)]
        for state, n in zip(("open", "closed"), counts):
            els += [UIElement("cell", text=str(n), container=row),
                    UIElement("link", name=str(n), href=f"/{kind.lower()}/{state}", container=row)]
    return ScreenObservation("web", "http://t.test/", "Overview", tuple(els))


@pytest.mark.parametrize("task, link", [("open the login bug", "Login bug"), ("open the email settings", "Email settings")])
def test_the_verb_open_names_no_open_column(task: str, link: str) -> None:
    # before: the count of open bugs (or emails) was clicked, with no check, and passed
    assert steps(plan(task, _bugs_summary()))[0][1]["text"] == link


@pytest.mark.parametrize("task", ["When enc_two is stopped, please restart it", "As soon as pump_a is stopped, can you restart it?"])
def test_a_when_clause_is_never_dropped_as_background(task: str) -> None:
    p = plan(task, _services())
    assert not any(s.params.get("text") == "Restart" for s in p.steps), p


def test_a_lone_numbered_badge_is_no_page() -> None:
    page = ScreenObservation("web", "http://q.test/jobs", "Jobs", (
        UIElement("link", name="3", href="/inbox"), UIElement("heading", name="Jobs", level=1),
        UIElement("link", name="1", href="/jobs/1", container="1"), UIElement("link", name="2", href="/jobs/2", container="2")))
    assert not plan("go to the third page", page).feasible
    assert steps(plan("go to the last page", page))[0][1]["text"] == "2"
    assert not plan("go to the second-to-last page", page).feasible


def test_else_inside_a_request_is_no_otherwise() -> None:
    got = steps(plan("If pump_b is stopped, start it and leave everything else alone", _services()))
    assert got[0] == ("click_element", {"text": "Start", "role": "link", "row": "pumps:pump_b"})
