"""Ways to pass wrongly, act on the wrong thing or drop a part of a task that a review found in the rules of
test_wordings_49; each stays closed. Every case plans on a screen of its own."""
from __future__ import annotations

from backend_core.verifications.matching import ElementQuery
from server.planners.asides import aside
from server.planners.language import VERBS
from server.planners.phrasings import rephrase
from server.planners.restating import restate
from shared.models import Plan
from shared.screen import ScreenObservation, UIElement
from tests.unit.test_screen_planning import plan


def _page(url: str, *els: UIElement) -> ScreenObservation:
    return ScreenObservation("web", url, "", tuple(els))


def _said(p: Plan) -> list[tuple[str, dict]]:
    return [(s.command, s.params) for s in p.steps] if p.feasible else []


def test_where_a_page_is_filed_never_swallows_what_is_checked_of_it_nor_where_a_new_one_goes() -> None:
    assert restate("check the Old Runbook page under Ops is gone") == "check the Old Runbook page under Ops is gone"
    assert "Engineering" in restate("Create a new page under Engineering")
    assert "Finance" in restate("Move the Budget document under Finance")


def test_a_figure_of_a_record_or_of_a_report_named_keeps_whose_it_is() -> None:
    for task in ("verify Lena Brandt's card shows a balance of 50.00",
                 "make sure the Income Statement shows a Net Profit of 4954.38"):
        assert restate(task) == task


def test_what_happened_with_a_value_of_its_own_is_kept_where_the_request_refers_back() -> None:
    for task in ("Lena Brandt changed her email to lena@new.org. Update her record.",
                 "Harbor Dental Clinic just paid invoice 1077. Mark it as paid.",
                 "Blue Mug ran out of stock - please delete the product",
                 "In the Archived folder: delete the Q3 Plan document",
                 "Logged in as Admin User: open the audit log"):
        assert aside(task) == task, task


def _durations() -> ScreenObservation:
    return _page("http://app.test/settings", UIElement("heading", name="Settings", level=1),
                 UIElement("text", text="Check interval"),
                 UIElement("textbox", name="Days", value="1", hint="number"),
                 UIElement("textbox", name="Hours", value="0", hint="number"),
                 UIElement("text", text="Retry delay"),
                 UIElement("textbox", name="Minutes", value="5", hint="number"),
                 UIElement("textbox", name="Seconds", value="30", hint="number"),
                 UIElement("textbox", name="Probe timeout in seconds", value="20", hint="number"),
                 UIElement("textbox", name="Backup retention (days)", value="7", hint="number"),
                 UIElement("button", name="Save"))


def test_a_duration_s_other_parts_are_its_own_never_the_next_setting_s() -> None:
    typed = {(p["field"], p["text"]) for c, p in _said(plan("set the check interval to 6 hours", _durations()))
             if c == "input_text"}
    assert typed == {("Hours", "6"), ("Days", "0")}


def test_a_setting_no_duration_names_is_never_typed_into_another_s_part() -> None:
    p = plan("set the password expiry to 12 hours", _durations())
    assert not any(c == "input_text" for c, _ in _said(p))


def test_a_number_goes_into_a_box_in_the_unit_it_counts_in() -> None:
    assert ("input_text", {"text": "120", "field": "Probe timeout in seconds", "clear": True}) in \
        _said(plan("set the probe timeout to 2 minutes", _durations()))
    assert not any(c == "input_text" for c, _ in _said(plan("set the backup retention to 2 hours", _durations())))


def test_no_result_and_no_second_link_of_a_result_is_opened_as_one() -> None:
    none = _page("http://wiki.test/-/search?q=kubernetes", UIElement("textbox", name="Search", value="kubernetes"),
                 UIElement("heading", name="No results found for kubernetes"),
                 UIElement("link", name='Create the page "kubernetes"', href="/-/create?name=kubernetes"))
    assert not _said(plan("open the first result", none))
    many = _page("http://wiki.test/-/search?q=deploy", UIElement("textbox", name="Search", value="deploy"),
                 UIElement("heading", name="3 results"),
                 UIElement("link", name="Deploy guide", href="/Deploy"),
                 UIElement("link", name="wiki.test/Deploy", href="/cache/Deploy"),
                 UIElement("text", text="how we deploy"),
                 UIElement("link", name="Rollback", href="/Rollback"),
                 UIElement("text", text="after a deploy"),
                 UIElement("link", name="2", href="/-/search?q=deploy&page=2"),
                 UIElement("link", name="About this wiki", href="/About"))
    assert _said(plan("open the second result", many))[0] == ("click_element", {"text": "Rollback", "role": "link"})
    assert all(s[1].get("text") != "About this wiki" for s in _said(plan("open the last result", many)))
    papers = _page("http://app.test/research/papers?page=3", UIElement("heading", name="12 papers found"),
                   UIElement("link", name="On Graphs", href="/papers/1"))
    assert all(s[1].get("text") != "On Graphs" for s in _said(plan("open the first page", papers)))


def test_the_one_that_mentions_a_word_it_does_not_say_is_not_opened() -> None:
    one = _page("http://wiki.test/-/search?q=docker", UIElement("textbox", name="Search", value="docker"),
                UIElement("heading", name="1 result"), UIElement("link", name="Docker basics", href="/Docker"),
                UIElement("text", text="images and containers"))
    assert not _said(plan("open the result that mentions Helm charts", one))


def test_a_list_of_choices_shown_as_content_still_counts_unless_a_box_holds_the_words() -> None:
    members = [UIElement("listbox", name="Members", text="Maria Lopez Bo Chen"), UIElement("option", name="Maria Lopez")]
    assert ElementQuery(text="Maria Lopez").matches(members)   # she is listed: "not listed" must fail
    typed = [UIElement("combobox", placeholder="Filter", value="Maria Lopez"),
             UIElement("option", name='payee:"Maria Lopez"')]
    assert not ElementQuery(text="Maria Lopez").matches(typed)


def test_a_clause_that_says_how_another_thing_is_takes_no_verb() -> None:
    shop = _page("http://app.test/products", *[e for name in ("Blue Mug", "Red Mug") for e in (
        UIElement("row", text=f"{name} 8.00 Delete"), UIElement("cell", text=name, container=f"{name} 8.00 Delete"),
        UIElement("button", name="Delete", container=f"{name} 8.00 Delete"))])
    p = plan("Delete Blue Mug, the Red Mug stays", shop)
    assert not any(s[1].get("row", "").startswith("Red Mug") for s in _said(p)) and \
        not any("Delete the Red Mug" in t for t in p.pending)


def test_a_part_of_a_word_is_no_name_of_a_process() -> None:
    els = []
    for name in ("maintenance:cleanup_job", "webhooks:webhook_retry"):
        row = f"running {name} Restart Stop"
        els += [UIElement("row", text=row), UIElement("link", name=name, href="t", container=row),
                UIElement("link", name="Restart", href="r", container=row),
                UIElement("link", name="Stop", href="s", container=row)]
    procs = _page("http://sup.test/index.html", *els)
    assert not _said(plan("restart the main app", procs)) and not _said(plan("stop the web server", procs))


def test_a_negation_or_a_superlative_is_no_word_to_search_for() -> None:
    tickets = _page("http://app.test/tickets", UIElement("textbox", name="Search tickets", hint="search"),
                    UIElement("row", text="#1 Login broken Closed"), UIElement("row", text="#2 Slow search Open"))
    for task in ("show the tickets whose status is not Closed", "list the tickets where the price is the lowest"):
        assert not any(c == "input_text" for c, _ in _said(plan(task, tickets))), task
    assert rephrase("give it a try", VERBS) == "give it a try"


def test_a_setting_of_one_record_is_not_looked_for_on_the_app_s_settings() -> None:
    home = _page("http://app.test/", UIElement("link", name="Settings", href="/settings"),
                 UIElement("link", name="Customers", href="/customers"))
    p = plan("turn off notifications for Bo Chen", home)
    assert not p.feasible or any(t.startswith("look through the lists") for t in p.pending)   # Bo Chen is sought
