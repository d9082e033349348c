"""adb plumbing shared by the Android phone and Android TV controllers.

Every call runs the ``adb`` executable through :mod:`subprocess` — not a
Python adb library — so whatever ``adb`` is first on PATH is the protocol
peer: the platform-tools binary talking to a real device or emulator, or the
test suite's shim (``tests/fakes/adb``) that answers like one. Each call has a
timeout; failures are translated here, at the boundary:

* adb missing, a timeout, ``device offline``/``not found``/``unauthorized``,
  unreadable output → :class:`~shared.errors.ControllerError` (the rig broke);
* the device refused what was asked (no such app or activity) →
  :class:`~shared.errors.DeviceFailure`.

Shell commands are single strings run by the device's ``sh``; arguments that
come from users are quoted with :func:`shlex.quote`.
"""
from __future__ import annotations

import logging
import re
import shlex
import threading
from dataclasses import dataclass

from backend_core.controllers.process import run_tool
from backend_core.controllers.geometry import to_pixels
from backend_core.controllers.ui_dump import UiTree, parse_ui_xml
from shared.errors import ControllerError, DeviceFailure, RequestError

log = logging.getLogger(__name__)

PNG_MAGIC = b"\x89PNG\r\n\x1a\n"
DUMP_PATH = "/sdcard/devicepilot_window_dump.xml"
DEFAULT_TIMEOUT_S = 20.0
_PACKAGE = re.compile(r"^[A-Za-z][\w]*(\.[A-Za-z_][\w]*)+$")
_ACTIVITY = re.compile(r"^[.\w$]+$")


@dataclass(frozen=True)
class AdbResult:
    """What one adb call returned."""

    args: tuple[str, ...]
    returncode: int
    stdout: bytes
    stderr: bytes

    @property
    def text(self) -> str:
        return self.stdout.decode("utf-8", errors="replace")

    @property
    def message(self) -> str:
        """The first meaningful line adb printed, for error messages."""
        for raw in (self.stderr, self.stdout):
            for line in raw.decode("utf-8", errors="replace").splitlines():
                if line.strip():
                    return line.strip()
        return f"exit status {self.returncode}"


def escape_input_text(text: str) -> str:
    """Quote *text* for ``adb shell input text``: spaces become ``%s``, the rest is shell-quoted.

    >>> escape_input_text("hello world"), escape_input_text("a&b; c")
    ('hello%sworld', "'a&b;%sc'")

    ``input text`` types printable ASCII only; anything else is a :class:`RequestError`.
    """
    if not text:
        raise RequestError("input_text needs some text")
    bad = sorted({c for c in text if not (32 <= ord(c) < 127)})
    if bad:
        raise RequestError(f"adb can only type printable ASCII; cannot type {''.join(bad)!r}")
    return shlex.quote(text.replace(" ", "%s"))


def parse_wm_size(output: str) -> tuple[int, int]:
    """``Physical size: 1080x1920`` (and an optional ``Override size:``, which wins) → (width, height)."""
    sizes = dict(re.findall(r"(Physical|Override) size:\s*(\d+x\d+)", output))
    chosen = sizes.get("Override") or sizes.get("Physical")
    if not chosen:
        raise ControllerError(f"cannot read the screen size from 'wm size': {output.strip()[:120]!r}")
    w, h = (int(v) for v in chosen.split("x"))
    return w, h


class AdbClient:
    """One device, addressed by serial, through the ``adb`` executable."""

    def __init__(self, serial: str, adb_path: str = "adb", timeout: float = DEFAULT_TIMEOUT_S) -> None:
        if not serial:
            raise RequestError("an adb device needs a serial (see 'adb devices')")
        self.serial = serial
        self.adb_path = adb_path
        self.timeout = timeout
        self._size: tuple[int, int] | None = None
        self._lock = threading.Lock()

    # -- the one place adb runs ----------------------------------------------------
    def run(self, *args: str, timeout: float | None = None, check: bool = True) -> AdbResult:
        """``adb -s SERIAL *args``; raises :class:`ControllerError` when adb or the device broke."""
        argv = [self.adb_path, "-s", self.serial, *args]
        limit = self.timeout if timeout is None else timeout
        proc = run_tool(argv, timeout=limit,
                        missing=f"adb executable {self.adb_path!r} not found: install Debian's 'adb' package "
                                "(or Android platform-tools) or set the controller's 'adb' param",
                        timeout_message=f"adb {' '.join(args)[:80]} on {self.serial} timed out after {limit:g}s")
        result = AdbResult(tuple(args), proc.returncode, proc.stdout, proc.stderr)
        if check:
            self._check_exit(result)
        return result

    def shell(self, command: str, timeout: float | None = None) -> str:
        """Run *command* with the device's ``sh`` and return what it printed."""
        return self.run("shell", command, timeout=timeout).text

    def exec_out(self, command: str, timeout: float | None = None) -> bytes:
        """Like :meth:`shell` but binary-safe (no pty, no CRLF translation)."""
        return self.run("exec-out", command, timeout=timeout).stdout

    # -- what the controllers use ----------------------------------------------------
    def state(self) -> str:
        """``device``, ``offline``, ``unauthorized``…; raises when the device is unknown to adb."""
        return self.run("get-state", timeout=10).text.strip()

    def screen_size(self) -> tuple[int, int]:
        """(width, height) in pixels, from ``wm size``; read once and kept."""
        with self._lock:
            if self._size is None:
                self._size = parse_wm_size(self.shell("wm size", timeout=10))
                log.info("%s: screen is %dx%d", self.serial, *self._size)
            return self._size

    def to_pixels(self, x: float, y: float) -> tuple[int, int]:
        """Fractions of the screen (0..1) → pixel coordinates, clamped inside the screen."""
        return to_pixels(x, y, *self.screen_size())

    def screencap(self) -> bytes:
        png = self.run("exec-out", "screencap -p", timeout=max(self.timeout, 30)).stdout
        if not png.startswith(PNG_MAGIC):
            head = png[:80].decode("utf-8", errors="replace").strip()
            raise ControllerError(f"screencap on {self.serial} returned no PNG: {head or 'nothing'!r}")
        return png

    def dump_ui(self) -> UiTree:
        """The current UI hierarchy: ``uiautomator dump`` to a file and read back, in one adb round trip."""
        raw = self.exec_out(f"uiautomator dump {DUMP_PATH} && cat {DUMP_PATH}", timeout=max(self.timeout, 30))
        text = raw.decode("utf-8", errors="replace")
        if "<hierarchy" not in text:   # "ERROR: could not get idle state.": the dump failed, nothing was read
            raise ControllerError(f"uiautomator dump on {self.serial} failed: {text.strip()[:160]}")
        return parse_ui_xml(raw)

    def keyevent(self, code: int) -> None:
        self.shell(f"input keyevent {int(code)}")

    def keyevents(self, codes: list[int], batch: int = 50) -> None:
        """Several key events with one ``input keyevent`` per *batch* codes (clearing a field takes many)."""
        for start in range(0, len(codes), batch):
            self.shell("input keyevent " + " ".join(str(int(c)) for c in codes[start:start + batch]))

    def tap(self, x: int, y: int) -> None:
        self.shell(f"input tap {int(x)} {int(y)}")

    def swipe(self, x1: int, y1: int, x2: int, y2: int, duration_ms: int) -> None:
        self.shell(f"input swipe {int(x1)} {int(y1)} {int(x2)} {int(y2)} {int(duration_ms)}")

    def input_text(self, text: str) -> None:
        self.shell(f"input text {escape_input_text(text)}")

    def launch(self, package: str, activity: str = "", category: str = "android.intent.category.LAUNCHER") -> str:
        """Start *package* (its launcher activity, or *activity*); a refusal is a :class:`DeviceFailure`."""
        check_package(package)
        if activity:
            if not _ACTIVITY.match(activity):
                raise RequestError(f"not an activity name: {activity!r}")
            component = activity if "/" in activity else f"{package}/{activity}"
            result = self.run("shell", f"am start -W -n {shlex.quote(component)}", check=False)
            output = result.text + result.stderr.decode("utf-8", errors="replace")
            if "Error" in output or "does not exist" in output:
                raise DeviceFailure(f"cannot start {component}: {_first_error(output)}",
                                    expected=f"activity {component} started")
            self._check_exit(result)
            return component
        result = self.run("shell", f"monkey -p {shlex.quote(package)} -c {shlex.quote(category)} 1", check=False)
        if "No activities found" in result.text + result.stderr.decode("utf-8", errors="replace"):
            raise DeviceFailure(f"{package} is not installed or has no {category.rsplit('.', 1)[-1]} activity",
                                expected=f"app {package} started")
        self._check_exit(result)
        return package

    def _check_exit(self, result: AdbResult) -> None:
        if result.returncode != 0:
            raise ControllerError(f"adb {' '.join(result.args)[:80]} on {self.serial} failed: {result.message}",
                                  serial=self.serial, returncode=result.returncode)

    def force_stop(self, package: str) -> None:
        check_package(package)
        self.shell(f"am force-stop {shlex.quote(package)}")


def check_package(package: str) -> None:
    if not _PACKAGE.match(package or ""):
        raise RequestError(f"not an Android package name: {package!r} (e.g. com.android.settings)")


def _first_error(output: str) -> str:
    """The telling line of ``am``'s output: ``Error: Activity class {…} does not exist.``"""
    lines = [line.strip() for line in output.splitlines()]
    for test in (lambda s: s.startswith("Error:"), lambda s: "does not exist" in s, lambda s: "Error" in s):
        hit = next((line for line in lines if test(line)), None)
        if hit:
            return hit
    return output.strip()[:160]
