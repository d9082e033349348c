"""The apps under evaluation, by name."""
from __future__ import annotations

from evals.apps.base import AppInstance
from evals.apps.buku import Buku
from evals.apps.changedetection import ChangeDetection
from evals.apps.datasette import Datasette
from evals.apps.django_admin import DjangoAdmin
from evals.apps.ihatemoney import IHateMoney
from evals.apps.roundup import Roundup
from evals.apps.sqlite_web import SqliteWeb
from evals.apps.streamtv import StreamTV
from evals.apps.todomvc import TodoMVC
from evals.apps.trac import Trac

APPS: dict[str, type[AppInstance]] = {cls.name: cls for cls in (StreamTV, DjangoAdmin, SqliteWeb, Datasette, TodoMVC,
                                                                     Trac, IHateMoney, Roundup, Buku,
                                                                     ChangeDetection)}

__all__ = ["APPS", "AppInstance"]
