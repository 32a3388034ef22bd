"""Qwen Code: its transcript writer (Q0, Q1), plan and scenarios (spec/hosts/qwen-code.md)."""
