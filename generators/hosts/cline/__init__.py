"""The Cline family's writer models (Cline's core, Roo Code, the Kilo extension, the SDK store)."""
