"""The GitHub Copilot CLI host (spec/hosts/copilot-cli.md, CPL-*): its reader is `reader.py`."""
