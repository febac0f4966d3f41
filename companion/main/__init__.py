"""Home page, PWA files (manifest, service worker, offline page) and error pages."""

from .routes import bp

__all__ = ["bp"]
