"""pi: its session writer per format (v1..v3), its plan and scenarios (spec/hosts/pi.md)."""
