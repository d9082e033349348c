"""The OpenAPI document matches the app's routes, and a property-based fuzzer driven by it finds no 5xx."""
from __future__ import annotations

import json
from typing import Any, Iterator
from urllib.parse import quote

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from server.app import Server, create_app
from server.auth_users import Role
from server.openapi import OPERATIONS, UNDOCUMENTED
from server.planners.builtin import BuiltinPlanner
from shared.config import Settings
from tests.auth_helpers import token_for

# cases per run: each run draws new ones (no example database), so runs add up; 800 take about 12 s on an idle
# machine, and this test runs beside the held-out eval, which stretches it several times over
FUZZ_EXAMPLES = 800
TALLY = {"cases": 0, "5xx": 0}


@pytest.fixture(scope="module")
def srv(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    server = create_app(Settings(data_dir=tmp_path_factory.mktemp("openapi")), planners=[BuiltinPlanner()])
    yield server
    server.db.engine.dispose()


@pytest.fixture(scope="module")
def admin(srv: Server) -> dict[str, str]:
    return {"Authorization": f"Bearer {token_for(srv.users, 'fuzz-admin', Role.ADMIN)}"}


@pytest.fixture(scope="module")
def document(srv: Server, admin: dict[str, str]) -> dict[str, Any]:
    r = srv.app.test_client().get("/api/openapi.json", headers=admin)
    assert r.status_code == 200
    return r.get_json()


def test_the_document_lists_every_route_and_only_routes(srv: Server, document: dict[str, Any]) -> None:
    routes = {(rule.endpoint, m.lower()) for rule in srv.app.url_map.iter_rules()
              for m in rule.methods - {"HEAD", "OPTIONS"} if rule.endpoint not in UNDOCUMENTED}
    documented = {(op["operationId"], method) for item in document["paths"].values() for method, op in item.items()}
    assert routes == documented
    endpoints = {e for e, _ in routes}
    assert endpoints == set(OPERATIONS), "describe new endpoints in server/openapi.py OPERATIONS"
    assert document["openapi"].startswith("3.")
    assert "{run_id}" in "".join(document["paths"])


def test_the_document_needs_a_login(srv: Server) -> None:
    assert srv.app.test_client().get("/api/openapi.json").status_code == 401


# -- fuzzing -------------------------------------------------------------------------------------

NASTY = ["", "..", "../../x", "%00", "\x00", "\ud800", "demo-web", "0123456789ab", "streamtv", "a" * 300, "-1",
         "1e309", "NaN", "true", "null", "{}", "[]", "\u202e", "1" * 25]
TEXT = st.one_of(st.sampled_from(NASTY), st.text(max_size=40))
JSON_ANY = st.recursive(st.none() | st.booleans() | st.integers(-2**70, 2**70) | st.floats(allow_nan=False) | TEXT,
                        lambda inner: st.lists(inner, max_size=4) | st.dictionaries(TEXT, inner, max_size=4),
                        max_leaves=12)


def from_schema(schema: dict[str, Any]) -> st.SearchStrategy[Any]:
    """Values shaped like *schema* most of the time, anything at all the rest."""
    kind = schema.get("type")
    if "enum" in schema:
        shaped: st.SearchStrategy[Any] = st.sampled_from(schema["enum"])
    elif kind == "object" and schema.get("properties"):
        shaped = st.fixed_dictionaries({}, optional={k: from_schema(v) for k, v in schema["properties"].items()})
    elif kind == "array":
        shaped = st.lists(from_schema(schema.get("items", {})), max_size=schema.get("maxItems", 5) + 2)
    elif kind == "string":
        shaped = TEXT
    elif kind == "integer":
        shaped = st.integers(-2**70, 2**70)
    elif kind == "boolean":
        shaped = st.booleans()
    else:
        shaped = JSON_ANY
    return st.one_of(shaped, shaped, shaped, JSON_ANY)


def operations(document: dict[str, Any]) -> list[tuple[str, str, dict[str, Any]]]:
    return [(path, method, op) for path, item in document["paths"].items() for method, op in item.items()
            if op["operationId"] not in ("auth.logout",)]


def encode(value: Any) -> str:
    return quote(str(value).encode("utf-8", "surrogatepass"), safe="")


def test_fuzzing_the_documented_api_finds_no_5xx(srv: Server, admin: dict[str, str], document: dict[str, Any]) -> None:
    ops = operations(document)
    http = srv.app.test_client()

    @settings(max_examples=FUZZ_EXAMPLES, deadline=None, database=None,
              suppress_health_check=list(HealthCheck))
    @given(st.data())
    def case(data: st.DataObject) -> None:
        path, method, op = data.draw(st.sampled_from(ops))
        url = path
        for p in op.get("parameters", []):
            if p["in"] == "path":
                value = data.draw(st.integers(0, 10**25) if p["schema"]["type"] == "integer" else TEXT)
                url = url.replace("{" + p["name"] + "}", encode(value) or "x")
        query = {p["name"]: data.draw(TEXT) for p in op.get("parameters", [])
                 if p["in"] == "query" and data.draw(st.booleans())}
        if query:
            url += "?" + "&".join(f"{k}={encode(v)}" for k, v in query.items())
        body = op.get("requestBody", {}).get("content", {}).get("application/json", {}).get("schema")
        payload = json.dumps(data.draw(from_schema(body) if body else JSON_ANY)) if method != "get" else None
        r = http.open(url, method=method.upper(), headers={**admin, "Content-Type": "application/json"},
                      data=payload)
        TALLY["cases"] += 1
        if r.status_code >= 500:
            TALLY["5xx"] += 1
        assert r.status_code < 500, (method, url, payload and payload[:300], r.status_code,
                                     r.get_data(as_text=True)[:500])

    case()
    print(f"\nfuzz: {TALLY['cases']} cases over {len(ops)} operations, {TALLY['5xx']} responses of 5xx")
    assert TALLY["cases"] >= FUZZ_EXAMPLES * 0.9
