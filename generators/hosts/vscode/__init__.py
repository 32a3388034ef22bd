"""VS Code Copilot Chat: the session model, its scenarios and plans (the expected counts), and
VS Code's log writer (spec/hosts/vscode.md)."""
