"""The session model: scenarios, their plans (the expected counts), and VS Code's log writer."""
