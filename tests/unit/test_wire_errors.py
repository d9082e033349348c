"""Errors cross the server↔host wire as {code, message} and come back as the project's exceptions."""
from __future__ import annotations

import pytest

from shared.errors import ERROR_CODES, ConfigError, DeviceBusy, DevicePilotError, InfraError, NotFound, \
    RequestError, UnknownCommand, VerificationFailed, error_code, error_from_wire, error_to_wire


@pytest.mark.parametrize("exc", [ConfigError("bad yaml"), DeviceBusy("busy"), NotFound("no such device"),
                                 UnknownCommand("no fly"), VerificationFailed("not shown"), InfraError("x")])
def test_each_error_survives_the_trip(exc: DevicePilotError) -> None:
    back = error_from_wire({"error": error_to_wire(exc)}, "host h1: ")
    assert type(back) is type(exc) and str(back) == f"host h1: {exc}"


def test_unknown_codes_and_foreign_exceptions_are_infrastructure_errors() -> None:
    class Odd(RequestError):
        pass

    assert error_code(Odd("x")) == "bad_request"                   # its nearest registered ancestor
    assert error_code(ValueError("x")) == "infra"
    assert type(error_from_wire({"error": {"code": "nonsense", "message": "m"}})) is InfraError
    assert type(error_from_wire({"error": "plain text", "error_type": "RequestError"})) is InfraError
    assert type(error_from_wire("not a dict")) is InfraError
    assert len(set(ERROR_CODES.values())) == len(ERROR_CODES)      # one code per class
