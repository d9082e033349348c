"""``devicepilot eval``'s command line: its options, and clear errors before anything starts."""
from __future__ import annotations

import pytest

from devicepilot.cli import build_parser, main
from evals.cli import choose


def test_eval_subcommand_options() -> None:
    args = build_parser().parse_args(["eval", "--split", "heldout", "--app", "sqlite_web", "--limit", "3",
                                      "--jobs", "2", "--json"])
    assert (args.split, args.app, args.limit, args.jobs, args.json) == ("heldout", "sqlite_web", 3, 2, True)
    assert len(choose(args)) == 3
    with pytest.raises(SystemExit):
        build_parser().parse_args(["eval", "--split", "test"])


def test_eval_picks_tasks_by_id() -> None:
    args = build_parser().parse_args(["eval", "--task", "stv-guide-plain", "--task", "dj-click-customers"])
    assert sorted(t.id for t in choose(args)) == ["dj-click-customers", "stv-guide-plain"]


@pytest.mark.parametrize("argv, message", [
    (["eval", "--app", "todo"], "no tasks for app 'todo'"),
    (["eval", "--task", "no-such-task"], "no task with id(s) ['no-such-task']"),
])
def test_bad_selection_is_an_error_before_anything_starts(argv: list[str], message: str,
                                                          capsys: pytest.CaptureFixture[str]) -> None:
    assert main(argv) == 2
    assert message in capsys.readouterr().err
