"""The HTTP service (``vwlog serve``): FastAPI routers over the same services the CLI calls.

Installed with the ``api`` extra. Owns routing, access (`dependencies.require`), status codes
and the response models of `vwlog.api.schemas`; holds no game logic and never imports
`vwlog.cli`.
"""

from vwlog.api.app import create_app
from vwlog.api.settings import ApiSettings

__all__ = ["ApiSettings", "create_app"]
