"""The service's routers, one per resource."""

__all__ = []
