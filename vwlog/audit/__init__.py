"""audit"""

__all__ = []
