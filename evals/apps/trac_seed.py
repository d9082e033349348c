"""The seed of the Trac app: a small TV-software project with tickets, milestones and wiki pages.

Built through Trac's own API in a child process (``python -m evals.apps.trac_seed ENV``),
so the environment is exactly what ``trac-admin initenv`` makes, plus the data below.
"""
from __future__ import annotations

import logging
import sys
from pathlib import Path


PROJECT = "Set-top box firmware"
COMPONENTS = ("player", "guide", "remote", "settings")
MILESTONES = (("beta", "2027-02-01"), ("release-1.0", "2027-06-01"), ("release-1.1", ""))
VERSIONS = ("0.9", "1.0")
USERS = ("alice", "bob", "carol", "dave")

# (summary, type, priority, component, milestone, owner, status, resolution, description)
TICKETS = (
    ("Banner shows the wrong channel name", "defect", "major", "guide", "beta", "carol", "new", "",
     "After switching to channel 5 the banner still shows the previous name."),
    ("Subtitles missing on channel 7", "defect", "critical", "player", "beta", "alice", "assigned", "",
     "No subtitle track is offered on channel 7, although the broadcast has one."),
    ("Add a parental PIN screen", "enhancement", "minor", "settings", "release-1.0", "", "new", "",
     "Ask for a four-digit PIN before adult channels play."),
    ("Remote battery warning", "task", "trivial", "remote", "release-1.1", "dave", "new", "",
     "Show a warning when the remote's battery is low."),
    ("Guide scrolls slowly", "defect", "major", "guide", "beta", "bob", "closed", "fixed",
     "Scrolling the programme guide takes a second per page."),
    ("Audio language resets after standby", "defect", "minor", "player", "release-1.0", "bob", "new", "",
     "The audio language chosen in settings is lost after standby."),
)

WIKI = {
    "TestPlan": "= Test plan =\n\nEvery release is checked on the lab's set-top boxes.\n\n"
                " * Check the banner on channels 1 to 9\n * Check the guide scrolls\n",
    "ReleaseProcess": "= Release process =\n\nTag the build, run the regression suite, then publish.\n",
}


def build(env_dir: Path) -> None:
    """Create the Trac environment in *env_dir* (which must not exist) and fill it."""
    from trac.admin.console import TracAdmin
    from trac.env import Environment
    from trac.ticket.model import Milestone, Ticket, Version
    from trac.ticket.model import Component as TicketComponent
    from trac.util.datefmt import parse_date, utc
    from trac.wiki.model import WikiPage

    admin = TracAdmin(str(env_dir))
    if admin.onecmd(f'initenv "{PROJECT}" sqlite:db/trac.db') != 0:
        raise RuntimeError(f"trac-admin initenv failed in {env_dir}")
    env = Environment(str(env_dir))
    perm_admin = TracAdmin(str(env_dir))
    perm_admin.onecmd("permission add anonymous TRAC_ADMIN")
    for model in (TicketComponent, Milestone, Version):   # initenv's examples ("component1", "milestone1", …)
        for item in list(model.select(env)):
            item.delete()
    for name in COMPONENTS:
        c = TicketComponent(env)
        c.name, c.owner = name, ""
        c.insert()
    for name, due in MILESTONES:
        m = Milestone(env)
        m.name = name
        m.due = parse_date(due, utc) if due else None
        m.insert()
    for name in VERSIONS:
        v = Version(env)
        v.name = name
        v.insert()
    for summary, kind, prio, comp, ms, owner, status, resolution, desc in TICKETS:
        t = Ticket(env)
        t.populate({"summary": summary, "type": kind, "priority": prio, "component": comp, "milestone": ms,
                    "owner": owner, "status": status, "resolution": resolution, "description": desc,
                    "reporter": "carol"})
        t.insert()
    for name, text in WIKI.items():
        page = WikiPage(env, name)
        page.text = text
        page.save("carol", "seed")
    env.shutdown()


if __name__ == "__main__":
    logging.basicConfig(level=logging.WARNING)
    build(Path(sys.argv[1]))
