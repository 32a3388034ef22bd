"""One driver per host: install, configure against the scripted server, run a scenario."""
