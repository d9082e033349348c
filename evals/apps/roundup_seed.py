"""Make and fill a Roundup tracker (classic template, sqlite backend) with the app's own tools.

Usage: ``python -I roundup_seed.py TRACKER_HOME WEB_URL`` with the Python of Roundup's own virtual
environment (isolated: this directory is not on the path). ``roundup-admin install`` and ``initialise``
make the tracker; the tracker's Python API fills it. It imports only Roundup, so it runs apart from
devicepilot's environment.
"""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any

ADMIN_PASSWORD = "admin"
#: username -> (real name, email, organisation); each user's password is their username
USERS = {
    "alice": ("Alice Martin", "alice@example.com", "Mobile team"),
    "bob": ("Bob Nguyen", "bob@example.com", "Backend team"),
    "carol": ("Carol Diaz", "carol@example.com", "Design"),
}
KEYWORDS = ("ui", "backend", "security")
#: (title, priority, status, assignee or None, keywords, messages as (author, text))
ISSUES = (
    ("Login page times out on slow networks", "critical", "in-progress", "alice", ("security",),
     (("carol", "On 3G the login spinner never stops and the request times out after 30 seconds."),
      ("alice", "I can reproduce it with the network throttled; looking at the retry logic now."))),
    ("Typo in the welcome email", "wish", "unread", None, (), ()),
    ("Export to CSV drops the last row", "bug", "chatting", "bob", ("backend",),
     (("alice", "Exporting 10 recipes gives a file with 9 rows."),
      ("bob", "The loop stops one row early, probably an off-by-one in the pager."))),
    ("Add a dark mode", "feature", "deferred", "carol", ("ui",), ()),
    ("Password reset link expires too early", "urgent", "resolved", "alice", ("security",),
     (("bob", "Fixed: the token now lives for 24 hours instead of 10 minutes."),)),
    ("Search ignores accented characters", "bug", "testing", "bob", ("backend",), ()),
    ("App crashes when uploading a large photo", "critical", "unread", None, (),
     (("carol", "Uploading a 40 MB photo from the gallery closes the app without an error."),)),
    ("Allow sorting recipes by rating", "feature", "chatting", "carol", ("ui",), ()),
)


def admin(home: str, *args: str) -> None:
    tool = Path(sys.executable).with_name("roundup-admin")
    subprocess.run([str(tool), "-i", home, *args], check=True, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL)


def configure(home: str, web: str) -> None:
    from roundup.configuration import CoreConfig

    config = CoreConfig(home)
    config["TRACKER_NAME"] = "Recipe app tracker"
    config["TRACKER_WEB"] = web
    config["MAIL_DOMAIN"] = "example.com"
    config["MAIL_HOST"] = "localhost"
    config["MAIL_DEBUG"] = "outgoing-mail.txt"  # nosy mail goes to this file instead of a mail server
    config["WEB_LOGIN_ATTEMPTS_MIN"] = 1000     # many test logins a minute
    config.save()


def fill(home: str) -> None:
    from roundup import instance

    db = instance.open(home).open("admin")
    try:
        users = add_users(db)
        keywords = {name: db.keyword.create(name=name) for name in KEYWORDS}
        for issue in ISSUES:
            add_issue(db, users, keywords, *issue)
        db.commit()
    finally:
        db.close()


def add_users(db: Any) -> dict[str, str]:
    from roundup.password import Password

    users = {"admin": db.user.lookup("admin")}
    db.user.set(users["admin"], realname="Tracker Admin", address="admin@example.com")
    for name, (realname, email, org) in USERS.items():
        users[name] = db.user.create(username=name, password=Password(name, config=db.config), realname=realname,
                                     address=email, organisation=org, roles="User")
    return users


def add_issue(db: Any, users: dict[str, str], keywords: dict[str, str], title: str, priority: str, status: str,
              assignee: str | None, kws: tuple[str, ...], messages: tuple[tuple[str, str], ...]) -> None:
    from roundup.date import Date

    msg_ids = [db.msg.create(content=text, author=users[author], summary=text.split(".")[0], date=Date("."))
               for author, text in messages]
    fields = {"title": title, "priority": db.priority.lookup(priority), "status": db.status.lookup(status),
              "keyword": [keywords[k] for k in kws], "messages": msg_ids,
              "nosy": sorted({users[a] for a, _ in messages})}
    if assignee:
        fields["assignedto"] = users[assignee]
    db.issue.create(**fields)


def main() -> int:
    home, web = sys.argv[1], sys.argv[2]
    admin(home, "install", "classic", "sqlite")
    configure(home, web)
    admin(home, "initialise", ADMIN_PASSWORD)
    fill(home)
    return 0


if __name__ == "__main__":
    sys.exit(main())
