"""Benchmarks of the reference: speed and peak memory as ratios to baselines of the same run."""
