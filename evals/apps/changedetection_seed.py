"""Make a changedetection.io datastore of a bike shop's web watches with the app's own datastore API.

Usage: ``python -I changedetection_seed.py DATASTORE`` with the Python of changedetection.io's own virtual
environment. ``ChangeDetectionStore`` creates the datastore (``changedetection.json``, one ``UUID/watch.json``
per watch and one ``UUID/tag.json`` per group); ``add_tag`` and ``add_watch`` are what the app's add forms
call, and ``save_history_blob`` is what a check that found a change calls, with the snapshots given here.
Nothing is fetched from the web: every watch counts as checked a minute ago and the default check interval
is a day, so no check runs while tasks do. The one other setting that differs from the defaults: a watch's
History opens in the same tab, not a new one (a device drives one page). UUIDs come from a fixed random
seed: the same datastore on every build, so a task's set-up may name ``/edit/<uuid>``. It imports only
changedetection.io, so it runs apart from devicepilot's environment.
"""
from __future__ import annotations

import random
import sys
import time
import uuid
from pathlib import Path

#: the groups (watch tags), in the order they are made
GROUPS = ("Competitors", "Suppliers", "Software releases", "Local news", "Prices")

#: (title or None, URL, groups, extras); their order is the order they were added (the list's "#" column)
WATCHES = (
    ("Python downloads", "https://www.python.org/downloads/", ("Software releases",), {}),
    ("Django release notes", "https://docs.djangoproject.com/en/stable/releases/", ("Software releases",), {}),
    ("nginx changelog", "https://nginx.org/en/CHANGES", ("Software releases",), {"paused": True}),
    ("PostgreSQL news", "https://www.postgresql.org/about/newsarchive/", ("Software releases",),
     {"notification_muted": True}),
    ("Rival Cycles sale", "https://www.rivalcycles.com/sale", ("Competitors", "Prices"),
     {"include_filters": [".product-price"]}),
    ("Wiggle road bikes", "https://www.wiggle.com/cycle/road-bikes", ("Competitors",), {}),
    ("Chain Reaction clearance", "https://www.chainreactioncycles.com/clearance", ("Competitors", "Prices"),
     {"paused": True}),
    ("Shimano dealer news", "https://dealer.shimano.com/news", ("Suppliers",),
     {"time_between_check": {"weeks": None, "days": None, "hours": 6, "minutes": None, "seconds": None},
      "time_between_check_use_default": False}),
    ("Schwalbe tyres", "https://www.schwalbe.com/en/tyres", ("Suppliers", "Prices"), {}),
    (None, "https://www.leeds.gov.uk/roadworks", ("Local news",), {}),
    ("Weather warnings", "https://www.metoffice.gov.uk/weather/warnings-and-advice/uk-warnings", ("Local news",),
     {"notification_muted": True}),
    ("Our shop homepage", "https://www.spokeandsprocket.co.uk/", (), {}),
)

#: snapshots of some watches: (title, [(days ago, text), ...]) oldest first
HISTORY = (
    ("Python downloads", [(9, "Download the latest version for Linux\nPython 3.13.0\nActive Python releases"),
                          (2, "Download the latest version for Linux\nPython 3.13.1\nActive Python releases")]),
    ("Schwalbe tyres", [(5, "Marathon Plus 28 x 1.40 - 44.90 EUR\nOne 28 x 2.35 - 52.90 EUR"),
                        (1, "Marathon Plus 28 x 1.40 - 46.90 EUR\nOne 28 x 2.35 - 52.90 EUR\nG-One RS - 64.90 EUR")]),
)

API_TOKEN = "devicepilot-eval-api-token"
RSS_TOKEN = "devicepilot-eval-rss-token"
ONE_DAY = {"weeks": None, "days": 1, "hours": None, "minutes": None, "seconds": None}


def fixed_uuids(seed: int = 1129) -> None:
    """Make ``uuid.uuid4`` give the same sequence on every build (version-4 UUIDs, as the app's checks expect)."""
    rng = random.Random(seed)
    uuid.uuid4 = lambda: uuid.UUID(int=rng.getrandbits(128), version=4)  # type: ignore[assignment]


def fill(datastore_path: str) -> None:
    fixed_uuids()
    from changedetectionio import __version__
    from changedetectionio.store import ChangeDetectionStore

    store = ChangeDetectionStore(datastore_path=datastore_path, include_default_watches=False,
                                 version_tag=__version__)
    app = store.data["settings"]["application"]
    app["api_access_token"] = API_TOKEN
    app["rss_access_token"] = RSS_TOKEN
    app["ui"]["open_diff_in_new_tab"] = False     # History opens in the same tab (a device drives one page)
    store.data["settings"]["requests"]["time_between_check"] = dict(ONE_DAY)
    store.commit()

    groups = {title: store.add_tag(title) for title in GROUPS}
    now = int(time.time())
    by_title: dict[str, str] = {}
    for i, (title, url, tags, extras) in enumerate(WATCHES):
        extras = {**extras, "title": title, "date_created": now - 86400 * 30 + 3600 * i}
        new = store.add_watch(url=url, extras=extras, tag_uuids=[groups[t] for t in tags])
        if not new:
            raise RuntimeError(f"changedetection.io refused the watch {url}")
        watch = store.data["watching"][new]
        watch["last_checked"] = now - 60
        watch.commit()
        by_title[title or url] = new

    for title, snapshots in HISTORY:
        watch = store.data["watching"][by_title[title]]
        for n, (days_ago, text) in enumerate(snapshots):
            stamp = now - 86400 * days_ago
            watch.save_history_blob(text, stamp, f"seed{n}")
            watch["last_changed"] = stamp
        watch["last_viewed"] = now - 86400 * 3   # the newest change is unread
        watch.commit()
    store.commit()


def main() -> int:
    path = Path(sys.argv[1])
    path.mkdir(parents=True, exist_ok=True)
    fill(str(path))
    return 0


if __name__ == "__main__":
    sys.exit(main())
