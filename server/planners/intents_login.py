"""Signing in: "log in as alice with password secret", "sign in with username bob and password hunter2",
"login as admin/admin".

:func:`restate_login` writes each wording as one clause, ``log in as "alice" with password "secret"``, before
the task is split into clauses (its "and password …" is no clause of its own). :func:`login_intent` then fills
the screen's user name field and its password field (the one the page masks), submits the form, and proves it by
the password field being gone: a wrong password leaves the form there, and the run fails. A form that asks for
the user name first and the password on the next screen ("Next") is signed in over two screens.
"""
from __future__ import annotations

import re

from server.planners import checks, grounding
from server.planners.checks import CannotCheck
from server.planners.grounding import Target, TargetKind
from server.planners.intents_form import type_into
from server.planners.language import Clause
from server.planners.state import Defer, State, Unplannable
from shared.screen import ROLE_BUTTON, ROLE_TEXTBOX, UIElement

LOGIN_WORDS = frozenset({"log", "login", "logon", "sign", "signin"})
_VALUE = r"(?:\"[^\"]+\"|'[^']+'|“[^”]+”|[^\s,;/()]+)"
_SAID = re.compile(
    rf"(?P<lead>^|[,;]\s*|\b(?:and|then|first)\s+)(?:log\s*(?:in|on)|sign\s*(?:in|on)|(?:log|sign)\s+back\s+(?:in|on)|"
    rf"login|logon|signin)"
    rf"(?:\s+to\s+(?:the\s+)?[\w-]+)?\s+(?:as|with|using)\s+(?:the\s+)?(?:(?:user\s*name|user|login|account|e-?mail)\s+)?"
    rf"(?P<u>{_VALUE})"
    rf"(?:\s*(?:/|:|,|and|with|using|\()\s*(?:(?:the|a)\s+)?(?:password|pass|pw|pwd)?\s*[:=]?\s*(?:of\s+|is\s+)?(?P<p>{_VALUE})\)?)?"
    rf"(?=\s*$|\s*[,;.]|\s+(?:and|then)\s)", re.I)
_CANON = re.compile(r'^log in as "(?P<u>[^"]*)"(?: with password "(?P<p>[^"]*)")?$')
_PASSWORD_ONLY = re.compile(r'^log in with password "(?P<p>[^"]*)"$')
_USER_WORDS = ("user", "username", "login", "email", "e-mail", "account", "name", "identifier")
_SUBMIT_WORDS = ("log in", "login", "sign in", "signin", "log on", "next", "continue", "submit", "enter", "go")


def _unquoted(value: str) -> str:
    return value[1:-1] if value[:1] in "\"'“" and len(value) > 1 else value


def restate_login(task: str) -> str:
    """Every way of saying who signs in, as one clause: ``log in as "U" with password "P"``."""
    def canon(m: re.Match[str]) -> str:
        user, password = _unquoted(m.group("u")), m.group("p")
        said = f'{m.group("lead")}log in as "{user}"'
        return said + (f' with password "{_unquoted(password)}"' if password else "")

    return _SAID.sub(canon, task)


def signs_in(text: str) -> bool:
    """*text* is a sign-in clause as :func:`restate_login` writes it."""
    return bool(_CANON.match(text.strip()) or _PASSWORD_ONLY.match(text.strip()))


def _is_password(el: UIElement) -> bool:
    said = " ".join(x for x in (el.name, el.placeholder, el.hint) if x).lower()
    return el.role == ROLE_TEXTBOX and ("password" in said or "passphrase" in said or el.value == "••••")


def _fields(st: State) -> tuple[UIElement | None, UIElement | None]:
    assert st.live is not None
    boxes = [e for e in st.live.elements if e.role == ROLE_TEXTBOX and not e.hidden and not e.disabled]
    password = next((e for e in boxes if _is_password(e)), None)
    others = [e for e in boxes if e is not password]
    named = [e for e in others if any(w in " ".join(x for x in (e.name, e.placeholder, e.hint) if x).lower()
                                      for w in _USER_WORDS)]
    if named:
        return named[0], password
    if password is not None:   # the box just before the password's
        order = {id(e): i for i, e in enumerate(st.live.elements)}
        before = [e for e in others if order[id(e)] < order[id(password)]]
        return (before[-1] if before else None), password
    return None, None   # a lone search box is no user name field


def _submit(st: State) -> UIElement | None:
    assert st.live is not None
    buttons = [e for e in st.live.elements if e.role == ROLE_BUTTON and not e.hidden and not e.disabled]
    for word in _SUBMIT_WORDS:
        hit = next((e for e in buttons if grounding.norm(e.name or e.text) == word), None)
        if hit is not None:
            return hit
    return None


def _type(st: State, el: UIElement, text: str, send: bool = False) -> None:
    type_into(st, text, Target(TargetKind.LIVE_ELEMENT, 1.0, el.label, live=el), submit=send)


def login_intent(c: Clause, st: State) -> bool:
    canon, password_only = _CANON.match(c.text.strip()), _PASSWORD_ONLY.match(c.text.strip())
    if canon is None and password_only is None:
        return False
    if st.moved and (st.live is None or _fields(st)[0 if canon else 1] is None):
        raise Defer("log in")   # "log out and sign back in as bob": the form shows once the steps before have run
    if st.live is None:
        return False
    user_box, password_box = _fields(st)
    user = canon.group("u") if canon else ""
    password = (canon or password_only).group("p")   # type: ignore[union-attr]
    if canon is not None and user_box is None:
        raise Unplannable("no field for the user name on this screen: open the sign-in page first", "log in")
    if password is not None and password_box is None and canon is None:
        raise Unplannable("no password field on this screen", "password")
    submit = _submit(st)
    typed_password = password is not None and password_box is not None
    if canon is not None:
        # with no button to send the form, Enter in its last box sends it
        _type(st, user_box, user, send=submit is None and not typed_password)   # type: ignore[arg-type]
    if typed_password:
        _type(st, password_box, password, send=submit is None)   # type: ignore[arg-type]
        for step in st.steps[-2:]:
            if step.params.get("text") == password:
                step.description = f"Type the password in {password_box.label or 'the password field'}"   # type: ignore[union-attr]
    proof = None
    if password_box is not None and password_box.selector:
        try:
            proof = checks.element(st.ctx, selector=password_box.selector, present=False,
                                   description="Check the sign-in form is gone")
        except CannotCheck:
            proof = None
    if submit is not None:
        st.click_live(Target(TargetKind.LIVE_ELEMENT, 1.0, submit.label, live=submit), f"Click {submit.label!r}")
    st.summary.append(f"log in as {user}" if user else "enter the password")
    st.last_object = user
    if password is not None and password_box is None:
        # the user name first, the password on the screen that follows
        raise Defer("password", replace_with=[f'log in with password "{password}"'])
    st.expect_check(proof)
    return True
