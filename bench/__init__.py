"""Benchmarks of devicepilot. Run them all with ``python -m bench`` from the repository root."""
