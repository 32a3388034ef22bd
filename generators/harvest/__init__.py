"""Real hosts (Codex CLI, pi) write real session files against a scripted loopback model."""
