"""basic-agent-chat-loop: its session folder writer (M0, M1), plan and scenarios
(spec/hosts/basic-agent-chat-loop.md)."""
