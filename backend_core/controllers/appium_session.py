"""An Appium session: created lazily, re-created once when it dies, its errors translated.

Every driver call goes through :meth:`AppiumSession.call`. Selenium/Appium
exceptions never leave this module: a dead session (``InvalidSessionIdException``,
connection refused, the server restarted) is re-created once and the call
retried; an element that cannot be used (not interactable, stale) is a
:class:`~shared.errors.DeviceFailure`; anything else becomes
:class:`~shared.errors.ControllerError`.
Callers that expect "no such element" handle it inside the function they pass,
where it means the device did not show what was wanted.
"""
from __future__ import annotations

import logging
import threading
from dataclasses import dataclass, field
from typing import Any, Callable, TypeVar

from shared.errors import ConfigError, ControllerError, DeviceFailure, DevicePilotError

log = logging.getLogger(__name__)
T = TypeVar("T")

DEFAULT_SERVER_URL = "http://127.0.0.1:4723"
UIAUTOMATOR2_CAPABILITIES: dict[str, Any] = {
    "platformName": "Android",
    "appium:automationName": "UiAutomator2",
    "appium:newCommandTimeout": 300,
}


@dataclass(frozen=True)
class AppiumOptions:
    """Where the Appium server is and what session to ask it for."""

    server_url: str = DEFAULT_SERVER_URL
    capabilities: dict[str, Any] = field(default_factory=lambda: dict(UIAUTOMATOR2_CAPABILITIES))
    command_timeout: float = 60.0

    @property
    def platform(self) -> str:
        return str(self.capabilities.get("platformName", "")).lower()


def _first_line(exc: BaseException) -> str:
    text = getattr(exc, "msg", None) or str(exc) or type(exc).__name__
    return str(text).strip().splitlines()[0][:300]


def _device_refused(exc: BaseException) -> bool:
    """The app did not let the command happen (an element not interactable, gone stale…)."""
    from selenium.common.exceptions import (
        ElementNotInteractableException, InvalidElementStateException, StaleElementReferenceException,
    )

    return isinstance(exc, (ElementNotInteractableException, InvalidElementStateException,
                            StaleElementReferenceException))


def _is_dead_session(exc: BaseException) -> bool:
    """A session that is gone (or a server that is unreachable) rather than a command that failed."""
    from selenium.common.exceptions import InvalidSessionIdException, WebDriverException
    from urllib3.exceptions import HTTPError as Urllib3Error

    if isinstance(exc, (InvalidSessionIdException, ConnectionError, Urllib3Error)):
        return True
    if isinstance(exc, WebDriverException):
        text = str(exc).lower()
        return any(s in text for s in ("session is either terminated", "invalid session id",
                                       "no such session", "connection refused"))
    return False


class AppiumSession:
    """One Appium session, shared by a device's remote, screen and element verifier."""

    def __init__(self, options: AppiumOptions) -> None:
        self.options = options
        self._driver: Any = None
        self._lock = threading.RLock()
        self.sessions_created = 0

    @property
    def session_id(self) -> str | None:
        return getattr(self._driver, "session_id", None)

    def _start(self) -> Any:
        from appium import webdriver
        from appium.options.common.base import AppiumOptions as ClientOptions

        log.info("starting an Appium session at %s (%s)", self.options.server_url,
                 self.options.capabilities.get("appium:automationName", self.options.platform))
        try:
            driver = webdriver.Remote(self.options.server_url,
                                      options=ClientOptions().load_capabilities(self.options.capabilities))
        except DevicePilotError:
            raise
        except Exception as exc:  # selenium/urllib3 raise many types here; all mean "no session"
            raise ControllerError(f"cannot start an Appium session at {self.options.server_url}: "
                                  f"{_first_line(exc)}") from exc
        self.sessions_created += 1
        return driver

    def _drop(self) -> None:
        driver, self._driver = self._driver, None
        if driver is not None:
            try:
                driver.quit()
            except Exception as exc:  # the session is already dead; quitting it may fail any way
                log.debug("quitting a dead Appium session: %s", _first_line(exc))

    def driver(self) -> Any:
        with self._lock:
            if self._driver is None:
                self._driver = self._start()
            return self._driver

    def call(self, fn: Callable[[Any], T], what: str) -> T:
        """Run ``fn(driver)``; re-create the session once if it died; translate errors."""
        with self._lock:
            for attempt in (1, 2):
                driver = self.driver()
                try:
                    return fn(driver)
                except DevicePilotError:
                    raise
                except Exception as exc:  # translated below: this is the Appium boundary
                    if attempt == 1 and _is_dead_session(exc):
                        log.warning("Appium session died during %s (%s); starting a new one", what,
                                    _first_line(exc))
                        self._drop()
                        continue
                    if _device_refused(exc):
                        raise DeviceFailure(f"the app refused the {what}: {_first_line(exc)}",
                                            expected=f"{what} possible") from exc
                    raise ControllerError(f"Appium {what} failed: {_first_line(exc)}") from exc
            raise AssertionError("unreachable")  # pragma: no cover

    def close(self) -> None:
        with self._lock:
            self._drop()


def options_from_params(params: dict[str, Any], resolve_path: Callable[[str], str], env_url: str) -> AppiumOptions:
    """Build :class:`AppiumOptions` from a device config's ``params``.

    ``capabilities`` are merged over UiAutomator2 defaults; a relative ``app``
    path is taken relative to the config file.
    """
    caps = params.get("capabilities") or {}
    if not isinstance(caps, dict):
        raise ConfigError("appium: params.capabilities must be a mapping")
    merged = dict(UIAUTOMATOR2_CAPABILITIES)
    for key, value in caps.items():
        name = str(key)
        if ":" not in name and name not in ("platformName", "browserName", "platformVersion"):
            name = f"appium:{name}"
        merged[name] = value
    app = merged.get("appium:app")
    if isinstance(app, str) and app and "://" not in app:
        merged["appium:app"] = resolve_path(app)
    url = str(params.get("server_url") or env_url or DEFAULT_SERVER_URL)
    return AppiumOptions(url, merged, float(params.get("command_timeout", 60)))
