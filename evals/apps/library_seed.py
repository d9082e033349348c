"""The seed database of the sqlite-web app: a small lending library (books, members, loans)."""
from __future__ import annotations

import sqlite3
from pathlib import Path

SCHEMA = """
CREATE TABLE books (
  id INTEGER PRIMARY KEY,
  title TEXT NOT NULL,
  author TEXT NOT NULL,
  year INTEGER,
  genre TEXT,
  available INTEGER NOT NULL DEFAULT 1
);
CREATE TABLE members (
  id INTEGER PRIMARY KEY,
  name TEXT NOT NULL,
  email TEXT,
  joined TEXT
);
CREATE TABLE loans (
  id INTEGER PRIMARY KEY,
  book_id INTEGER NOT NULL REFERENCES books(id),
  member_id INTEGER NOT NULL REFERENCES members(id),
  due TEXT
);
"""

BOOKS = [
    (1, "Dune", "Frank Herbert", 1965, "sci-fi", 1),
    (2, "Emma", "Jane Austen", 1815, "classic", 1),
    (3, "The Hobbit", "J. R. R. Tolkien", 1937, "fantasy", 0),
    (4, "Neuromancer", "William Gibson", 1984, "sci-fi", 1),
    (5, "Beloved", "Toni Morrison", 1987, "literary", 1),
    (6, "Middlemarch", "George Eliot", 1871, "classic", 0),
    (7, "Kindred", "Octavia Butler", 1979, "sci-fi", 1),
    (8, "Rebecca", "Daphne du Maurier", 1938, "thriller", 1),
]
MEMBERS = [
    (1, "Nora Quinn", "nora.quinn@example.org", "2021-03-14"),
    (2, "Omar Farouk", "omar.farouk@example.org", "2022-07-01"),
    (3, "Paula Reyes", "paula.reyes@example.org", "2020-11-23"),
    (4, "Sam Lee", "sam.lee@example.org", "2023-01-09"),
]
LOANS = [(1, 3, 1, "2026-12-01"), (2, 6, 2, "2026-12-05")]


def build(path: Path) -> None:
    """Write a fresh library database to *path* (replacing any file there)."""
    path.unlink(missing_ok=True)
    with sqlite3.connect(path) as db:
        db.executescript(SCHEMA)
        db.executemany("INSERT INTO books VALUES (?, ?, ?, ?, ?, ?)", BOOKS)
        db.executemany("INSERT INTO members VALUES (?, ?, ?, ?)", MEMBERS)
        db.executemany("INSERT INTO loans VALUES (?, ?, ?, ?)", LOANS)
    db.close()
