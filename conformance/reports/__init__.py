"""Reports of a run (JSON, Markdown, HTML), the release gate `compare`, and `baseline`."""
