"""The assistant over several turns with references: without an LLM, and against the scripted LLM server."""
from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any, Iterator

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from flask.testing import FlaskClient

from server.app import Server, create_app
from server.assistant.tools import REGISTRY
from server.auth_users import Role
from server.db import DeviceRow, HostRow, RunRow, StepRow
from server.planners.builtin import BuiltinPlanner
from shared.config import LLMSettings, Secret, Settings
from tests.auth_helpers import token_for
from tests.fakes.llm_server import RecordedRequest, Reply, ScriptedLLM

KEY = "sk-assistant-test-key-0123456789"


def make_server(data_dir: Path, llm: LLMSettings | None = None) -> Server:
    srv = create_app(Settings(data_dir=data_dir, llm=llm or LLMSettings()), planners=[BuiltinPlanner()])
    srv.lab.is_online = lambda device_id: True   # type: ignore[method-assign]  # runs start; the absent host errors them
    with srv.db.session() as s:
        s.add(HostRow(id="h1", name="h1"))
        s.add(DeviceRow(id="pixel-7", host_id="h1", name="Pixel 7", model="pixel7", userinterface="ui",
                        controllers=["adb_phone"]))
        s.add(DeviceRow(id="living-room", host_id="h1", name="Android TV", model="shield", userinterface="ui",
                        controllers=["android_tv"]))
    return srv


def add_run(srv: Server, run_id: str, device: str, status: str, task: str = "go home") -> None:
    with srv.db.session() as s:
        s.add(RunRow(id=run_id, device_id=device, task=task, status=status, plan={}))


class Chat:
    """One user's conversation through the HTTP API."""

    def __init__(self, srv: Server, name: str, role: Role) -> None:
        self.http: FlaskClient = srv.app.test_client()
        self.headers = {"Authorization": f"Bearer {token_for(srv.users, name, role)}"}
        self.conversation: str | None = None

    def say(self, text: str, status: int = 201, **extra: Any) -> dict[str, Any]:
        resp = self.http.post("/api/assistant/messages", headers=self.headers,
                              json={"text": text, "conversation": self.conversation, **extra})
        assert resp.status_code == status, resp.get_json()
        data = resp.get_json()
        if status == 201:
            self.conversation = data["conversation"]
            return data["message"]
        return data


@pytest.fixture
def srv(tmp_path: Path) -> Iterator[Server]:
    server = make_server(tmp_path)
    yield server
    server.db.engine.dispose()


# -- without an LLM ------------------------------------------------------------------------

def test_the_built_in_translator_follows_references_across_turns(srv: Server) -> None:
    chat = Chat(srv, "tess", Role.TESTER)
    listed = chat.say("which devices are there?")
    assert listed["source"] == "builtin" and "pixel-7" in listed["content"] and "living-room" in listed["content"]
    assert listed["tool_calls"] == [{"tool": "list_devices", "arguments": {}, "id": ""}]
    first = chat.say("show me the first one")                   # devices were shown last: the first device
    assert first["tool_calls"][0] == {"tool": "get_device", "arguments": {"device": "living-room"}, "id": ""}
    started = chat.say("run go home on the phone")              # the phone is the Pixel, by kind
    call = started["tool_calls"][0]
    assert call["tool"] == "run_task" and call["arguments"] == {"device": "pixel-7", "task": "go home"}
    run_id = started["tool_results"][0]["runs"][0]
    assert re.fullmatch(r"[0-9a-f]{12}", run_id) and f"Started run {run_id}" in started["content"]
    # the run service ends it on its own thread (the host is offline): let it, before asking what happened
    ended = chat.http.get(f"/api/runs/{run_id}?wait=10", headers=chat.headers).get_json()
    assert ended["status"] == "error", ended
    happened = chat.say("what happened in that run?")
    assert happened["tool_calls"][0]["arguments"] == {"run_id": run_id}
    assert "not connected" in happened["content"]               # the host is offline: the run said so
    not_understood = chat.say("blorp the flux capacitor")
    assert "I did not understand 'blorp the flux capacitor'" in not_understood["content"]
    assert not_understood["tool_calls"] == []
    stored = chat.http.get(f"/api/assistant/conversations/{chat.conversation}", headers=chat.headers).get_json()
    assert [m["role"] for m in stored["messages"]] == ["user", "assistant"] * 5
    assert stored["messages"][5]["tool_results"][0]["ok"] is True
    listing = chat.http.get("/api/assistant/conversations", headers=chat.headers).get_json()
    assert listing[0]["id"] == chat.conversation and listing[0]["messages"] == 10


def test_ordinals_pick_from_the_last_list_and_the_failed_step_shows_its_screenshot(srv: Server) -> None:
    add_run(srv, "aaaaaaaaaaa1", "pixel-7", "failed", "open settings")
    with srv.db.session() as s:
        shot = srv.files.root / "runs" / "aaaaaaaaaaa1" / "step-2.png"
        s.add(StepRow(run_id="aaaaaaaaaaa1", step=1, command="goto", status="passed"))
        s.add(StepRow(run_id="aaaaaaaaaaa1", step=2, command="wait_for_element", status="failed",
                      message="no element #wifi within 5s", screenshot=str(shot)))
    add_run(srv, "aaaaaaaaaaa2", "living-room", "running", "play channel 5")
    add_run(srv, "aaaaaaaaaaa3", "pixel-7", "passed", "go home")
    chat = Chat(srv, "tess", Role.TESTER)
    listed = chat.say("show me the last 3 runs")
    assert listed["tool_results"][0]["runs"] == ["aaaaaaaaaaa3", "aaaaaaaaaaa2", "aaaaaaaaaaa1"]
    assert chat.say("the first one")["tool_calls"][0]["arguments"] == {"run_id": "aaaaaaaaaaa3"}
    # "the third one" still picks from the list of three, not from the single run shown since
    third = chat.say("what about the third one?")
    assert third["tool_calls"][0]["arguments"] == {"run_id": "aaaaaaaaaaa1"}
    shot_reply = chat.say("show me the screenshot of the last failed step")   # of the run we talk about
    assert shot_reply["tool_calls"][0]["arguments"] == {"run_id": "aaaaaaaaaaa1"}
    data = shot_reply["tool_results"][0]["data"]
    assert data["screenshot_url"] == "/api/files/runs/aaaaaaaaaaa1/step-2.png" and data["step"] == 2
    assert "no element #wifi within 5s" in shot_reply["content"]
    active = chat.say("what's running on the tv?")
    assert active["tool_calls"][0]["arguments"] == {"device": "living-room", "status": "active"}
    assert "1 active run(s) on living-room: 1. aaaaaaaaaaa2" in active["content"]
    assert chat.say("is the phone free?")["content"] == "pixel-7 (Pixel 7, model pixel7) is offline."
    assert "You're welcome" in chat.say("thanks!")["content"]


def test_cancelling_both_runs_on_the_phone_waits_for_a_yes(srv: Server) -> None:
    add_run(srv, "aaaaaaaaaaa1", "pixel-7", "running")
    add_run(srv, "aaaaaaaaaaa2", "pixel-7", "queued")
    add_run(srv, "bbbbbbbbbbb1", "living-room", "running")
    chat = Chat(srv, "tess", Role.TESTER)
    asked = chat.say("cancel both runs on the phone")
    assert {p["arguments"]["run_id"] for p in asked["pending"]} == {"aaaaaaaaaaa1", "aaaaaaaaaaa2"}
    assert "needs your confirmation" in asked["content"] and asked["tool_results"] == []
    assert srv.runs.get("aaaaaaaaaaa1")["status"] == "running"          # nothing cancelled yet
    done = chat.say("yes")
    assert [r["tool"] for r in done["tool_results"]] == ["cancel_run", "cancel_run"]
    assert srv.runs.get("aaaaaaaaaaa1")["status"] == "cancelled" and srv.runs.get("aaaaaaaaaaa2")["status"] == "cancelled"
    assert srv.runs.get("bbbbbbbbbbb1")["status"] == "running"          # the TV's run was not touched
    # a confirmation that is not given drops the request
    again = Chat(srv, "tess", Role.TESTER)
    again.say("cancel bbbbbbbbbbb1")
    dropped = again.say("which devices are busy?")
    assert "Not confirmed, so I did not cancel run bbbbbbbbbbb1" in dropped["content"]
    assert again.say("yes")["tool_results"] == [] and srv.runs.get("bbbbbbbbbbb1")["status"] == "running"
    # cancelling a run that has ended changes nothing: no confirmation is asked
    ended = again.say("cancel aaaaaaaaaaa1")
    assert ended["pending"] == [] and "had already ended (cancelled); nothing to cancel" in ended["content"]
    # "both" with three active runs is refused in words
    add_run(srv, "ccccccccccc1", "living-room", "running")
    add_run(srv, "ccccccccccc2", "living-room", "running")
    assert "'both' needs two active runs on living-room, but it has 3" in again.say("cancel both runs on the tv")[
        "content"]


def test_the_assistant_cannot_do_what_the_role_cannot(srv: Server) -> None:
    add_run(srv, "aaaaaaaaaaa1", "pixel-7", "running")
    viewer = Chat(srv, "vera", Role.VIEWER)
    refused = viewer.say("run go home on the phone")
    assert "Could not run task: run_task needs the tester role; vera is a viewer" in refused["content"]
    assert srv.runs.list() and len(srv.runs.list()) == 1                 # no run was created
    cancel = viewer.say("cancel aaaaaaaaaaa1")                 # refused at once: no confirmation is offered
    assert "cancel_run needs the tester role; vera is a viewer" in cancel["content"] and cancel["pending"] == []
    assert srv.runs.get("aaaaaaaaaaa1")["status"] == "running"
    # another user's conversation is not theirs to read or continue
    tess = Chat(srv, "tess", Role.TESTER)
    tess.say("which devices are free?")
    assert viewer.http.get(f"/api/assistant/conversations/{tess.conversation}",
                           headers=viewer.headers).status_code == 404
    viewer.conversation = tess.conversation
    assert viewer.say("list runs", status=404)["type"] == "NotFound"


def test_bad_messages_get_a_400_and_create_nothing(srv: Server) -> None:
    chat = Chat(srv, "tess", Role.TESTER)
    for body, words in (({}, "'text' is required"), ({"text": "x" * 2001}, "the limit is 2000"),
                        ({"text": "hi", "confirm": "yes"}, "'confirm' must be true or false"),
                        ({"text": "hi", "conversation": 5}, "'conversation' must be")):
        resp = chat.http.post("/api/assistant/messages", json=body, headers=chat.headers)
        assert resp.status_code == 400 and words in resp.get_json()["error"], resp.get_json()
    assert chat.http.get("/api/assistant/conversations", headers=chat.headers).get_json() == []


def test_every_tool_declares_a_role_from_the_access_policy_and_a_schema() -> None:
    for tool in REGISTRY.values():
        assert tool.role in (Role.VIEWER, Role.TESTER, Role.ADMIN)
        assert tool.declaration()["function"]["parameters"]["type"] == "object"
    assert {t.name for t in REGISTRY.values() if t.destructive} == {"cancel_run", "delete_testcase"}


# -- with the scripted LLM -----------------------------------------------------------------

@pytest.fixture
def llm() -> Iterator[ScriptedLLM]:
    with ScriptedLLM() as fake:
        yield fake


@pytest.fixture
def llm_srv(tmp_path: Path, llm: ScriptedLLM) -> Iterator[Server]:
    server = make_server(tmp_path, LLMSettings(base_url=llm.url, model="scripted", api_key=Secret(KEY),
                                               max_retries=0))
    yield server
    server.db.engine.dispose()


def test_the_two_call_tool_pattern_over_several_turns_with_references(llm_srv: Server, llm: ScriptedLLM) -> None:
    add_run(llm_srv, "aaaaaaaaaaa1", "pixel-7", "failed", "open settings")
    add_run(llm_srv, "aaaaaaaaaaa2", "living-room", "passed", "open the guide")
    chat = Chat(llm_srv, "tess", Role.TESTER)
    llm.script(Reply.tools(("list_runs", {"limit": 2})),
               Reply.text("The last two runs: aaaaaaaaaaa2 passed, aaaaaaaaaaa1 failed."))
    first = chat.say("what ran lately?")
    assert first["source"] == "llm"
    assert first["content"] == "The last two runs: aaaaaaaaaaa2 passed, aaaaaaaaaaa1 failed."
    assert first["usage"]["first"]["total_tokens"] == 480 and first["usage"]["second"]["total_tokens"] == 480
    assert first["usage"]["total_tokens"] == 960 and first["usage"]["llm_calls"] == 2
    offered = {t["function"]["name"] for t in llm.requests[0].body["tools"]}
    assert {"list_devices", "run_task", "cancel_run", "get_failed_step"} <= offered
    assert "delete_testcase" not in offered                       # an admin's tool is not offered to a tester
    tool_message = llm.requests[1].body["messages"][-2]
    assert tool_message["role"] == "tool" and "aaaaaaaaaaa1" in tool_message["content"]

    # turn 2: "the second one" — the model sees the runs shown last, in order, and picks from them
    def second_one(req: RecordedRequest) -> Reply | None:
        if req.body.get("tools"):
            note = re.search(r"Runs shown last, in order: 1\. (\w+), 2\. (\w+)", req.prompt)
            assert note, req.prompt
            return Reply.tools(("get_failed_step", {"run_id": note.group(2)}))
        return None
    llm.responder = second_one
    llm.script(Reply.text(f"Step 2 failed; the screenshot is there. {KEY}"))
    second = chat.say("show me the screenshot of the failed step of the second one")
    llm.responder = None
    assert second["tool_calls"][0]["arguments"] == {"run_id": "aaaaaaaaaaa1"}
    assert KEY not in json.dumps(second) and "[secret removed]" in second["content"]
    stored = chat.http.get(f"/api/assistant/conversations/{chat.conversation}", headers=chat.headers)
    assert KEY not in stored.get_data(as_text=True)
    with llm_srv.db.session() as s:
        from server.assistant.models import AssistantMessageRow
        assert all(KEY not in (r.content or "") for r in s.query(AssistantMessageRow).all())

    # turn 3: commands written as JSON in the text are extracted and validated; unknown tools never run
    add_run(llm_srv, "aaaaaaaaaaa3", "pixel-7", "running", "play a video")
    llm.script(Reply.text('Sure:\n```json\n{"tool_calls": [{"tool": "cancel_run", "arguments": {"run_id": '
                          '"aaaaaaaaaaa3"}}, {"tool": "factory_reset", "arguments": {}}]}\n```'),
               Reply.text("Cancelling aaaaaaaaaaa3 needs your confirmation; factory_reset is not a tool."))
    third = chat.say("cancel the video run and reset the phone")
    assert [c["tool"] for c in third["tool_calls"]] == ["cancel_run"]
    assert third["pending"] == [{"tool": "cancel_run", "arguments": {"run_id": "aaaaaaaaaaa3"}, "id": "text_0"}]
    assert "there is no tool 'factory_reset'" in llm.requests[-1].prompt
    assert "Reply 'yes' to go ahead" in third["content"]
    assert llm_srv.runs.get("aaaaaaaaaaa3")["status"] == "running"
    confirmed = chat.say("ok, go", confirm=True)
    assert confirmed["tool_results"][0]["summary"].startswith("cancelled run aaaaaaaaaaa3")
    assert llm_srv.runs.get("aaaaaaaaaaa3")["status"] == "cancelled"
    conv = chat.http.get(f"/api/assistant/conversations/{chat.conversation}", headers=chat.headers).get_json()
    assert conv["usage"]["total_tokens"] == 3 * 960 and conv["usage"]["llm_calls"] == 6


def test_references_a_model_passes_as_arguments_are_resolved(llm_srv: Server, llm: ScriptedLLM) -> None:
    add_run(llm_srv, "aaaaaaaaaaa1", "pixel-7", "running")
    add_run(llm_srv, "aaaaaaaaaaa2", "pixel-7", "queued")
    chat = Chat(llm_srv, "tess", Role.TESTER)
    llm.script(Reply.tools(("list_runs", {"device": "the phone", "status": "active"})), Reply.text("Two."))
    listed = chat.say("what runs on the phone?")
    assert listed["tool_calls"][0]["arguments"] == {"device": "pixel-7", "status": "active"}
    llm.script(Reply.tools(("cancel_run", {"run_id": "both"})), Reply.text("Please confirm."))
    asked = chat.say("cancel both")
    assert [p["arguments"]["run_id"] for p in asked["pending"]] == ["aaaaaaaaaaa2", "aaaaaaaaaaa1"]
    tool_messages = [m for m in llm.requests[-1].body["messages"] if m["role"] == "tool"]
    assert [m["tool_call_id"] for m in tool_messages] == ["call_0"]      # one answer per call the model made
    done = chat.say("yes")
    assert [r["summary"][:26] for r in done["tool_results"]] == ["cancelled run aaaaaaaaaaa2",
                                                                 "cancelled run aaaaaaaaaaa1"]
    assert llm.calls == 4                                                # "yes" runs what waited: no LLM call


def test_an_endpoint_without_tool_calling_gets_the_calls_as_json_in_text(llm_srv: Server, llm: ScriptedLLM) -> None:
    chat = Chat(llm_srv, "tess", Role.TESTER)
    llm.script(Reply.error(400, "this model does not support tools"),
               Reply.text('{"tool_calls": [{"tool": "list_devices", "arguments": {"kind": "phone"}}]}'),
               Reply.text("The phone is pixel-7; it is offline."))
    answer = chat.say("which phones do we have?")
    assert answer["source"] == "llm" and answer["content"] == "The phone is pixel-7; it is offline."
    assert answer["tool_calls"] == [{"tool": "list_devices", "arguments": {"kind": "phone"}, "id": "text_0"}]
    assert "tools" in llm.requests[0].body and "tools" not in llm.requests[1].body
    assert "pixel-7" in llm.requests[2].prompt and answer["usage"]["llm_calls"] == 3


def test_limits_budget_and_an_unreachable_llm(llm_srv: Server, llm: ScriptedLLM,
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DEVICEPILOT_ASSISTANT_MAX_COMMANDS", "2")
    monkeypatch.setenv("DEVICEPILOT_LLM_DAILY_TOKENS", "1900")
    chat = Chat(llm_srv, "tess", Role.TESTER)
    llm.script(Reply.tools(("list_devices", {}), ("list_runs", {}), ("get_device", {"device": "pixel-7"})),
               Reply.text("Too many at once."))
    many = chat.say("tell me everything")
    assert many["tool_results"] == [] and "the limit is 2, so none ran" in llm.requests[-1].prompt
    llm.script(Reply.tools(("list_devices", {"status": "free"})), Reply.text("None are free."))
    chat.say("which devices are free?")                     # 1920 tokens spent today
    refused = chat.say("and busy?", status=429)
    assert "tess has used 1920 of the 1900 LLM tokens" in refused["error"]
    stored = chat.http.get(f"/api/assistant/conversations/{chat.conversation}", headers=chat.headers).get_json()
    assert len(stored["messages"]) == 4                      # the refused message left nothing behind
    chat.conversation = None
    chat.say("a new conversation", status=429)
    assert len(chat.http.get("/api/assistant/conversations", headers=chat.headers).get_json()) == 1
    assert llm.calls == 4
    # the runs route counts the assistant's tokens too
    resp = chat.http.post("/api/runs", json={"device": "pixel-7", "task": "go home"}, headers=chat.headers)
    assert resp.status_code == 429 and "1920" in resp.get_json()["error"]
    # an LLM that does not answer: the built-in translator answers, and says so
    monkeypatch.setenv("DEVICEPILOT_LLM_DAILY_TOKENS", "0")
    llm.script(Reply.error(401, "bad key"))
    fallback = chat.say("which devices are free?")
    assert fallback["source"] == "builtin" and "The LLM did not answer" in fallback["content"]


def test_the_assistant_is_rate_limited_per_user(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DEVICEPILOT_RATE_LIMIT_ASSISTANT", "3 per minute")
    server = make_server(tmp_path)
    try:
        tess, ada = Chat(server, "tess", Role.TESTER), Chat(server, "ada", Role.ADMIN)
        answers = [tess.http.post("/api/assistant/messages", json={"text": "list runs"}, headers=tess.headers)
                   for _ in range(4)]
        assert [a.status_code for a in answers] == [201, 201, 201, 429]
        assert int(answers[3].headers["Retry-After"]) > 0 and "too many requests" in answers[3].get_json()["error"]
        assert ada.say("list runs")["tool_calls"][0]["tool"] == "list_runs"     # counted per user
    finally:
        server.db.engine.dispose()


JSON = st.recursive(st.none() | st.booleans() | st.integers() | st.text(max_size=30),
                    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=10), inner,
                                                                                max_size=4),
                    max_leaves=12)
PHRASES = st.lists(st.sampled_from(["run", "plan", "cancel", "both", "all", "the", "first", "one", "that", "on",
                                    "phone", "tv", "web", "runs", "devices", "free", "screenshot", "failed", "step",
                                    "save", "as", "test", "named", "yes", "no", "aaaaaaaaaaa1", "pixel-7", "?", "it"]),
                   min_size=1, max_size=8).map(" ".join)


def test_no_message_makes_the_assistant_fail_with_a_500(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DEVICEPILOT_RATE_LIMIT_ASSISTANT", "100000 per minute")
    server = make_server(tmp_path)
    add_run(server, "aaaaaaaaaaa1", "pixel-7", "running")
    chat = Chat(server, "tess", Role.TESTER)

    @settings(max_examples=80, deadline=None, suppress_health_check=list(HealthCheck))
    @given(text=PHRASES | st.text(max_size=60), extra=st.dictionaries(st.sampled_from(["confirm", "conversation"]),
                                                                        JSON, max_size=2))
    def check(text: str, extra: dict[str, Any]) -> None:
        resp = chat.http.post("/api/assistant/messages", json={"text": text, **extra}, headers=chat.headers)
        assert resp.status_code in (201, 400, 404), (text, extra, resp.status_code, resp.get_data(as_text=True))
        assert resp.get_json()

    try:
        check()
        assert server.runs.get("aaaaaaaaaaa1")["status"] == "running"   # nothing destructive ran unconfirmed
    finally:
        server.db.engine.dispose()
