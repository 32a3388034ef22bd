"""The runner core: cases, candidates, answer readers, process control and one outcome per case."""
