"""Make and fill a buku bookmark database with buku's own API, fetching nothing from the web.

Usage: ``python -I buku_seed.py DATABASE`` with the Python of buku's own virtual environment (isolated:
this directory, which holds a ``buku.py`` of its own, is not on the path). ``BukuDb`` creates the
database and its ``bookmarks`` table; ``add_rec(..., fetch=False)`` is what ``buku --offline --add``
does, with the titles given here. It imports only buku, so it runs apart from devicepilot's environment.
"""
from __future__ import annotations

import sys
from pathlib import Path

#: (title, URL, comma-separated tags, description); their order gives the bookmarks' indices 1..12
BOOKMARKS = (
    ("Python 3 documentation", "https://docs.python.org/3/", "python,docs",
     "The official reference and tutorial for Python 3"),
    ("Flask tutorial", "https://flask.palletsprojects.com/en/stable/tutorial/", "python,docs,web",
     "Build a small blog app step by step"),
    ("Real Python", "https://realpython.com/", "python,tutorials", ""),
    ("Hacker News", "https://news.ycombinator.com/", "news,tech", "Tech news and discussion"),
    ("BBC News", "https://www.bbc.co.uk/news", "news", ""),
    ("Serious Eats", "https://www.seriouseats.com/", "recipes,cooking", "Tested recipes and food science"),
    ("Budget Bytes", "https://www.budgetbytes.com/", "recipes", "Cheap weeknight dinners"),
    ("Neapolitan pizza dough", "https://www.example.org/recipes/pizza-dough", "recipes,baking,pizza",
     "Rest the dough for 48 hours in the fridge"),
    ("YouTube", "https://www.youtube.com/", "video", ""),
    ("Vimeo Staff Picks", "https://vimeo.com/channels/staffpicks", "video,film", "Short films picked by Vimeo"),
    ("MDN Web Docs", "https://developer.mozilla.org/en-US/", "docs,web", "HTML, CSS and JavaScript reference"),
    ("SQLite documentation", "https://www.sqlite.org/docs.html", "docs,database", ""),
)


def fill(database: str) -> None:
    from buku import BukuDb, parse_tags

    db = BukuDb(dbfile=database)
    try:
        for title, url, tags, desc in BOOKMARKS:
            index = db.add_rec(url, title_in=title, tags_in=parse_tags([tags]), desc=desc, fetch=False)
            if index is None:
                raise RuntimeError(f"buku refused the bookmark {url}")
    finally:
        db.close()


def main() -> int:
    database = Path(sys.argv[1])
    database.unlink(missing_ok=True)
    fill(str(database))
    return 0


if __name__ == "__main__":
    sys.exit(main())
