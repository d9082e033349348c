"""Token usage of LLM calls, summed per run."""
from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any


def _count(value: Any) -> int:
    try:
        n = int(value)
    except (TypeError, ValueError, OverflowError):
        return 0
    return max(0, n)


@dataclass
class TokenUsage:
    """What a run's planning cost: ``{prompt_tokens, completion_tokens, total_tokens, llm_calls}``."""

    prompt_tokens: int = 0
    completion_tokens: int = 0
    total_tokens: int = 0
    llm_calls: int = 0

    @classmethod
    def from_response(cls, usage: Any) -> "TokenUsage":
        """One call's usage from an OpenAI-style ``usage`` object (missing fields count 0)."""
        u = usage if isinstance(usage, dict) else {}
        prompt, completion = _count(u.get("prompt_tokens")), _count(u.get("completion_tokens"))
        total = _count(u.get("total_tokens")) or prompt + completion
        return cls(prompt, completion, total, 1)

    @classmethod
    def from_dict(cls, data: Any) -> "TokenUsage":
        d = data if isinstance(data, dict) else {}
        return cls(_count(d.get("prompt_tokens")), _count(d.get("completion_tokens")),
                   _count(d.get("total_tokens")), _count(d.get("llm_calls")))

    def __add__(self, other: "TokenUsage") -> "TokenUsage":
        return TokenUsage(self.prompt_tokens + other.prompt_tokens,
                          self.completion_tokens + other.completion_tokens,
                          self.total_tokens + other.total_tokens, self.llm_calls + other.llm_calls)

    def add_to(self, usage: dict[str, Any]) -> dict[str, Any]:
        """Add this usage into a plain usage dict in place (the shape runs store) and return it."""
        usage.update((TokenUsage.from_dict(usage) + self).to_dict())
        return usage

    def to_dict(self) -> dict[str, int]:
        return asdict(self)
