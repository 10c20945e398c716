"""The web client (DESIGN 12): static files served by ``service/routes/web.py`` at ``/``.

Plain ES modules, no build step and no third-party code: ``index.html`` loads ``js/main.js``.
Everything it does goes through the public REST API and the feed, so it is also the reference
client. ``ROOT`` is the folder the route serves from (shipped as package data by ``pip install``).
"""
from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parent

__all__ = ["ROOT"]
