"""A model of the GitHub Copilot CLI writer (spec/hosts/copilot-cli.md): plan, writer, scenarios."""
