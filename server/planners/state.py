"""The built-in planner's working state while it turns clauses into steps.

It knows where the device will be (the tree node, when known) and whether the
live screen it was given still describes the screen the next step acts on:
the observation is true until a step that may change the screen is planned.
After that, a clause whose target is on no known screen is not guessed — it is
deferred and planned once the earlier steps have run (closed loop).
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any, Callable

from server.planners import grounding
from server.planners.grounding import Target
from shared import vocabulary as V
from shared.keys import Key
from shared.models import ElementInfo, NodeInfo, PlanningContext, PlanStep
from shared.screen import ROLE_BUTTON, ScreenObservation, name_as_words


# Roles a controller can find an element by, named as the platform's accessibility tree names them.
# (A table cell is a "cell", "columnheader" or "rowheader" there: it is found by its text instead.)
ROLES_BY_NAME = frozenset({"button", "link", "tab", "menuitem", "checkbox", "radio", "switch", "textbox",
                           "combobox", "option", "slider", "heading"})


class Unplannable(Exception):
    """A clause was understood but cannot be done on this device."""

    def __init__(self, reason: str, phrase: str = "") -> None:
        super().__init__(reason)
        self.phrase = phrase


class Defer(Exception):
    """A clause's target is on no known screen yet: plan it after the steps before it have run.

    With *replace_with*, the clause is done as far as it can be now, and what is
    left of it is those clauses ("add a customer named Bob" → click "Add customer",
    then later: type "Bob", save). With *last*, what is left of it comes after the clauses the
    task goes on with ("book 2 adults, 2 children": the booking once every number is in).
    """

    def __init__(self, what: str, replace_with: list[str] | None = None, last: list[str] | None = None) -> None:
        super().__init__(what)
        self.what = what
        self.replace_with = replace_with
        self.last = last or []   # what is left of the clause, planned after the task's later clauses



def open_world(ctx: PlanningContext) -> bool:
    """True when the device's screens are not all known: it has no tree, or its tree is an explored draft.

    Then what no node shows may still be on the live screen, or on the screen a step leads to, and the
    planner reads the screen (closed loop) rather than refusing. A complete tree (written by hand) is a
    closed world: what none of its screens has is refused before anything runs.
    """
    return not ctx.navigation.nodes or not ctx.navigation.complete

@dataclass
class State:
    ctx: PlanningContext
    node: str | None
    screen: ScreenObservation | None = None
    steps: list[PlanStep] = field(default_factory=list)
    summary: list[str] = field(default_factory=list)
    moved: bool = False                  # a planned step may have changed the screen since it was observed
    typed_into_focus: str = ""           # what the last clause typed into the field that had the focus (none named)
    last_act: str = ""
    last_object: str = ""                # what "it" refers to in the next clause
    expect: PlanStep | None = None       # the check that proves the latest action's intended end state
    explicit_check_last: bool = False
    gone: set[str] = field(default_factory=set)   # names a deletion's own check proved gone (normalised)
    later: tuple[str, ...] = ()          # the task's clauses after the one being planned, as written
    said: str = ""                       # the clause being planned, as written
    read_on: str = ""                    # the screen the task said to read ("Check the guide: …"): its node's id
    tuned: str = ""                      # the channel number the task tuned last ("switch to 8 and check Tech Today is on")

    # -- what the device has ---------------------------------------------------------------
    def has(self, command: str) -> bool:
        return command in self.ctx.commands

    def param_names(self, command: str) -> set[str]:
        spec = self.ctx.commands.get(command)
        return {p.name for p in spec.params} if spec else set()

    def key_choices(self) -> set[str]:
        spec = self.ctx.commands.get(V.PRESS_KEY)
        if spec is None:
            return set()
        p = spec.param("key")
        return set(p.choices) if p and p.choices else {k.value for k in Key}

    def key_choices_lower(self) -> set[str]:
        return {k.lower() for k in self.key_choices()} | {w for k in self.key_choices() for w in k.lower().split("_")}

    @property
    def open_world(self) -> bool:
        """Screens beyond the tree's may exist: no tree, or an explored draft (see :func:`open_world`)."""
        return open_world(self.ctx)

    @property
    def live(self) -> ScreenObservation | None:
        """The observed screen, while it still describes the screen the next step acts on."""
        return None if self.moved else self.screen

    def node_info(self, node_id: str | None) -> NodeInfo | None:
        return self.ctx.nodes.get(node_id) if node_id else None

    # -- adding steps ----------------------------------------------------------------------
    def add(self, command: str, params: dict[str, Any], description: str, *, moves: bool = False) -> None:
        if not self.has(command):
            raise Unplannable(f"the device has no {command} command")
        allowed = self.param_names(command)
        dropped = [k for k, v in params.items() if k not in allowed and v not in ("", None, False, 0)]
        if dropped:
            raise Unplannable(f"{command} on this device cannot take {', '.join(dropped)}")
        params = {k: v for k, v in params.items() if k in allowed}
        self._keep_row(params)
        self.steps.append(PlanStep(len(self.steps) + 1, command, params, description))
        if moves:
            self.moved = True
            self.node = None

    def add_step(self, step: PlanStep) -> None:
        step.step = len(self.steps) + 1
        self._keep_row(step.params)
        self.steps.append(step)

    def _keep_row(self, params: dict[str, Any]) -> None:
        """A row named by its whole text, as the screen showed it, is named by a part of it that stays."""
        if isinstance(params.get("row"), str):
            params["row"] = grounding.row_key(params["row"], self.screen)

    def check(self, step: PlanStep) -> None:
        self.add_step(step)

    def prove(self, build: Callable[[], PlanStep]) -> None:
        """A check the task asked for, built now; refused when the device has no check that can say it."""
        from server.planners.checks import CannotCheck

        try:
            self.check(build())
        except CannotCheck as exc:
            raise Unplannable(str(exc)) from exc
        self.explicit_check_last = True

    def goto(self, node: NodeInfo, always: bool = False) -> None:
        """Go to *node* (a no-op when already there, unless *always*: then goto verifies it)."""
        if self.node != node.id or always:
            if not self.has(V.GOTO):
                raise Unplannable(f"the device has no navigation to reach {node.label!r}")
            if self.expect is not None and self.steps and self.node != node.id:
                # the end state of the last action is proved before the screen that shows it is left ("switch
                # to channel 8; then make sure the lock is on" goes to the settings)
                self.add_step(self.expect)
                self.expect = None
            self.add(V.GOTO, {"node": node.id}, f"Go to {node.label}")
            self.moved = True
        self.node = node.id

    def click_declared(self, el: ElementInfo, index: int | None, description: str) -> None:
        """Click an element the tree declares (by its selector, else its text)."""
        params: dict[str, Any] = {"selector": el.selector} if el.selector else {"text": el.text or el.name}
        if index is not None and index >= 0:
            params["index"] = index
        elif index == -1:
            if "index" not in self.param_names(V.CLICK):
                raise Unplannable("'last' needs the number of items, which is only known on the device")
            params["index"] = -1
        self.add(V.CLICK, params, description, moves=True)
        self.node = el.opens or None

    def click_live(self, target: Target, description: str, **extra: Any) -> None:
        """Click an element of the live screen, named by role and text as the controller resolves them."""
        el = target.live
        assert el is not None
        params: dict[str, Any] = {}
        name = el.name or el.text
        if name.endswith("…"):
            name = name[:-1].rstrip()   # a long name the observer cut short: its start names it
        bare = re.sub(r"\s*\(\d+\)$", "", name)
        if el.role in (ROLE_BUTTON, "tab") and bare != name and self.screen is not None and not any(
                o is not el and o.role == el.role and re.sub(r"\s*\(\d+\)$", "", o.name or o.text) == bare
                for o in self.screen.elements):
            name = bare   # "Clear completed (1)": its count changes as the list does ("Draft (2)" is a name)
        if name:
            params["text"] = name
        elif el.placeholder:
            params["text"] = el.placeholder
        elif el.hint:
            params["text"] = el.hint
        if "role" in self.param_names(V.CLICK) and el.role in ROLES_BY_NAME:
            params["role"] = el.role
        if not params.get("text") or ("role" not in params and el.selector and len(name) > 60):
            params = {"selector": el.selector} if el.selector else params
        if not params:
            raise Unplannable(f"cannot name {target.label!r} for the device")
        same = self.same_named(el)
        if same > 0 and el.container and "row" in self.param_names(V.CLICK) and self._unique_in_row(el):
            params["row"] = el.container     # "the Add link of the Customers row", not "the 3rd Add"
        elif same > 0:
            params["index"] = same
        params.update({k: v for k, v in extra.items() if v not in ("", None)})
        if "row" in params and "index" in params and self.screen is not None:
            # the row given, the index counts in the row only ("Load" before "Load and Print" is its first)
            before = [o for o in self.screen.elements[:self.screen.elements.index(el)] if el.container
                      and o.container == el.container and o.role == el.role and not o.hidden and _names_as(el, o)]
            params["index"] = len(before)
            if not before:
                del params["index"]
        self.add(V.CLICK, params, description, moves=True)

    def _unique_in_row(self, el: Any) -> bool:
        return sum(1 for o in self.screen.elements if o.container == el.container and o.role == el.role
                   and _names_as(el, o)) == 1 if self.screen else False

    def same_named(self, el: Any) -> int:
        """How many elements before *el* the controller would also find by its role and name."""
        if self.screen is None:
            return 0
        name = (el.name or el.text).lower()
        if name.endswith("…"):
            name = name[:-1].rstrip()   # as click_live names it
        if not name:
            return 0
        # as the controller reads a name: the words of another ("Save" in "Save all", not "encode" in
        # "JSONEncoder"), where some element has them so; else as a part of another
        words = name_as_words(name)
        as_words = any(o.role == el.role and not o.hidden and words.search(o.name or o.text or "")
                       for o in self.screen.elements)
        n = 0
        for other in self.screen.elements:
            if other is el:
                return n
            if other.role == el.role and not other.hidden and (words.search(other.name or other.text or "") if as_words
                                                                else name in (other.name or other.text).lower()):
                n += 1
        return 0

    def expect_check(self, step: PlanStep | None) -> None:
        """Remember the check proving the latest action worked; added at the end if the task has none."""
        self.expect = step


def _names_as(el: Any, other: Any) -> bool:
    """Whether the controller, asked for *el* by its name, may find *other*: the name's words are in other's
    ("Pause checks" is in "Pause checks now", not in "UnPause checks")."""
    mine = re.findall(r"\w+", (el.name or el.text).lower())
    theirs = re.findall(r"\w+", (other.name or other.text).lower())
    if not mine:   # a sign ("×") has no words: only the same sign is named so
        return bool((el.name or el.text).strip()) and (el.name or el.text).strip() == (other.name or other.text).strip()
    n = len(mine)
    return n > 0 and any(theirs[i:i + n] == mine for i in range(len(theirs) - n + 1))
