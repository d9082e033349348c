"""Who may call what: one rule per Flask endpoint, in one table.

Every endpoint of the app must be listed here. An endpoint with no rule is
refused to everyone (403) and fails the contract test that walks
``app.url_map``, so a new route cannot slip through unprotected.
"""
from __future__ import annotations

from typing import Final

from server.auth_users import Role

PUBLIC: Final = "public"

V, T, A = Role.VIEWER, Role.TESTER, Role.ADMIN

POLICY: dict[str, Role | str] = {
    # public: health, logging in, and the dashboard's own files (no lab data in them)
    "api.health": PUBLIC,
    "auth.login": PUBLIC,
    "auth.login_link": PUBLIC,
    "index": PUBLIC,
    "static_files": PUBLIC,
    # the session
    "auth.me": V,
    "auth.logout": V,
    "auth.create_login_link": A,
    "auth.list_users": A,
    # the lab
    "api.hosts": V,
    "api.devices": V,
    "api.device": V,
    "api.device_context": V,
    "api.device_screenshot": V,
    "dashboard_api.device_thumbnail": V,
    "api.device_execute": T,
    "api_schedules.list_schedules": V,
    "api_schedules.get_schedule": V,
    "api_schedules.add_schedule": T,
    "api_schedules.delete_schedule": T,
    "api_schedules.run_schedule_now": T,
    "api.list_next_commands": V,
    "api.schedule_next_command": T,
    "api.cancel_next_command": T,
    # runs and their artefacts
    "api.create_run": T,
    "api.list_runs": V,
    "api.get_run": V,
    "api.cancel_run": T,
    "api.report_html": V,
    "api.report_json": V,
    "api.report_junit": V,
    "api.stored_file": V,
    # navigation trees
    "api.get_tree": V,
    "api.put_tree": A,
    "dashboard_api.list_userinterfaces": V,
    "dashboard_api.navigation_path": V,
    # AI Central
    "api.context_cache": V,
    "api.clear_context_cache": T,
    "api_plans.list_cached_plans": V,
    "api_plans.get_cached_plan": V,
    "api_plans.pin_cached_plan": T,
    "api_plans.delete_cached_plan": A,
    "api_plans.clear_plan_cache": A,
    # test cases
    "api_plans.save_test": T,
    "api_plans.list_testcases": V,
    "api_plans.get_testcase": V,
    "api_plans.delete_testcase": A,
    "api_plans.run_testcase": T,
    # rules (named phrases) and the planning record
    "api_rules.list_rules": V,
    "api_rules.get_rule": V,
    "api_rules.rule_versions": V,
    "api_rules.export_rules": V,
    "api_rules.add_rule": T,
    "api_rules.update_rule": T,
    "api_rules.import_rules": T,
    "api_rules.delete_rule": A,
    "api_planning.run_planning": V,
    "api_planning.prompt_templates": V,
    # what the device's screen shows now
    "api_screen.device_screen": V,
    # exploring a device drives it: a tester's act; reading the draft is a viewer's
    "api_explore.start_exploration": T,
    "api_explore.get_exploration": V,
    # the audit log
    "audit.list_audit": A,
    "openapi.document": V,
    # the assistant: its tools check each call against the rule of the route they stand for
    "assistant.post_message": V,
    "assistant.list_conversations": V,
    "assistant.get_conversation": V,
}


def rule_for(endpoint: str | None) -> Role | str | None:
    return POLICY.get(endpoint or "")
