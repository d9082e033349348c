"""Build the Django admin's seed database: ``python -m evals.apps.django_site.seed PATH``.

Runs the migrations into a fresh SQLite file, creates the ``admin`` superuser
and the shop's customers and products. The launcher copies this file over the
live database to reset the app between tasks.
"""
from __future__ import annotations

import os
import sys
from decimal import Decimal

CUSTOMERS = [
    ("Alice Martin", "alice.martin@example.com", "Lyon", True),
    ("Bob Chen", "bob.chen@example.com", "Boston", True),
    ("Carla Gomez", "carla.gomez@example.com", "Madrid", True),
    ("David Okafor", "david.okafor@example.com", "Lagos", False),
    ("Emma Schmidt", "emma.schmidt@example.com", "Berlin", True),
    ("Farid Haddad", "farid.haddad@example.com", "Lyon", True),
    ("Grace Kim", "grace.kim@example.com", "Seoul", False),
    ("Hugo Rossi", "hugo.rossi@example.com", "Rome", True),
]

PRODUCTS = [
    ("Blue Mug", "kitchen", "8.50", True),
    ("Chef Knife", "kitchen", "42.00", True),
    ("Tea Kettle", "kitchen", "29.90", False),
    ("Garden Hose", "garden", "24.99", True),
    ("Rake", "garden", "15.00", True),
    ("Flower Pot", "garden", "6.75", False),
    ("Stapler", "office", "11.20", True),
    ("Desk Lamp", "office", "35.00", True),
    ("Notebook", "office", "3.50", True),
    ("Puzzle Box", "toys", "19.99", False),
    ("Wooden Train", "toys", "27.50", True),
]


def build(path: str) -> None:
    os.environ["EVAL_DJANGO_DB"] = path
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "evals.apps.django_site.settings")
    import django
    from django.core.management import call_command

    django.setup()
    call_command("migrate", verbosity=0, interactive=False)
    from django.contrib.auth import get_user_model

    from evals.apps.django_site.store.models import Customer, Product

    get_user_model().objects.create_superuser("admin", "admin@example.com", "admin-eval-password")
    Customer.objects.bulk_create(Customer(name=n, email=e, city=c, active=a) for n, e, c, a in CUSTOMERS)
    Product.objects.bulk_create(Product(name=n, category=c, price=Decimal(p), in_stock=s) for n, c, p, s in PRODUCTS)


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit("usage: python -m evals.apps.django_site.seed PATH")
    build(sys.argv[1])
