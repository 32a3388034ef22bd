"""Differential fuzzing: random sessions from the generator's plans until a candidate disagrees."""
