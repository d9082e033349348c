"""The closed loop stops a run that would go round in circles: a round that repeats the last one (its steps
changed nothing), or an earlier one (A → B → A: two lists each sending the planner to the other)."""
from __future__ import annotations

from server.run_model import Observation
from server.run_replanning import repeated_round

CLAUSE = "assign the subtitles ticket to bob"


def seen(url: str, link: str, digest: str = "") -> Observation:
    return Observation(CLAUSE, url, "Tickets", 40, "planned", [{"step": 1, "command": "click_element",
                                                                 "params": {"text": link}}], digest or url)


def test_a_new_screen_is_progress() -> None:
    assert repeated_round([seen("/report", "{1} Active Tickets")], seen("/report/1", "VIEW TICKETS")) is None


def test_the_same_round_again_is_no_progress() -> None:
    assert repeated_round([seen("/report", "{1} Active Tickets")], seen("/report", "{1} Active Tickets")) == 0


def test_a_round_that_comes_back_to_an_earlier_one_is_a_circle() -> None:
    rounds = [seen("/report", "{1} Active Tickets"), seen("/report/1", "VIEW TICKETS")]
    assert repeated_round(rounds, seen("/report", "{1} Active Tickets")) == 0


def test_the_same_screen_with_other_contents_is_not_a_repeat() -> None:
    # a list that changed (a row added by the steps in between) is another round, even at the same address
    rounds = [seen("/report", "{1} Active Tickets", digest="a"), seen("/report/1", "VIEW TICKETS")]
    assert repeated_round(rounds, seen("/report", "{1} Active Tickets", digest="b")) is None
