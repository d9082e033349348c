"""Fill an I Hate Money database through the app's own REST API (run with the app's own Python).

Usage: ``python -I ihatemoney_seed.py`` (isolated: this directory is not on the path) with ``IHATEMONEY_SETTINGS_FILE_PATH`` pointing at a
settings file whose ``SQLALCHEMY_DATABASE_URI`` names the database to fill. It imports only the app, so
it runs in the app's own virtual environment, apart from devicepilot's.
"""
from __future__ import annotations

import base64
import sys

PROJECT = {"id": "flatshare", "name": "Flat share", "password": "letmein", "contact_email": "lab@example.com",
           "default_currency": "XXX"}
MEMBERS = ("Alice", "Bob", "Chloe", "Dan")
#: (what, amount, payer, owers (None: everyone), date)
BILLS = (
    ("Rent", "1200", "Bob", None, "2026-11-01"),
    ("Groceries", "42.50", "Alice", None, "2026-11-02"),
    ("Pizza night", "36", "Chloe", ("Alice", "Bob", "Chloe"), "2026-11-08"),
    ("Electricity", "88.20", "Dan", None, "2026-11-10"),
    ("Cinema tickets", "24", "Alice", ("Alice", "Dan"), "2026-11-14"),
)


def main() -> int:
    from ihatemoney.run import create_app

    app = create_app()
    client = app.test_client()
    resp = client.post("/api/projects", data=PROJECT)
    if resp.status_code >= 400:
        print(f"project: HTTP {resp.status_code} {resp.get_data(as_text=True)}", file=sys.stderr)
        return 1
    token = base64.b64encode(f"{PROJECT['id']}:{PROJECT['password']}".encode()).decode()
    auth = {"Authorization": f"Basic {token}"}
    ids: dict[str, int] = {}
    for name in MEMBERS:
        resp = client.post(f"/api/projects/{PROJECT['id']}/members", data={"name": name}, headers=auth)
        if resp.status_code >= 400:
            print(f"member {name}: HTTP {resp.status_code} {resp.get_data(as_text=True)}", file=sys.stderr)
            return 1
        ids[name] = int(resp.get_json())
    for what, amount, payer, owers, date in BILLS:
        data = {"what": what, "amount": amount, "payer": ids[payer], "date": date, "original_currency": "XXX",
                "bill_type": "Expense", "payed_for": [ids[n] for n in (owers or MEMBERS)]}
        resp = client.post(f"/api/projects/{PROJECT['id']}/bills", data=data, headers=auth)
        if resp.status_code >= 400:
            print(f"bill {what}: HTTP {resp.status_code} {resp.get_data(as_text=True)}", file=sys.stderr)
            return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
