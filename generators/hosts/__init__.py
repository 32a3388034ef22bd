"""Models of the hosts' writers, one package per host (spec 3.0): `vscode`, `codex`, `pi`,
`claude_code`, `gemini_cli`, `opencode`, `chat_loop`.

Each package restates, from the host's own source, what its writer puts on disk per era, so the
corpus can hold files shaped like the real ones. A *plan* lists what happened in a session; the
expected count comes from that plan, never from reading the bytes back.
"""
