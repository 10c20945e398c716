"""``ops/bench``: run every ``ops/bench_*.py --json`` and print one table.

- :mod:`benchreport.machine` what the figures were measured on;
- :mod:`benchreport.figures` each benchmark's JSON -> rows (figure beside its
  comparison from the same run); a generic reader for any other benchmark;
- :mod:`benchreport.main`    discover, run, print, write ``ops/bench-results.md``.
"""
