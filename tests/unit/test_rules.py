"""Rules: matching and expansion, cycles refused at save time, versions, YAML, the REST API and planning."""
from __future__ import annotations

from pathlib import Path
from typing import Iterator

import pytest

from server.ai_central import AICentral
from server.app import Server, create_app
from tests.auth_helpers import authorize
from server.db import Database
from server.planners.builtin import BuiltinPlanner
from server.rule_store import RuleConflict, RuleStore
from server.rules import Rule, expand, find_cycle, split
from server.run_planning import RunPlanner
from shared.config import Settings
from shared.errors import NotFound, RequestError
from shared.models import PlanStep
from tests.fakes.device_context import streamtv_context

TUNE = Rule("tune to {n}", scope="streamtv", tasks="switch to channel {n}")
LOGIN = Rule("log in as {user}", steps=(PlanStep(1, "goto", {"node": "search"}, "Open search"),
                                        PlanStep(2, "input_text", {"text": "{user}"}, "Type {user}")))


@pytest.fixture
def store() -> RuleStore:
    return RuleStore(Database("sqlite://"))


def test_a_rule_matches_a_clause_and_binds_its_parameters() -> None:
    assert TUNE.match("tune to 5") == {"n": "5"}
    assert TUNE.match("Tune  to channel 12.") == {"n": "channel 12"}
    assert LOGIN.match('log in as "admin"') == {"user": "admin"}
    assert TUNE.match("tune the radio") is None and TUNE.match("tune to ") is None


def test_split_keeps_quoted_text_and_separators() -> None:
    assert split('go home, then type "salt and pepper" and press OK') == [
        ("go home", ""), ('type "salt and pepper"', ", then "), ("press OK", " and ")]


def test_expansion_replaces_rule_clauses_and_keeps_the_rest_as_written() -> None:
    e = expand("go to the guide, then tune to 5 and check the banner shows Melody TV", "streamtv", [TUNE])
    assert e.used
    assert [(p.text, p.origin.rule if p.origin else None) for p in e.parts] == [
        ("go to the guide", None), ("switch to channel 5", "tune to {n}"),
        ("check the banner shows Melody TV", None)]
    assert e.task == "go to the guide, then switch to channel 5, then check the banner shows Melody TV"
    assert e.uses[0].args == {"n": "5"} and e.uses[0].clause == "tune to 5"


def test_a_task_without_rules_comes_back_unchanged() -> None:
    task = "go home, press down twice then OK"
    e = expand(task, "streamtv", [TUNE, LOGIN])
    assert not e.used and e.task == task and [p.text for p in e.parts] == [task]


def test_scope_a_rule_of_another_user_interface_is_not_applied() -> None:
    assert not expand("tune to 5", "other-ui", [TUNE]).used
    assert expand("tune to 5", "streamtv", [TUNE]).used


def test_nested_rules_and_explicit_steps() -> None:
    watch = Rule("watch {n} as {user}", tasks="log in as {user}, then tune to {n}")
    e = expand("watch 7 as bob", "streamtv", [TUNE, LOGIN, watch])
    assert [u.rule for u in e.uses] == ["watch {n} as {user}", "log in as {user}", "tune to {n}"]
    assert [u.parent for u in e.uses] == [None, 1, 1]
    fixed = e.parts[0]
    assert fixed.fixed and [(s.command, s.params) for s in fixed.steps] == [
        ("goto", {"node": "search"}), ("input_text", {"text": "bob"})]
    assert fixed.steps[1].description == "Type bob"
    assert e.parts[1].text == "switch to channel 7"


def test_malformed_rules_are_refused_with_what_to_fix() -> None:
    for rule, words in [(Rule("", tasks="x"), "needs a 'name'"),
                        (Rule("{a}", tasks="x"), "words besides"),
                        (Rule("go {a} {b}", tasks="x"), "between two parameters"),
                        (Rule("open {x} and {y}", tasks="x"), "one clause"),
                        (Rule("tune to {n}"), "exactly one body"),
                        (Rule("tune to {n}", tasks="switch to channel {m}"), "{m}"),
                        (Rule("tune to {n", tasks="x"), "name in braces")]:
        with pytest.raises(RequestError, match=words.replace("{", r"\{").replace("}", r"\}")):
            rule.check()


def test_cycles_are_found_directly_and_through_other_rules() -> None:
    assert find_cycle(Rule("loop {n}", tasks="go home, then loop {n}"), []) == ["loop {n}", "loop {n}"]
    a = Rule("warm up", tasks="go home, then cool down")
    b = Rule("cool down", tasks="press back and warm up")
    assert find_cycle(b, [a]) == ["cool down", "warm up", "cool down"]
    assert find_cycle(Rule("cool down", tasks="press back"), [a]) is None


def test_store_versions_each_save_and_refuses_a_cycle(store: RuleStore) -> None:
    first = store.save(TUNE)
    assert first.version == 1
    second = store.save(Rule("tune to {n}", scope="streamtv", tasks="switch to channel {n} and check the banner"))
    assert second.version == 2
    assert store.get("tune-to-n").tasks.endswith("check the banner")
    assert [v["version"] for v in store.versions("tune to {n}")] == [1, 2]
    store.save(Rule("warm up", tasks="go home, then cool down"))
    with pytest.raises(RuleConflict, match="'cool down' → 'warm up' → 'cool down'"):
        store.save(Rule("cool down", tasks="press back and warm up"))
    with pytest.raises(RuleConflict, match="reads the same"):
        store.save(Rule("tune to {channel}", scope="streamtv", tasks="switch to channel {channel}"))


def test_delete_keeps_the_history_and_is_refused_while_used(store: RuleStore) -> None:
    store.save(TUNE)
    store.save(Rule("zap to {n}", scope="streamtv", tasks="go to live tv, then tune to {n}"))
    with pytest.raises(RuleConflict, match="used by 'zap to {n}'"):
        store.delete("tune-to-n")
    store.delete("zap-to-n")
    store.delete("tune to {n}", scope="streamtv")
    assert store.list() == []
    with pytest.raises(NotFound):
        store.get("tune-to-n")
    again = store.save(TUNE)
    assert again.version == 3   # 1 saved, 2 the tombstone


def test_yaml_round_trip(store: RuleStore) -> None:
    store.save(TUNE)
    store.save(LOGIN)
    text = store.export_yaml()
    other = RuleStore(Database("sqlite://"))
    saved = other.import_yaml(text)
    assert sorted(r.name for r in saved) == ["log in as {user}", "tune to {n}"]
    assert other.get("log-in-as-user").steps[1].params == {"text": "{user}"}
    with pytest.raises(RequestError, match="does not parse"):
        other.import_yaml("rules: [")
    with pytest.raises(RequestError, match="list under 'rules:'"):
        other.import_yaml("hello: 1")


def test_planning_a_task_with_a_rule_records_which_steps_it_produced(store: RuleStore) -> None:
    store.save(TUNE)
    planner = RunPlanner(AICentral(None, [BuiltinPlanner()]), store, store.db)  # type: ignore[arg-type]
    task = "go to the guide, then tune to 5 and check the banner shows Melody TV"
    outcome, record = planner.plan(task, streamtv_context())
    assert outcome.plan.feasible
    # the rule's part is planned on its own, so it ends by proving its own end state (channel 5 is on)
    assert [(s.command, s.params.get("text")) for s in outcome.plan.steps] == [
        ("goto", None), ("goto", None), ("press_key", None), ("wait_for_element", "5"),
        ("wait_for_element", "Melody TV")]
    assert record.rules[0]["rule"] == "tune to {n}" and record.rules[0]["steps"] == [2, 3, 4]
    assert [p.task for p in record.parts] == ["go to the guide", "switch to channel 5",
                                              "check the banner shows Melody TV"]


def test_explicit_steps_are_validated_like_any_plan(store: RuleStore) -> None:
    store.save(Rule("wipe it", steps=(PlanStep(1, "factory_reset", {}, "Reset"),)))
    planner = RunPlanner(AICentral(None, [BuiltinPlanner()]), store, store.db)  # type: ignore[arg-type]
    outcome, record = planner.plan("go home, then wipe it", streamtv_context())
    assert not outcome.plan.feasible and "rule 'wipe it'" in outcome.plan.analysis
    assert any("unknown command 'factory_reset'" in n for n in outcome.plan.notes)


@pytest.fixture
def srv(tmp_path: Path) -> Iterator[Server]:
    server = create_app(Settings(data_dir=tmp_path), planners=[BuiltinPlanner()])
    authorize(server.app, server.users)
    yield server
    server.db.engine.dispose()


def test_rules_api(srv: Server) -> None:
    http = srv.app.test_client()
    r = http.post("/api/rules", json={"name": "tune to {n}", "scope": "streamtv", "tasks": "switch to channel {n}"})
    assert r.status_code == 201, r.get_json()
    assert r.get_json() == {"id": "tune-to-n", "name": "tune to {n}", "scope": "streamtv", "params": ["n"],
                            "kind": "tasks", "version": 1, "tasks": "switch to channel {n}"}
    assert [x["id"] for x in http.get("/api/rules").get_json()] == ["tune-to-n"]
    assert http.get("/api/rules?scope=").get_json() == []
    assert http.get("/api/rules/tune%20to%20%7Bn%7D").get_json()["version"] == 1
    r = http.put("/api/rules/tune-to-n", json={"tasks": "switch to channel {n}, then check the banner"})
    assert r.status_code == 200 and r.get_json()["version"] == 2
    assert len(http.get("/api/rules/tune-to-n/versions").get_json()) == 2

    r = http.post("/api/rules", json={"name": "spin {n}", "tasks": "go home, then spin {n}"})
    assert r.status_code == 400 and "would call itself: 'spin {n}' → 'spin {n}'" in r.get_json()["error"]
    assert http.post("/api/rules", json={"name": "x"}).status_code == 400
    assert http.post("/api/rules", json=["x"]).status_code == 400
    assert http.get("/api/rules/nothing-here").status_code == 404

    text = http.get("/api/rules/export").get_data(as_text=True)
    assert "tune to {n}" in text and "scope: streamtv" in text
    assert http.delete("/api/rules/tune-to-n").get_json()["deleted"] == "tune-to-n"
    assert http.get("/api/rules").get_json() == []
    r = http.post("/api/rules/import", data=text, content_type="application/yaml")
    assert r.status_code == 201 and r.get_json()[0]["version"] == 4
    assert http.post("/api/rules/import", data="", content_type="application/yaml").status_code == 400


def test_bad_rule_bodies_get_a_clear_400(srv: Server) -> None:
    http = srv.app.test_client()
    cases = [({"name": "a {x}", "tasks": 5}, "'tasks' must be plain-language text"),
             ({"name": "a {x}", "steps": {"command": "goto"}}, "'steps' must be a list"),
             ({"name": "a {x}", "steps": [{"params": {}}]}, "step 1 of rule 'a {x}'"),
             ({"name": "a {x}", "scope": 3, "tasks": "go home"}, "'scope' must be"),
             ({"name": "a {x}", "tasks": "go {x}", "version": "seven"}, None)]
    for body, message in cases:
        r = http.post("/api/rules", json=body)
        if message is None:
            assert r.status_code == 201 and r.get_json()["version"] == 1
        else:
            assert r.status_code == 400 and message in r.get_json()["error"], (body, r.get_json())
    r = http.put("/api/rules/a-x", json={"name": "b {x}", "tasks": "go {x}"})
    assert r.status_code == 400 and "to rename it" in r.get_json()["error"]
    r = http.post("/api/rules/import", data="rules:\n  - name: only words\n", content_type="application/yaml")
    assert r.status_code == 400 and "exactly one body" in r.get_json()["error"]


def test_a_rule_task_list_is_joined_into_one_body() -> None:
    rule = Rule.from_dict({"name": "warm up", "tasks": ["go home", "press OK."]}).check()
    assert rule.tasks == "go home, then press OK"


def test_the_next_part_starts_where_the_last_one_surely_ended() -> None:
    from server.run_planning import _landing

    goto = PlanStep(1, "goto", {"node": "live"}, "", "navigation")
    digit = PlanStep(2, "press_key", {"key": "DIGIT_5"}, "", "remote")
    check = PlanStep(3, "wait_for_element", {"selector": "#x"}, "", "verification")
    ok = PlanStep(4, "press_key", {"key": "OK"}, "", "remote")
    click = PlanStep(5, "click_element", {"text": "Play"}, "", "remote")
    assert _landing([goto, digit, check], "home") == "live"
    assert _landing([check], "guide") == "guide"
    assert _landing([goto, ok], "home") is None and _landing([click], "movies") is None
