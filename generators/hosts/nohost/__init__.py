"""Files of no host (HST-4) and empty files: raw-byte scenarios, rejected whole."""
