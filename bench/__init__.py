"""Benchmarks: `python -m bench` runs the CPU set and rewrites docs/BENCHMARKS.md."""
