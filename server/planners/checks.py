"""Verification steps for planners, built from the check commands the device really declares.

Checks use the canonical names of :mod:`shared.vocabulary` (``wait_for_element``
with ``present``); a device whose host still declares the old twins
(``waitForElementToAppear``/``…Disappear``) gets those, with the same meaning.
A check the device cannot express exactly (a state or a count its verifier
does not take) is :class:`CannotCheck`, never a weaker check that could pass
by accident.
"""
from __future__ import annotations

from typing import Any

from shared import vocabulary as V
from shared.commands import CommandSpec
from shared.models import PlanningContext, PlanStep

_OLD_TWINS = {
    V.WAIT_FOR_ELEMENT: ("waitForElementToAppear", "waitForElementToDisappear"),
    V.WAIT_FOR_TEXT: ("waitForTextToAppear", "waitForTextToDisappear"),
    V.WAIT_FOR_IMAGE: ("waitForImageToAppear", "waitForImageToDisappear"),
}


class CannotCheck(Exception):
    """The device has no verification that can express this check."""


def _spec(ctx: PlanningContext, name: str) -> CommandSpec | None:
    return ctx.commands.get(name)


def check_commands(ctx: PlanningContext) -> frozenset[str]:
    """The names of every check (verification) command the device declares."""
    return frozenset(spec.name for spec in ctx.verification.commands)


def has_check(ctx: PlanningContext, canonical: str) -> bool:
    return _spec(ctx, canonical) is not None or any(_spec(ctx, n) for n in _OLD_TWINS.get(canonical, ()))


def build(ctx: PlanningContext, canonical: str, params: dict[str, Any], description: str,
          present: bool = True) -> PlanStep:
    """A step running the check *canonical* with *params*, on whichever spelling the device has.

    Empty parameters are left out; a non-empty one the device's check does not
    declare raises :class:`CannotCheck` (dropping it would weaken the check).
    """
    params = {k: v for k, v in params.items() if v not in ("", None) and not (k == "count" and v == -1)}
    spec = _spec(ctx, canonical)
    if spec is not None:
        if spec.param("present") is not None:
            params["present"] = present
        elif not present:
            raise CannotCheck(f"{canonical} cannot check that something is absent")
    else:
        twins = _OLD_TWINS.get(canonical)
        spec = _spec(ctx, twins[0 if present else 1]) if twins else None
        if spec is None:
            raise CannotCheck(f"the device has no {canonical} check")
    unknown = [k for k in params if k != "present" and spec.param(k) is None]
    if unknown:
        raise CannotCheck(f"{spec.name} cannot check {', '.join(unknown)}")
    return PlanStep(0, spec.name, params, description)


def element(ctx: PlanningContext, *, text: str = "", selector: str = "", role: str = "", row: str = "",
            state: str = "", count: int = -1, present: bool = True, description: str = "",
            exact: bool = False, label: str = "") -> PlanStep:
    """An element check; *exact*: an element whose whole name or text is *text* ("new", not "New Ticket")."""
    what = text or selector or role or row
    desc = description or (f"Check {what!r} is {'shown' if present else 'not shown'}" +
                           (f" and {state}" if state else ""))
    params: dict[str, Any] = {"text": text, "selector": selector, "role": role, "row": row, "state": state,
                              "count": count}
    if exact:
        params["exact"] = True
    if label:
        params["label"] = label
    return build(ctx, V.WAIT_FOR_ELEMENT, params, desc, present)


def screen_text(ctx: PlanningContext, text: str, present: bool = True) -> PlanStep:
    """OCR: the screen shows *text* (devices with no element tree: HDMI capture)."""
    return build(ctx, V.WAIT_FOR_TEXT, {"text": text},
                 f"Check the screen {'shows' if present else 'no longer shows'} {text!r}", present)


def page(ctx: PlanningContext, name: str, present: bool = True) -> PlanStep:
    """The device is on the screen called *name* (title, main heading, URL or selected tab)."""
    return build(ctx, V.WAIT_FOR_PAGE, {"name": name},
                 f"Check the {name!r} screen is {'shown' if present else 'not shown'}", present)


def text_shown(ctx: PlanningContext, text: str, present: bool = True, prefer_ocr: bool = False) -> PlanStep:
    """*text* is (or is not) shown: an element check where the device has one, else OCR."""
    if prefer_ocr and has_check(ctx, V.WAIT_FOR_TEXT):
        return screen_text(ctx, text, present)
    if has_check(ctx, V.WAIT_FOR_ELEMENT):
        return element(ctx, text=text, present=present)
    if has_check(ctx, V.WAIT_FOR_TEXT):
        return screen_text(ctx, text, present)
    raise CannotCheck("the device has no verification that can check this")

