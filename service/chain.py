"""Moved to :mod:`domain.kernel.chain` (pure; every store backend and every verifier uses it).

This name stays importable: ``service.chain`` *is* that module.
"""
import sys

from domain.kernel import chain as _chain

sys.modules[__name__] = _chain
