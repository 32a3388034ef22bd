"""Codex CLI: its rollout writer per era (C0..C5), its plan and scenarios (spec/hosts/codex.md)."""
