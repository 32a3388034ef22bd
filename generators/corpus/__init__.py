"""The golden corpus: case metadata (`casefile`: case.toml, tags, rules), building generated
cases, case IDs, lint, and adding a hand-written case."""
