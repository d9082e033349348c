"""Rules in the database: every save a new version, deletion a tombstone, YAML in and out.

A rule is identified by its scope (a user interface, or ``""`` for global)
and its id, the slug of its name (``"tune to {n}"`` → ``tune-to-n``).
Saving refuses a rule whose name clashes with another rule of its scope, and
a rule that would call itself, directly or through other rules
(:func:`server.rules.find_cycle`).

The YAML form, for import and export::

    rules:
      - name: tune to {n}
        scope: streamtv
        tasks: switch to channel {n}
      - name: reset the player
        steps:
          - {command: press_key, params: {key: BACK}, description: Leave the player}
"""
from __future__ import annotations

import logging
from typing import Any

import yaml
from sqlalchemy import func, select

from server.db import Database, RuleRow
from server.rules import GLOBAL, Rule, applicable, calls, find_cycle, slug
from shared.errors import NotFound, RequestError

log = logging.getLogger(__name__)


class RuleConflict(RequestError):
    """The rule's name clashes with another rule, or it would call itself."""

    status_code = 400


def _rule(row: RuleRow) -> Rule:
    return Rule.from_dict({**row.body, "name": row.name, "scope": row.scope, "version": row.version})


def _body(rule: Rule) -> dict[str, Any]:
    d = rule.to_dict()
    return {k: d[k] for k in ("tasks", "steps", "description") if k in d}


class RuleStore:
    def __init__(self, db: Database) -> None:
        self.db = db

    # -- reading ------------------------------------------------------------------------------
    def _latest_rows(self, scope: str | None = None) -> list[RuleRow]:
        with self.db.session() as s:
            newest = (select(RuleRow.rule_id, RuleRow.scope, func.max(RuleRow.version).label("v"))
                      .group_by(RuleRow.rule_id, RuleRow.scope).subquery())
            q = (select(RuleRow).join(newest, (RuleRow.rule_id == newest.c.rule_id) &
                                      (RuleRow.scope == newest.c.scope) & (RuleRow.version == newest.c.v))
                 .where(RuleRow.deleted.is_(False)).order_by(RuleRow.scope, RuleRow.rule_id))
            if scope is not None:
                q = q.where(RuleRow.scope == scope)
            return list(s.scalars(q))

    def list(self, scope: str | None = None) -> list[Rule]:
        """The current version of every rule (of one scope when given; ``""`` is the global scope)."""
        return [_rule(r) for r in self._latest_rows(scope)]

    def for_userinterface(self, userinterface: str) -> list[Rule]:
        """The rules a task on *userinterface* may name: its own and the global ones."""
        return [r for r in self.list() if r.scope in (GLOBAL, userinterface)]

    def get(self, ref: str, scope: str | None = None) -> Rule:
        """The current version of the rule *ref* (its id or its name) in *scope* (any scope when None)."""
        wanted = slug(ref)
        found = [r for r in self.list(scope) if r.id == wanted]
        if not found:
            where = "" if scope is None else f" in {'the global scope' if not scope else 'scope ' + repr(scope)}"
            raise NotFound(f"no rule {ref!r}{where} (see GET /api/rules)")
        if len(found) > 1:
            raise RequestError(f"rule {ref!r} exists in several scopes "
                               f"({', '.join(r.scope or 'global' for r in found)}); say which with ?scope=")
        return found[0]

    def versions(self, ref: str, scope: str | None = None) -> list[dict[str, Any]]:
        rule = self.get(ref, scope)
        with self.db.session() as s:
            rows = s.scalars(select(RuleRow).where(RuleRow.rule_id == rule.id, RuleRow.scope == rule.scope)
                             .order_by(RuleRow.version)).all()
            return [{**(_rule(r).to_dict() if not r.deleted else {"id": r.rule_id, "name": r.name}),
                     "version": r.version, "deleted": r.deleted, "created_at": r.created_at.isoformat() + "Z"}
                    for r in rows]

    # -- writing ------------------------------------------------------------------------------
    def save(self, rule: Rule) -> Rule:
        """Store *rule* as a new version of itself; refuse name clashes and cycles."""
        rule = rule.check()
        current = self.list()
        for other in current:
            if other.scope == rule.scope and other.key == rule.key and other.id != rule.id:
                raise RuleConflict(f"rule {rule.name!r} reads the same as rule {other.name!r} in "
                                   f"{'the global scope' if not rule.scope else 'scope ' + repr(rule.scope)}; "
                                   f"edit that one or choose other words")
        cycle = find_cycle(rule, current)
        if cycle:
            raise RuleConflict(f"rule {rule.name!r} would call itself: {' → '.join(repr(n) for n in cycle)}")
        with self.db.session() as s:
            last = s.scalar(select(func.max(RuleRow.version))
                            .where(RuleRow.rule_id == rule.id, RuleRow.scope == rule.scope)) or 0
            version = last + 1
            s.add(RuleRow(rule_id=rule.id, scope=rule.scope, version=version, name=rule.name, body=_body(rule)))
        log.info("rule %r (%s) saved as version %d", rule.name, rule.scope or "global", version)
        return Rule(rule.name, rule.scope, rule.tasks, rule.steps, rule.description, version)

    def delete(self, ref: str, scope: str | None = None) -> Rule:
        """Delete a rule (its versions stay, behind a tombstone). Refused while another rule calls it."""
        rule = self.get(ref, scope)
        current = self.list()
        callers = [r for r in current if r.id != rule.id and any(
            c.id == rule.id and c.scope == rule.scope for c in calls(r, applicable(current, r.scope or rule.scope)))]
        if callers:
            raise RuleConflict(f"rule {rule.name!r} is used by {', '.join(repr(c.name) for c in callers)}")
        with self.db.session() as s:
            last = s.scalar(select(func.max(RuleRow.version))
                            .where(RuleRow.rule_id == rule.id, RuleRow.scope == rule.scope)) or 0
            s.add(RuleRow(rule_id=rule.id, scope=rule.scope, version=last + 1, name=rule.name, body={},
                          deleted=True))
        log.info("rule %r (%s) deleted", rule.name, rule.scope or "global")
        return rule

    # -- YAML ---------------------------------------------------------------------------------
    def export_yaml(self, scope: str | None = None) -> str:
        rules = []
        for r in self.list(scope):
            d = {"name": r.name}
            if r.scope:
                d["scope"] = r.scope
            d.update(_body(r))
            rules.append(d)
        return yaml.safe_dump({"rules": rules}, sort_keys=False, allow_unicode=True)

    def import_yaml(self, text: str) -> list[Rule]:
        """Save every rule of a YAML document (``rules: [...]`` or a bare list), in order.

        Every rule is checked for form first, so a malformed document saves nothing; a name clash or a
        cycle stops the import at that rule (the ones before it are saved, each a new version).
        """
        try:
            data = yaml.safe_load(text)
        except yaml.YAMLError as exc:
            raise RequestError(f"the rules YAML does not parse: {exc}") from None
        items = data.get("rules") if isinstance(data, dict) else data
        if not isinstance(items, list) or not items:
            raise RequestError("the rules YAML must hold a list under 'rules:'")
        rules = [Rule.from_dict(item).check() for item in items]   # every rule well formed before any is saved
        return [self.save(rule) for rule in rules]
