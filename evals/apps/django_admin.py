"""Django's admin site (PyPI ``django``) over a two-model shop: customers and products."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from evals.apps.base import ProcessApp
from shared.errors import InfraError


class DjangoAdmin(ProcessApp):
    name = "django_admin"
    device_name = "Corner Shop admin (Django)"
    model = "django-admin-web"
    userinterface = "django-admin"
    requires = ("django",)
    ready_path = "/admin/login/"

    @property
    def start_url(self) -> str:
        return self.base_url + "/admin/"

    def build_seed(self, path: Path) -> None:
        path.unlink(missing_ok=True)
        done = subprocess.run([sys.executable, "-m", "evals.apps.django_site.seed", str(path)],
                              capture_output=True, text=True, cwd=Path(__file__).resolve().parents[2], timeout=120)
        if done.returncode != 0:
            raise InfraError(f"could not build the Django seed database: {done.stderr.strip()[-2000:]}")

    def command(self) -> tuple[list[str], dict[str, str]]:
        return ([sys.executable, "-m", "django", "runserver", "--noreload", f"127.0.0.1:{self.port}"],
                {"DJANGO_SETTINGS_MODULE": "evals.apps.django_site.settings", "EVAL_DJANGO_DB": str(self.live),
                 "PYTHONUNBUFFERED": "1"})
