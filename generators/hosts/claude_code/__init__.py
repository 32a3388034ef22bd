"""Claude Code: its transcript writer (CC0..CC3), plan and scenarios (spec/hosts/claude-code.md)."""
