"""Benchmarks of the reference counter: speed and peak memory as ratios to baselines of the same run."""
