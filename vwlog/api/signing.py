"""The service's Ed25519 key: it signs every append receipt, so a table can prove later what
the service accepted and at which head."""

from __future__ import annotations

import base64
import os
from pathlib import Path

from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey

from vwlog.io.codec import canonical


class Signer:
    """Signs receipts with one Ed25519 key."""

    def __init__(self, key: Ed25519PrivateKey) -> None:
        self._key = key
        raw = key.public_key().public_bytes(
            serialization.Encoding.Raw, serialization.PublicFormat.Raw
        )
        self.public_key = base64.b64encode(raw).decode()
        """The public key, raw 32 bytes in base64."""

    @classmethod
    def load_or_create(cls, path: str | Path) -> Signer:
        """The key in the PEM file ``path``; a new key is written there (mode 0600) if the file
        does not exist, so several workers started together share one key.

        Raises:
            OSError: the file cannot be read or written.
            ValueError: the file is not an Ed25519 private key in PEM.
        """
        p = Path(path)
        if not p.exists():
            key = Ed25519PrivateKey.generate()
            pem = key.private_bytes(
                serialization.Encoding.PEM,
                serialization.PrivateFormat.PKCS8,
                serialization.NoEncryption(),
            )
            tmp = p.with_name(f".{p.name}.{os.getpid()}.tmp")
            fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
            with os.fdopen(fd, "wb") as f:
                f.write(pem)
            try:
                os.link(tmp, p)  # atomic, and never replaces a key another process wrote
            except FileExistsError:
                pass
            finally:
                tmp.unlink(missing_ok=True)
        loaded = serialization.load_pem_private_key(p.read_bytes(), password=None)
        if not isinstance(loaded, Ed25519PrivateKey):
            raise ValueError(f"{p}: not an Ed25519 private key")
        return cls(loaded)

    def sign(self, payload: dict[str, object]) -> str:
        """The signature of the canonical JSON of ``payload``, in base64."""
        return base64.b64encode(self._key.sign(canonical(payload))).decode()


def verify(public_key: str, payload: dict[str, object], signature: str) -> bool:
    """Whether ``signature`` is the key's signature of the canonical JSON of ``payload``."""
    from cryptography.exceptions import InvalidSignature

    key = Ed25519PublicKey.from_public_bytes(base64.b64decode(public_key))
    try:
        key.verify(base64.b64decode(signature), canonical(payload))
    except InvalidSignature:
        return False
    return True


__all__ = ["Signer", "verify"]
