"""The anonymizer: a real session made safe to contribute as a fixture, byte structure kept."""
