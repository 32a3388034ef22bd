"""The golden corpus: building generated cases, case IDs, lint, and adding a hand-written case."""
