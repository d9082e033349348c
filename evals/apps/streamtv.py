"""StreamTV, the bundled demo app: served by the host itself, with its navigation tree; state lives in the page."""
from __future__ import annotations

from typing import Any

from evals.apps.base import AppInstance
from host.config import DEMO_CONFIG

DEMO_DIR = DEMO_CONFIG.parent


class StreamTV(AppInstance):
    name = "streamtv"

    @property
    def start_url(self) -> str:
        return "/#/home"  # relative to the host's static app; a reload resets the app's in-page state

    def device_config(self) -> dict[str, Any]:
        return {"name": "StreamTV (web demo)", "model": "streamtv-web", "userinterface": "streamtv",
                "navigation_tree": str(DEMO_DIR / "streamtv.tree.yaml"),
                "controllers": [
                    {"type": "playwright", "params": {"url": "{demo_url}/", "width": 1280, "height": 720}},
                    {"type": "ocr"},
                    {"type": "image", "params": {"references": str(DEMO_DIR / "references")}},
                ]}

    @staticmethod
    def static_apps() -> dict[str, str]:
        return {"demo_url": str(DEMO_DIR / "streamtv")}
