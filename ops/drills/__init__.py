"""Fault drills for umpire (``ops/drill``): real server processes, a real Redis,
concurrent REST clients, SIGKILLs, a full disk and a read-only data dir.

Modules:

- the drills play the tiny ruleset ``drill`` of the tests (tests/rulesets/drill.py; loaded into
  the server with ``UMPIRE_CLI_PLUGINS=tests.rulesets.drill``);
- :mod:`drills.server`   start / SIGKILL / restart ``umpire serve`` (1 or N workers);
- :mod:`drills.load`     concurrent clients that remember every acknowledged command;
- :mod:`drills.checks`   after the fact: nothing acknowledged lost, chains verify,
  projections converge;
- :mod:`drills.scenarios` the drills themselves, each returning a report.

``ops/`` is not a package: put ``ops/`` on ``sys.path`` (``ops/drill`` does) and
import ``drills``.
"""
