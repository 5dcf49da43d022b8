"""tableref: a referee for card games played on a real table."""

__version__ = "0.1.0"
