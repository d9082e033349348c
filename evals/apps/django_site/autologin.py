"""Sign every anonymous request in as the ``admin`` superuser (evaluation project only, loopback only)."""
from __future__ import annotations

from typing import Any, Callable

from django.contrib.auth import get_user_model, login


class AutoLoginMiddleware:
    def __init__(self, get_response: Callable[[Any], Any]) -> None:
        self.get_response = get_response

    def __call__(self, request: Any) -> Any:
        if not request.user.is_authenticated:
            user = get_user_model().objects.filter(username="admin").first()
            if user is not None:
                login(request, user, backend="django.contrib.auth.backends.ModelBackend")
        return self.get_response(request)
