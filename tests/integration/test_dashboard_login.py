"""Logging in to the dashboard in a real browser: the login page, the session, the role shown, logging out."""
from __future__ import annotations

import subprocess
import sys
from typing import Iterator

import pytest
from playwright.sync_api import Browser, expect

from tests.integration.dashboard_helpers import LAPTOP, PageWatch, launch_browser
from tests.stack import ROOT, Stack

pytestmark = pytest.mark.integration


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    yield from launch_browser()


def test_a_person_logs_in_with_a_password_sees_their_role_and_logs_out(browser: Browser, demo_stack: Stack) -> None:
    added = subprocess.run([sys.executable, "-m", "devicepilot", "user", "add", "vera", "--role", "viewer",
                            "--password-stdin"], input="a long passphrase\n", env=demo_stack.env, cwd=ROOT,
                           capture_output=True, text=True, timeout=60)
    assert added.returncode == 0, added.stderr
    context = browser.new_context(viewport=LAPTOP, base_url=demo_stack.url)
    page = context.new_page()
    page.set_default_timeout(20_000)
    watch = PageWatch().attach(page)
    try:
        page.goto("/")                                   # not logged in: sent to the login page
        page.wait_for_url("**/login")
        # the first page of a browser context can take long on a loaded CI machine
        expect(page.get_by_label("Name")).to_be_editable(timeout=60_000)
        page.get_by_label("Name").fill("vera")
        page.get_by_label("Password").fill("wrong passphrase")
        page.get_by_role("button", name="Log in").click()
        expect(page.get_by_role("alert")).to_contain_text("wrong name, password or token")
        page.get_by_label("Password").fill("a long passphrase")
        page.get_by_role("button", name="Log in").click()
        expect(page.locator("#whoami")).to_have_text("vera · viewer")
        expect(page.locator("#conn")).to_have_class("conn conn--up")   # the live events accepted the session
        cookie = next(c for c in context.cookies() if c["name"] == "devicepilot_session")
        assert cookie["httpOnly"] and cookie["sameSite"] == "Lax"
        page.get_by_role("button", name="Log out").click()
        page.wait_for_url("**/login")
        assert context.request.get(f"{demo_stack.url}/api/devices").status == 401
    finally:
        context.close()
    # the 401s of the anonymous first visit and the refused password are expected answers
    assert not [e for e in watch.errors if "401" not in e], watch.errors
