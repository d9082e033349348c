"""A CMS's admin as testers word their tasks (Wagtail, never seen before), planned on captured screens.

Written from a fresh batch run on the live app; each case is a general rule the batch showed missing: the search
box that holds a page's name is no form of that page, "… and publish it" is the page's own Publish (words after a
value are never dropped unread), a field the task names by its label is that value's and not the record's name,
and a password is typed in its confirmation too.
"""
from __future__ import annotations

from tests.unit.test_screen_planning import plan, steps
from tests.unit.test_tester_phrasings import screen


def test_a_search_box_holding_the_name_is_no_form_of_the_record() -> None:
    p = plan("change the intro of Opening Hours to 'When to visit us'", screen("cms/search"))
    assert steps(p) == [("click_element", {"text": "Opening Hours", "role": "link"})]
    assert p.pending[0] == 'fill in intro "When to visit us"'


def test_publish_it_is_the_pages_own_publish_and_words_after_a_value_are_never_dropped() -> None:
    p = plan("change the intro of Opening Hours to 'When to visit us' and publish it", screen("cms/page-edit"))
    assert ("input_text", {"text": "When to visit us", "field": "Intro", "clear": True}) in steps(p)
    assert p.pending[-1] == "click Publish"
    p = plan("change the intro of Opening Hours to 'When to visit us' and publish this in the blog",
             screen("cms/page-edit"))
    # (a request of its own after the value: planned once the value is saved, or refused; never dropped)
    assert "publish this in the blog" in p.pending or not p.feasible and "publish this in the blog" in p.analysis


def test_the_publish_behind_more_actions_is_on_the_screen_though_hidden() -> None:
    publish = [e for e in screen("cms/page-edit").elements if e.name == "Publish"]
    assert publish and publish[0].hidden and publish[0].role == "button"


def test_a_field_named_by_its_label_is_its_values_and_a_password_is_confirmed() -> None:
    p = plan("add a user tom with the email tom@lab.example, first name Tom, last name Baker and password "
             "Tb-secret-2026", screen("cms/user-new"))
    typed = {s.params["field"]: s.params["text"] for s in p.steps if s.command == "input_text"}
    assert typed == {"Username *": "tom", "Email *": "tom@lab.example", "First Name *": "Tom",
                     "Last Name *": "Baker", "Password *": "Tb-secret-2026",
                     "Password confirmation *": "Tb-secret-2026"}


def test_a_rename_from_a_search_s_results_opens_the_record_first() -> None:
    """The result's link opens the page's form, where the field holding its name gets the new one; "page" is the
    record's kind, never a field to fill."""
    p = plan("rename the Opening Hours page to Visiting Times", screen("cms/search"))
    assert steps(p) == [("click_element", {"text": "Opening Hours", "role": "link"})]
    assert p.pending == ["rename the Opening Hours page to Visiting Times"]
    p = plan("rename the Opening Hours page to Visiting Times", screen("cms/page-edit"))
    assert steps(p) == [("input_text", {"text": "Visiting Times", "field": "Title *", "clear": True}),
                        ("click_element", {"text": "Save draft", "role": "button"})]


def test_publish_is_never_clicked_when_the_task_says_not_to() -> None:
    p = plan("change the intro of Opening Hours to 'When to visit us' but do not publish it", screen("cms/page-edit"))
    assert all(s.params.get("text") != "Publish" for s in p.steps) and "click Publish" not in p.pending
    # an apostrophe inside the value is part of it
    p = plan('change the intro of Opening Hours to "We\'re open daily"', screen("cms/page-edit"))
    assert ("input_text", {"text": "We're open daily", "field": "Intro", "clear": True}) in steps(p)


def test_open_a_place_then_a_name_after_a_colon_still_opens_the_name() -> None:
    from server.planners.restating import restate

    assert restate("open Store: Products") == "open Store: Products"
