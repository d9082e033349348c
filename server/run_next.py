"""Next-run commands and runs: those due run at the start of a run, and a run's ``next_run`` option schedules more."""
from __future__ import annotations

import logging
from typing import Any

from server.db import RunRow
from server.next_commands import NextStatus
from server.run_model import NextCommandResult, RecordError, RunRecord
from shared.errors import DevicePilotError

log = logging.getLogger(__name__)


class NextRunCommands:
    """Part of :class:`server.runs.RunService`: the device's next-run commands around a run (server/next_commands.py)."""

    def _forget_context(self, device_id: str) -> None:
        ref = self.lab.device(device_id)
        self.ai.clear_cache(ref.model, ref.userinterface)

    def _run_next_commands(self, run_id: str, device_id: str) -> None:
        """Commands scheduled for this device's next run go first, in order; their results join the run."""
        results = [NextCommandResult.from_json(r, f"run {run_id}: next-run command")
                   for r in self.next_commands.run_due(device_id, run_id)]
        if not results:
            return
        with self.db.session() as s:
            run = s.get(RunRow, run_id)
            record = RunRecord.of_row(run)
            record.next_commands = results
            record.apply_to(run)
        log.info("run %s: %d next-run command(s) ran first", run_id, len(results))
        self._update(run_id, event="next-run commands: " + "; ".join(
            f"{r.command} {r.status.value}" + (f" ({r.message})" if r.status is not NextStatus.COMPLETED else "")
            for r in results))

    def _schedule_next_run(self, run_id: str, device_id: str, items: list[dict[str, Any]]) -> bool:
        """A run's ``next_run`` option (*items*): schedule its commands for the device's next run, now that it
        ended. True when the run's events were added to (a command could not be scheduled)."""
        amended = False
        for item in items:
            try:
                self.next_commands.schedule(device_id, item, f"run:{run_id}")
            except DevicePilotError as exc:
                self._update(run_id, event=f"next-run command {item.get('command')!r} not scheduled: {exc}")
                amended = True
        return amended


def next_run_of(row: RunRow) -> list[dict[str, Any]]:
    """The commands a run's ``next_run`` option asks for ([] for a record the server cannot read: logged)."""
    try:
        return RunRecord.of_row(row).options.next_run
    except RecordError as exc:   # the run is ending: its device must still be handed on
        log.error("run %s: its next_run commands are not scheduled: %s", row.id, exc)
        return []
