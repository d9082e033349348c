"""The seed database of the Datasette app: a plant nursery (plants, suppliers, deliveries)."""
from __future__ import annotations

import sqlite3
from pathlib import Path

SCHEMA = """
CREATE TABLE plants (
  id INTEGER PRIMARY KEY,
  name TEXT NOT NULL,
  family TEXT,
  light TEXT,
  height_cm INTEGER,
  indoor INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE suppliers (
  id INTEGER PRIMARY KEY,
  company TEXT NOT NULL,
  city TEXT,
  phone TEXT
);
CREATE TABLE deliveries (
  id INTEGER PRIMARY KEY,
  plant_id INTEGER NOT NULL REFERENCES plants(id),
  supplier_id INTEGER NOT NULL REFERENCES suppliers(id),
  quantity INTEGER,
  arrives TEXT
);
"""

PLANTS = [
    (1, "Monstera", "Araceae", "partial shade", 90, 1),
    (2, "Lavender", "Lamiaceae", "full sun", 45, 0),
    (3, "Snake Plant", "Asparagaceae", "low light", 60, 1),
    (4, "Rosemary", "Lamiaceae", "full sun", 70, 0),
    (5, "Fiddle Leaf Fig", "Moraceae", "bright indirect", 150, 1),
    (6, "Hosta", "Asparagaceae", "full shade", 40, 0),
    (7, "Peace Lily", "Araceae", "low light", 55, 1),
    (8, "Sunflower", "Asteraceae", "full sun", 180, 0),
    (9, "Basil", "Lamiaceae", "full sun", 30, 0),
]
SUPPLIERS = [
    (1, "Green Leaf Ltd", "Utrecht", "030-555-0101"),
    (2, "Bloom & Co", "Ghent", "09-555-0202"),
    (3, "Rootstock Farms", "Leeds", "0113-555-0303"),
]
DELIVERIES = [(1, 1, 1, 12, "2026-12-02"), (2, 5, 2, 4, "2026-12-09"), (3, 9, 3, 40, "2026-12-01"),
              (4, 2, 3, 25, "2026-12-15")]


def build(path: Path) -> None:
    """Write a fresh nursery database to *path* (replacing any file there)."""
    path.unlink(missing_ok=True)
    with sqlite3.connect(path) as db:
        db.executescript(SCHEMA)
        db.executemany("INSERT INTO plants VALUES (?, ?, ?, ?, ?, ?)", PLANTS)
        db.executemany("INSERT INTO suppliers VALUES (?, ?, ?, ?)", SUPPLIERS)
        db.executemany("INSERT INTO deliveries VALUES (?, ?, ?, ?, ?)", DELIVERIES)
    db.close()
