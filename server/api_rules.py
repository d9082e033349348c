"""REST endpoints of rules (named phrases a task may use)::

    GET    /api/rules                    current rules (?scope=UI; ?scope= for global only)
    POST   /api/rules                    {name, scope?, tasks | steps, description?} → a new rule or version
    GET    /api/rules/export             all current rules as YAML (?scope=)
    POST   /api/rules/import             a YAML document (rules: [...]) → the saved rules
    GET    /api/rules/<id>               one rule (its id, the slug of its name, or its name; ?scope=)
    PUT    /api/rules/<id>               save a new version (the body may rename nothing: name defaults to <id>'s)
    GET    /api/rules/<id>/versions      every version, with tombstones
    DELETE /api/rules/<id>               delete (refused while another rule uses it)

A rule that would call itself, directly or through other rules, is refused
with 400 and the cycle spelled out.
"""
from __future__ import annotations

from typing import Any

from flask import Blueprint, Response, jsonify, request

from server.api import body, server
from server.rule_store import RuleStore
from server.rules import Rule
from shared.errors import RequestError

api_rules = Blueprint("api_rules", __name__, url_prefix="/api")


def rule_store() -> RuleStore:
    srv = server()
    store = srv.extras.get("rules")
    if store is None:
        store = srv.extras["rules"] = RuleStore(srv.db)
    return store


def _scope() -> str | None:
    return request.args.get("scope") if "scope" in request.args else None


@api_rules.get("/rules")
def list_rules() -> Any:
    return jsonify([r.to_dict() for r in rule_store().list(_scope())])


@api_rules.post("/rules")
def add_rule() -> Any:
    rule = rule_store().save(Rule.from_dict(body()))
    return jsonify(rule.to_dict()), 201


@api_rules.get("/rules/export")
def export_rules() -> Any:
    return Response(rule_store().export_yaml(_scope()), mimetype="application/yaml")


@api_rules.post("/rules/import")
def import_rules() -> Any:
    text = request.get_data(as_text=True)
    if not text.strip():
        raise RequestError("send the rules as a YAML document (rules: [...]) in the request body")
    return jsonify([r.to_dict() for r in rule_store().import_yaml(text)]), 201


@api_rules.get("/rules/<ref>/versions")
def rule_versions(ref: str) -> Any:
    return jsonify(rule_store().versions(ref, _scope()))


@api_rules.get("/rules/<ref>")
def get_rule(ref: str) -> Any:
    return jsonify(rule_store().get(ref, _scope()).to_dict())


@api_rules.put("/rules/<ref>")
def update_rule(ref: str) -> Any:
    store = rule_store()
    current = store.get(ref, _scope())
    data = {"name": current.name, "scope": current.scope, **body()}
    if Rule.from_dict(data).id != current.id:
        raise RequestError(f"PUT saves a new version of {current.name!r}; to rename it, POST the new rule "
                           "and DELETE this one")
    return jsonify(store.save(Rule.from_dict(data)).to_dict())


@api_rules.delete("/rules/<ref>")
def delete_rule(ref: str) -> Any:
    rule = rule_store().delete(ref, _scope())
    return jsonify({"deleted": rule.id, "name": rule.name, "scope": rule.scope or None})
