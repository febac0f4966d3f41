"""The blueprint of Play mode's views (pages in :mod:`.routes`, the JSON API in :mod:`.api`)."""

from flask import Blueprint

bp = Blueprint("tables", __name__)
