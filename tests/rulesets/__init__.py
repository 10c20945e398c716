"""Rulesets made for testing the kernel and the service, not games anybody plays: ``drill`` (four seats
racing for one version, multi-event commands; the fault drills of ops/drills play it too)."""
