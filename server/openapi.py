"""The OpenAPI 3.1 document of the REST API, served at ``GET /api/openapi.json``.

Paths and methods come from ``app.url_map`` itself; what each operation means,
its query parameters and its JSON body come from :data:`OPERATIONS`, one entry
per endpoint. ``tests/unit/test_openapi.py`` fails when a route has no entry or
an entry has no route, so the document cannot drift from the code.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from flask import Blueprint, Flask, current_app, jsonify

from server.auth_policy import PUBLIC, POLICY
from server.auth_users import Role

openapi_api = Blueprint("openapi", __name__)

UNDOCUMENTED = frozenset({"index", "static_files", "auth.login_link"})   # the dashboard's page and files

OBJ: dict[str, Any] = {"type": "object"}
STR: dict[str, Any] = {"type": "string"}


@dataclass(frozen=True)
class Op:
    summary: str
    query: tuple[str, ...] = ()
    body: dict[str, Any] | None = None
    extra_codes: tuple[int, ...] = ()
    tags: tuple[str, ...] = field(default=())


PLAN = {"type": "object", "properties": {"analysis": STR, "feasible": {"type": "boolean"},
                                         "plan": {"type": "array", "maxItems": 100, "items": {
                                             "type": "object", "required": ["command"],
                                             "properties": {"step": {"type": "integer"}, "command": STR,
                                                            "params": OBJ, "description": STR}}}}}

RULE = {"type": "object", "properties": {"name": STR, "scope": STR, "description": STR, "tasks": STR,
                                         "steps": {"type": "array", "items": OBJ}}}

OPERATIONS: dict[str, Op] = {
    "api_rules.list_rules": Op("Rules (named phrases a task may use), each at its latest version", query=("scope",)),
    "api_rules.get_rule": Op("One rule at its latest version", query=("scope",)),
    "api_rules.rule_versions": Op("Every saved version of a rule", query=("scope",)),
    "api_rules.export_rules": Op("All rules as YAML"),
    "api_rules.add_rule": Op("Save a new rule; a rule that would call itself is refused", body=RULE),
    "api_rules.update_rule": Op("Save a new version of a rule", query=("scope",), body=RULE),
    "api_rules.import_rules": Op("Import rules from YAML (all or nothing)"),
    "api_rules.delete_rule": Op("Delete a rule (its history is kept); a rule another rule uses cannot go",
                                query=("scope",)),
    "api_planning.run_planning": Op("How a run was planned: planners tried, prompt and raw answer (secrets scrubbed), "
                                    "what validation dropped, closed-loop observations, tokens and time"),
    "api_planning.prompt_templates": Op("The LLM prompt templates a run may choose"),
    "api_screen.device_screen": Op("What the device's screen shows now: URL, title and elements with role, name, "
                                   "text, value, state and row"),
    "api_explore.start_exploration": Op("Explore the device from its current screen and draft its navigation tree "
                                        "(runs in the background; 202 with the exploration's id)",
                                        body={"type": "object", "properties": {
                                            "max_screens": {"type": "integer", "minimum": 1, "maximum": 60},
                                            "max_depth": {"type": "integer", "minimum": 1, "maximum": 8},
                                            "budget_s": {"type": "number", "minimum": 1, "maximum": 900},
                                            "allow_destructive": {"type": "boolean"}}}),
    "api_explore.get_exploration": Op("An exploration's progress, and its draft for review once done"),
    "api.health": Op("Server status, hosts online and devices (no login needed)"),
    "auth.login": Op("Log in: {name, password} or {token} → a dashboard session cookie and its CSRF token",
                     body={"type": "object", "properties": {"name": STR, "password": STR, "token": STR}}),
    "auth.logout": Op("End the dashboard session"),
    "auth.me": Op("Who is logged in, and the session's CSRF token"),
    "auth.create_login_link": Op("A one-time login link (15 minutes) for a user (admin)",
                                 body={"type": "object", "properties": {"user": STR}}),
    "auth.list_users": Op("Users and their roles (admin)"),
    "api.hosts": Op("Hosts and whether they are connected"),
    "api.devices": Op("Devices with their state (online, busy, offline)"),
    "api.device": Op("One device"),
    "api.device_context": Op("The device's context as AI Central sees it"),
    "api.device_screenshot": Op("The device's screen now (PNG)"),
    "dashboard_api.device_thumbnail": Op("A small JPEG of the device's screen, shared for a few seconds",
                                         query=("width",)),
    "api.device_execute": Op("Run one validated command outside any run",
                             body={"type": "object", "required": ["command"],
                                   "properties": {"command": STR, "params": OBJ, "confirm": {"type": "boolean"}}},
                             extra_codes=(409, 428, 429, 503)),
    "api.list_next_commands": Op("Commands waiting for the device's next run, and those that ran (audit)",
                                 query=("limit",)),
    "api.schedule_next_command": Op("Schedule a declared command (or refresh_context) for the start of the "
                                    "device's next run", extra_codes=(428,),
                                    body={"type": "object", "required": ["command"],
                                          "properties": {"command": STR, "params": OBJ,
                                                         "max_retries": {"type": "integer", "minimum": 0,
                                                                         "maximum": 5},
                                                         "timeout": {"type": "number", "exclusiveMinimum": 0},
                                                         "confirm": {"type": "boolean"}}}),
    "api.cancel_next_command": Op("Take a pending command off the device's next run"),
    "api_schedules.list_schedules": Op("Suites the server runs on a cron schedule, with their next run"),
    "api_schedules.get_schedule": Op("One schedule: its cron, device, suite and next run"),
    "api_schedules.add_schedule": Op("Schedule a suite (the YAML of devicepilot suite) with a crontab expression (UTC)",
                                     body={"type": "object", "required": ["name", "cron", "suite"],
                                           "properties": {"name": STR, "cron": STR, "device": STR,
                                                          "suite": {}}}),
    "api_schedules.delete_schedule": Op("Delete a schedule"),
    "api_schedules.run_schedule_now": Op("Queue a scheduled suite's runs now"),
    "api.create_run": Op("Queue a run: plan (mode plan) or plan and run a task; ?wait=SECONDS waits for its end",
                         query=("wait",), extra_codes=(428, 429, 503),
                         body={"type": "object", "required": ["device", "task"],
                               "properties": {"device": STR, "task": {"type": "string", "maxLength": 2000},
                                              "mode": {"enum": ["run", "plan"]}, "plan": PLAN,
                                              "no_cache": {"type": "boolean"}, "confirm": {"type": "boolean"},
                                              "priority": {"type": "integer", "minimum": -100, "maximum": 100},
                                              "run_timeout": {"type": "number", "exclusiveMinimum": 0},
                                              "next_run": {"type": "array", "maxItems": 20, "items": OBJ},
                                              "limits": {"type": "object", "properties": {
                                                  "step_timeout": {"type": "number", "exclusiveMinimum": 0},
                                                  "max_retries": {"type": "integer", "minimum": 0,
                                                                  "maximum": 5}}}}}),
    "api.list_runs": Op("Run history", query=("device", "status", "planner", "since", "until", "limit", "offset")),
    "api.get_run": Op("A run with its plan and steps; ?wait=SECONDS waits for its end", query=("wait",)),
    "api.cancel_run": Op("Cancel a run in any state that is not an end (queued, planning or running)"),
    "api.report_html": Op("The run's HTML report"),
    "api.report_json": Op("The run's JSON report"),
    "api.report_junit": Op("The run's JUnit XML report"),
    "api.stored_file": Op("A run artefact (screenshot, report) under runs/ or reports/"),
    "api.get_tree": Op("The latest navigation tree of a user interface"),
    "api.put_tree": Op("Store an edited navigation tree as a new version (admin)",
                       body={"type": "object", "properties": {"tree": {
                           "type": "object", "properties": {"userinterface": STR, "nodes": {"type": "array"},
                                                            "edges": {"type": "array"}}}}}),
    "dashboard_api.list_userinterfaces": Op("User interfaces with a stored tree"),
    "dashboard_api.navigation_path": Op("The path goto would take between two nodes", query=("from", "to")),
    "api.context_cache": Op("The cached device contexts"),
    "api.clear_context_cache": Op("Clear cached contexts", query=("model", "userinterface")),
    "api_plans.list_cached_plans": Op("Plan cache entries",
                                      query=("device_model", "userinterface", "task", "limit", "offset")),
    "api_plans.get_cached_plan": Op("One plan cache entry"),
    "api_plans.pin_cached_plan": Op("Pin or unpin a plan cache entry",
                                    body={"type": "object", "properties": {"pinned": {"type": "boolean"}}}),
    "api_plans.delete_cached_plan": Op("Invalidate one plan cache entry (admin; ?confirm=true)", query=("confirm",),
                                       extra_codes=(428,)),
    "api_plans.clear_plan_cache": Op("Clear the plan cache (admin; ?confirm=true)", extra_codes=(428,),
                                     query=("include_pinned", "device_model", "userinterface", "confirm")),
    "api_plans.save_test": Op("Save a passed run as a test case",
                              body={"type": "object", "properties": {"name": STR, "overwrite": {"type": "boolean"}}}),
    "api_plans.list_testcases": Op("Saved test cases"),
    "api_plans.get_testcase": Op("A test case's YAML (JSON with Accept: application/json)"),
    "api_plans.delete_testcase": Op("Delete a test case (admin; ?confirm=true)", query=("confirm",),
                                    extra_codes=(428,)),
    "api_plans.run_testcase": Op("Run a saved test case as saved", query=("wait",), extra_codes=(429,),
                                 body={"type": "object", "properties": {"device": STR,
                                                                        "mode": {"enum": ["run", "plan"]}}}),
    "audit.list_audit": Op("The audit log (admin)", query=("user", "device", "action", "run", "limit", "offset")),
    "openapi.document": Op("This document"),
    "assistant.post_message": Op("Ask the lab assistant; it answers with the allowlisted tools it ran with your "
                                 "rights (destructive ones after a confirmation)", extra_codes=(429,),
                                 body={"type": "object", "required": ["text"],
                                       "properties": {"text": {"type": "string", "maxLength": 2000},
                                                      "conversation": STR, "confirm": {"type": "boolean"}}}),
    "assistant.list_conversations": Op("Your assistant conversations, newest first", query=("limit", "offset")),
    "assistant.get_conversation": Op("One of your conversations with every message, tool call, result and "
                                     "token usage"),
}

ERROR = {"$ref": "#/components/schemas/Error"}


def _path(rule: str) -> tuple[str, list[dict[str, Any]]]:
    params: list[dict[str, Any]] = []

    def repl(m: re.Match[str]) -> str:
        converter, name = m.group(1) or "", m.group(2)
        schema = {"type": "integer", "minimum": 0} if converter.startswith("int") else {"type": "string"}
        params.append({"name": name, "in": "path", "required": True, "schema": schema})
        return "{" + name + "}"

    return re.sub(r"<(?:([^:>]+):)?([a-z_]+)>", repl, rule), params


def build(app: Flask, version: str) -> dict[str, Any]:
    paths: dict[str, dict[str, Any]] = {}
    for rule in sorted(app.url_map.iter_rules(), key=lambda r: r.rule):
        if rule.endpoint in UNDOCUMENTED:
            continue
        op = OPERATIONS.get(rule.endpoint)
        if op is None:
            continue
        path, params = _path(rule.rule)
        access = POLICY.get(rule.endpoint)
        for method in sorted(rule.methods - {"HEAD", "OPTIONS"}):
            responses: dict[str, Any] = {"200": {"description": "OK"},
                                         "400": {"description": "bad input", "content": {"application/json": {"schema": ERROR}}}}
            if access != PUBLIC:
                responses["401"] = {"description": "not logged in"}
                responses["403"] = {"description": "role too low, foreign Origin or CSRF check failed"}
            responses["404"] = {"description": "no such thing"}
            for code in op.extra_codes:
                responses[str(code)] = {"description": "see the README's error table"}
            operation: dict[str, Any] = {
                "operationId": rule.endpoint, "summary": op.summary, "responses": responses,
                "parameters": params + [{"name": q, "in": "query", "required": False, "schema": {"type": "string"}}
                                        for q in op.query],
                "x-role": access.label if isinstance(access, Role) else "public",
            }
            if access != PUBLIC:
                operation["security"] = [{"bearer": []}, {"session": []}]
            if op.body is not None and method in ("POST", "PUT", "PATCH"):
                operation["requestBody"] = {"required": False, "content": {"application/json": {"schema": op.body}}}
            paths.setdefault(path, {})[method.lower()] = operation
    return {
        "openapi": "3.1.0",
        "info": {"title": "devicepilot", "version": version,
                 "description": "Plain-language test tasks planned and run on real devices. Send "
                                "Authorization: Bearer <token> (devicepilot token create), or use a dashboard "
                                "session with its X-CSRFToken."},
        "paths": paths,
        "components": {
            "securitySchemes": {"bearer": {"type": "http", "scheme": "bearer"},
                                "session": {"type": "apiKey", "in": "cookie", "name": "devicepilot_session"}},
            "schemas": {"Error": {"type": "object", "required": ["error", "type"],
                                  "properties": {"error": STR, "type": STR}}},
        },
    }


@openapi_api.get("/api/openapi.json")
def document() -> Any:
    srv = current_app.extensions["devicepilot"]
    return jsonify(build(current_app, srv.version))
