"""Rules quick-reference blueprint."""

from .routes import bp, has_rules, rule_url

__all__ = ["bp", "has_rules", "rule_url"]
