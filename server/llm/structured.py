"""Structured output: JSON schema, then JSON mode, then plain text — whatever the endpoint supports."""
from __future__ import annotations

import re
from enum import Enum
from typing import Any


class OutputMode(str, Enum):
    JSON_SCHEMA = "json_schema"
    JSON_OBJECT = "json_object"
    TEXT = "text"

    def downgrade(self) -> "OutputMode | None":
        """The next, less demanding mode; None after plain text."""
        order = list(OutputMode)
        i = order.index(self)
        return order[i + 1] if i + 1 < len(order) else None


def response_format(mode: OutputMode, schema: dict[str, Any], name: str = "device_plan") -> dict[str, Any] | None:
    """The ``response_format`` request field for *mode* (None for plain text: the field is left out)."""
    if mode is OutputMode.JSON_SCHEMA:
        return {"type": "json_schema", "json_schema": {"name": name, "schema": schema, "strict": False}}
    if mode is OutputMode.JSON_OBJECT:
        return {"type": "json_object"}
    return None


_FORMAT_WORDS = re.compile(r"response[_ ]?format|json[_ ]?schema|json[_ ]?object|structured output|guided", re.I)


def rejects_format(status: int, body: str) -> bool:
    """True when an HTTP error says the endpoint does not support the requested response format."""
    return status in (400, 415, 422, 501) and bool(_FORMAT_WORDS.search(body or ""))
