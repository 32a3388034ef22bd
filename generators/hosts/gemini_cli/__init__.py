"""Gemini CLI: its chat writer (J0, G0, G1), plan and scenarios (spec/hosts/gemini-cli.md)."""
