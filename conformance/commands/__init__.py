"""The subcommands of `rebootspec` that need glue of their own (conformance/cli.py lists all)."""
