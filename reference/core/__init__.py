"""The host-neutral core: the answer, errors, reading by JSON value, guarded opening of files,
JavaScript number and truthiness helpers, the host interface and the registry (README.md)."""
