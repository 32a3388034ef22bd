"""One package per host (HST-1): each `HOST` is that host's side of the host interface
(`core/host.py`); `core/registry.py` lists them from `spec/hosts.toml`."""
