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


def test_a_single_page_apps_routes_are_lists_to_look_through() -> None:
    # "#/stock/items" is another page of the app (its router's), where "#/active" is a view of the list shown
    home = _page("http://inv.test/admin/#/", UIElement("heading", name="Inventory admin", level=1),
                 UIElement("link", name="All", href="#/all"), UIElement("link", name="Active", href="#/active"),
                 UIElement("link", name="printers", href="#/stock/printers/items", container="stock printers scanners"),
                 UIElement("link", name="scanners", href="#/stock/scanners/items", container="stock printers scanners"))
    p = plan("set the rack of the Zebra ZD421 printer to R2", home)
    assert steps(p)[0] == ("click_element", {"text": "printers", "role": "link"}), p


def test_a_new_records_fields_said_after_its_place_stay_with_it() -> None:
    # "to the lab:" is where it goes (a section headed "lab bucket"); "rack R1" is a field, never "rank" misspelt
    home = _page("http://inv.test/admin/#/", UIElement("heading", name="Inventory admin", level=1),
                 UIElement("text", text="lab bucket", container="lab bucket devices racks"),
                 UIElement("link", name="devices", href="#/buckets/lab/devices/records", container="lab bucket devices racks"),
                 UIElement("link", name="racks", href="#/buckets/lab/racks/records", container="lab bucket devices racks"))
    p = plan("Add a new device to the lab: Pixel 9, model GR83Y, android, rack R1, status available", home)
    assert steps(p)[0] == ("click_element", {"text": "devices", "role": "link"})
    assert p.pending == ["Add a new device to the lab: Pixel 9, model GR83Y, android, rack R1, status available"]


@pytest.mark.parametrize("said, field", [
    ("a new device: Pixel 9, model GR83Y, status available, firmware 15.0.0", ("status", "available")),
    ("a device Pixel 9, status: available", ("status", "available")),
])
def test_a_field_named_before_a_word_that_is_otherwise_a_flag_takes_it_as_its_value(said: str, field: tuple) -> None:
    from server.planners.records import parse_record

    rec = parse_record(said)
    assert field in rec.fields and not rec.flags
    assert parse_record("a product Mug, available").flags == [("available", True)]   # said alone: still a flag


def test_on_the_list_of_a_kind_the_one_adder_beside_its_rows_adds_it() -> None:
    rows = "Create record Name Model Rack"
    page = _page("http://inv.test/admin/#/buckets/lab/collections/devices/records",
                 UIElement("link", name="Create bucket", href="#/buckets/create"),
                 UIElement("link", name="devices", href="#/buckets/lab/collections/devices", container="lab bucket devices"),
                 UIElement("link", name="Create collection", href="#/buckets/lab/collections/create",
                           container="lab bucket devices"),
                 UIElement("heading", name="Records of lab/devices", level=1),
                 UIElement("link", name="Create record", href="#/buckets/lab/collections/devices/records/create",
                           container=rows),
                 UIElement("row", text="Name Model Rack", container=rows),
                 UIElement("row", text="Pixel 6a GX7AS R1", container=rows),
                 UIElement("cell", text="Pixel 6a", container="Pixel 6a GX7AS R1"))
    assert steps(plan("add a device called Pixel 9", page))[0] == ("click_element", {"text": "Create record", "role": "link"})


@pytest.mark.parametrize("task", ["Why did the night encode fail? Open that job's page so I can read the error.",
                                  "open the job's page"])
def test_one_records_page_is_never_the_list_of_its_kind(task: str) -> None:
    # before: "that job's page" opened the Jobs list and passed on its heading
    page = _page("http://q.test/queues", UIElement("link", name="Queues", href="/queues", selected=True),
                 UIElement("link", name="Jobs", href="/jobs"), UIElement("link", name="Workers", href="/workers"),
                 UIElement("heading", name="Queues", level=1))
    p = plan(task, page)
    assert not any(s.params.get("text") == "Jobs" or s.params.get("name") == "Jobs" for s in p.steps), p


def test_a_new_records_owner_before_its_name_is_a_value_and_a_dash_separates_its_parts() -> None:
    from server.planners.records import parse_record

    rec = parse_record("a new test case for the Storefront called 'Pay by voucher' - category Smoke, priority P3")
    assert (rec.name, rec.noun, rec.loose) == ("Pay by voucher", "case", ["Storefront"])
    assert rec.fields == [("category", "Smoke"), ("priority", "P3")]


def test_a_kind_said_in_two_words_finds_its_own_adder() -> None:
    page = _page("http://tcms.test/", UIElement("heading", name="Dashboard", level=1),
                 UIElement("link", name="New Test Plan", href="/plan/new/", hidden=True),
                 UIElement("link", name="New Test Case", href="/cases/new/", hidden=True),
                 UIElement("link", name="Search Test Cases", href="/cases/search/", hidden=True))
    assert steps(plan("create a new test case called 'Pay by voucher', priority P3", page))[0] == \
        ("click_element", {"text": "New Test Case", "role": "link"})


def _counts_table() -> ScreenObservation:
    """Queues by state, each count a link to the list of those jobs."""
    head = "Queue Waiting jobs Failed jobs Done jobs"
    els = [UIElement("heading", name="Queues", level=1), UIElement("row", text=head),
           *(UIElement("cell", text=h, container=head) for h in ("Queue", "Waiting jobs", "Failed jobs", "Done jobs"))]
    for queue, counts in (("uploads", (2, 1, 4)), ("thumbnails", (0, 3, 9))):
        row = f"{queue} {' '.join(map(str, counts))}"
        els += [UIElement("row", text=row), UIElement("cell", text=queue, container=row)]
        for state, n in zip(("waiting", "failed", "done"), counts):
            els += [UIElement("cell", text=str(n), container=row),
                    UIElement("link", name=str(n), href=f"/jobs/{queue}/{state}", container=row)]
    return _page("http://q.test/queues", *els)


@pytest.mark.parametrize("task, href", [
    ("show me what crashed in the thumbnails queue", "/jobs/thumbnails/failed"),
    ("list the completed uploads", "/jobs/uploads/done"),
    ("look at the uploads that are still pending", "/jobs/uploads/waiting"),
])
def test_a_summary_tables_cell_named_by_its_row_and_column_is_opened(task: str, href: str) -> None:
    page = _counts_table()
    (command, params), = steps(plan(task, page))
    link = next(e for e in page.elements if e.href == href)
    row_links = [e for e in page.elements if e.container == link.container and e.role == "link" and e.name == link.name]
    assert command == "click_element" and params["text"] == link.name
    assert params.get("index", 0) == row_links.index(link)


def test_a_request_about_what_a_cell_counts_is_planned_on_the_list_it_opens() -> None:
    p = plan("requeue the failed thumbnail of cat.png", _counts_table())
    assert p.steps[0].params["text"] == "3" and p.pending == ["requeue the failed thumbnail of cat.png"]


def test_a_check_of_the_summary_table_itself_stays_on_it() -> None:
    p = plan("check the uploads queue has 1 failed job", _counts_table())
    assert all(s.command != "click_element" for s in p.steps)


def test_a_question_whether_a_name_is_one_of_a_kind_is_no_state_of_it() -> None:
    page = _page("http://bills.test/flat", UIElement("heading", name="Participants", level=1),
                 UIElement("row", text="Chloe 12.00", clickable=True), UIElement("cell", text="Chloe", container="Chloe 12.00"))
    got = steps(plan("is Chloe a participant?", page))
    assert all("participant" != p.get("text") for _, p in got) and ("Chloe" in str(got)), got


@pytest.mark.parametrize("task, said", [
    ("The login bug is fixed now, can you close it?", "Can you close The login bug?"),
    ("The lamp is broken, please delete it", "Please delete The lamp"),
])
def test_what_happened_then_the_request_in_one_sentence_is_background_and_a_request(task: str, said: str) -> None:
    from server.planners.restating import restate

    assert restate(task) == said


def _jobs_list(pages: int) -> ScreenObservation:
    rows = [(f"job-{n}", f"encode clip_{n}.mov") for n in (1, 2)]
    els = [UIElement("heading", name="Jobs", level=1),
           UIElement("combobox", name="Sort order", options=("Ascending", "Descending"), value="Ascending")]
    for key, call in rows:
        row = f"{call} {key} Delete"
        els += [UIElement("row", text=row), UIElement("link", name=key, href=f"/job/{key}", container=row),
                UIElement("link", name="Delete", href="#", container=row)]
    els += [UIElement("link", name=str(n), href=f"/jobs/{n}", container=str(n)) for n in range(1, pages + 1)]
    return _page("http://q.test/jobs/1", *els)


def test_the_second_page_is_the_pagers_never_the_second_row() -> None:
    (command, params), = steps(plan("go to the second page", _jobs_list(3)))
    assert command == "click_element" and params["text"] == "2"
    assert not plan("go to the second page", _jobs_list(1)).feasible   # before: opened job-2 and passed


def test_newest_first_said_after_a_list_is_an_order_never_an_item_to_open() -> None:
    got = steps(plan("list them newest first", _jobs_list(1)))
    assert got[0][0] == "select_option" and got[0][1]["option"] == "Descending"


def test_a_menus_search_page_of_the_kind_is_where_its_records_are_looked_for() -> None:
    home = _page("http://tcms.test/", UIElement("heading", name="Dashboard", level=1),
                 UIElement("link", name="SEE ALL", href="/runs/search/?tester=me"),
                 UIElement("link", name="Search Test Plans", href="/plan/search/", hidden=True),
                 UIElement("link", name="Search Test Cases", href="/cases/search/", hidden=True),
                 UIElement("link", name="Search Bugs", href="/bugs/search/", hidden=True))
    p = plan("Bump the login timeout test case up to priority P1.", home)
    assert steps(p)[0] == ("click_element", {"text": "Search Test Cases", "role": "link"}), p
