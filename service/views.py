"""Moved to :mod:`projections.views` (the service may import projections; projections never
import the service). This name stays importable: ``service.views`` *is* that module.
"""
import sys

from projections import views as _views

sys.modules[__name__] = _views
