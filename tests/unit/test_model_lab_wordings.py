"""An experiment tracker's single-page app as testers word their tasks (MLflow, never seen before), on captured screens.

Its pages are hash routes ("#/experiments/2"); an assistant panel beside every page has its own "Ask a question..."
box and "New Chat"; the home page shows "Recent Experiments" while the full list, with its Create, search and a
Delete that waits for rows to be picked, is a page of its own. Each case is a general rule the batch showed missing.
"""
from __future__ import annotations

from backend_core.verifications.matching import _leads_here, page_names
from tests.unit.test_screen_planning import plan, steps
from tests.unit.test_tester_phrasings import screen

HOME, LIST = "model-lab/", "model-lab/experiments"


def test_a_chat_box_is_never_where_a_record_is_made_or_a_search_typed() -> None:
    # before: the name was typed into the assistant's box, and its echo in the chat passed the check
    for task in ("create a new experiment called fraud-detection", "search experiments for price",
                 "could you make an experiment named sales-uplift please"):
        got = steps(plan(task, screen(HOME)))
        assert got == [("click_element", {"text": "Experiments", "role": "link"})], task
    p = plan("create a new experiment called fraud-detection", screen(LIST))
    assert steps(p) == [("click_element", {"text": "Create", "role": "button"})]
    assert p.pending[0].startswith('fill in name "fraud-detection"')
    # "New Chat" makes a chat: no way to make a model here is no reason to start one
    assert not plan("register a new model called fraud-scorer", screen(HOME)).feasible


def test_a_row_is_picked_for_a_delete_that_waits_for_a_pick() -> None:
    p = plan("delete the image-tagger experiment", screen(LIST))
    assert steps(p) == [("set_checked", {"checked": True, "row": "image-tagger", "role": "checkbox"}),
                        ("click_element", {"text": "Delete", "role": "button"})]
    assert p.pending == ['if asked confirm the deletion of the row "image-tagger"']
    # from the home page's recent ones, which have no way to delete: the list's own page first
    assert steps(plan("delete the image-tagger experiment", screen(HOME))) == [
        ("click_element", {"text": "Experiments", "role": "link"})]


def test_a_hash_route_is_a_page_a_link_leads_to() -> None:
    # "#/experiments" is the page the app's own link "Experiments" leads to; a plain "#part" is a place on a page
    here = "http://lab.test/#/experiments?view=list"
    assert _leads_here("#/experiments", here) and _leads_here("#!/experiments", "http://lab.test/#!/experiments")
    assert not _leads_here("#/experiments/2", here) and not _leads_here("#/", here) and not _leads_here("#top", here)
    assert "Experiments" in page_names(screen(LIST), "Experiments")
