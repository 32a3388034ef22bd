"""opencode: its store writer (O0..O3: JSON storage, SQLite), plan and scenarios
(spec/hosts/opencode.md)."""
