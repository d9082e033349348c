"""The one wait primitive: every "wait until" in devicepilot goes through :func:`wait_until`."""
from __future__ import annotations

import logging
import time
from dataclasses import dataclass
from typing import Callable, Generic, TypeVar

from shared.errors import DevicePilotError

log = logging.getLogger(__name__)
T = TypeVar("T")


@dataclass(frozen=True)
class Timeout:
    """How long to wait and how often to look. Cascades: step → command default → device."""

    seconds: float = 5.0
    interval: float = 0.2

    def with_seconds(self, seconds: float | None) -> "Timeout":
        return self if seconds is None else Timeout(float(seconds), self.interval)


class WaitTimeout(DevicePilotError, Generic[T]):
    """Raised by :func:`wait_until` when the condition never held; carries the last observation."""

    def __init__(self, message: str, last: object = None, attempts: int = 0, settled: bool = False) -> None:
        super().__init__(message)
        self.last = last
        self.attempts = attempts
        self.settled = settled   # ended early: the screen had stopped changing (see wait_until)


def wait_until(
    probe: Callable[[], tuple[bool, T]],
    timeout: Timeout,
    *,
    what: str = "condition",
    clock: Callable[[], float] = time.monotonic,
    sleep: Callable[[float], None] = time.sleep,
    settled: Callable[[], bool] | None = None,
    busy: Callable[[], bool] | None = None,
    busy_cap_s: float = 30.0,
) -> T:
    """Call *probe* until it returns ``(True, value)``; return that value.

    *probe* returns ``(done, observation)``. It is always called at least once,
    even with a zero timeout. On timeout :class:`WaitTimeout` is raised with the
    last observation, so the caller can report what was seen instead.
    Exceptions from *probe* propagate at once (an infrastructure error is not
    something to wait out).

    *settled*, asked after a probe that did not hold, says the screen has stopped changing by itself
    (nothing loads, moves or is rewritten): what is not there yet will not come, and the wait ends
    before its timeout, with :attr:`WaitTimeout.settled` set.

    *busy*, asked when the time is up, says the screen is still being fetched (a page whose server takes its
    time to answer a search): the wait goes on until it has come, at most *busy_cap_s* more, and the timeout
    then counts from there (what is checked was never on screen to be seen).
    """
    deadline = clock() + max(0.0, timeout.seconds)
    last_chance = deadline + busy_cap_s
    attempts = 0
    while True:
        attempts += 1
        done, observation = probe()
        if done:
            return observation
        remaining = deadline - clock()
        if remaining <= 0 and busy is not None and clock() < last_chance and busy():
            log.debug("%s: the screen is still loading; waiting for it", what)
            deadline = min(last_chance, clock() + max(timeout.interval, min(timeout.seconds, 1.0)))
            remaining = deadline - clock()
        if remaining <= 0:
            raise WaitTimeout(f"{what} not met within {timeout.seconds:g}s", observation, attempts)
        if settled is not None and settled():
            raise WaitTimeout(f"{what} not met; the screen had stopped changing", observation, attempts,
                              settled=True)
        sleep(min(timeout.interval, remaining))
