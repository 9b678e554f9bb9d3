"""Published pools and rulesets, seals and Ed25519 signatures: the bytes a verdict rests on.

* **Published definitions.** A card pool or a ruleset is published under a stable id with a
  content hash: SHA-256 of its canonical JSON (`vwlog.io.codec.canonical`, ``None`` fields left
  out). The packaged pool is ``vw-sample-pool@2`` (``@1``, its earlier version, stays published),
  the default ruleset ``vw-default@1`` and the samples' ruleset ``vw-samples@1``; an organiser
  publishes more into the store (`vwlog pool publish`, `vwlog ruleset publish`).
* **Seal.** A closed record ends with a `MatchSealed` record: how many records precede it, the
  hash of the last of them, and the hashes of the pool, ruleset and card definitions.
* **Signatures.** A `RecordSigned` record after the seal holds an Ed25519 signature over
  ``vwlog-seal-v1``, a newline and the seal record's chain hash, which covers every byte before
  it. Keys live in a directory: ``NAME.key`` (private, PKCS#8 PEM, mode 0600) and ``NAME.pub``
  (one line: ``vwlog-ed25519 <public key hex> NAME``); a keyring is such a directory.
"""

from __future__ import annotations

import hashlib
import os
import re
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from pydantic import ValidationError

from vwlog.events import EventRecord, MatchSealed, MatchStarted, PublishedRef, RecordSigned
from vwlog.io.codec import canonical
from vwlog.io.errors import NotPublishedError
from vwlog.io.pools import EARLIER_POOLS, load_earlier_pool, load_pool
from vwlog.model.cards import DEFAULT_RULESET, CardDef, CardPool, Ruleset, card_dumps
from vwlog.model.errors import UsageError
from vwlog.model.text import msg

if TYPE_CHECKING:
    from collections.abc import Iterable, Mapping, Sequence

    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

    from vwlog.events.match import SealedBy

_P = TypeVar("_P", bound="_Published")

PACKAGED_POOL_ID = "vw-sample-pool@2"
"""Published id of the pool packaged with vwlog (``vwlog/data/pool.json``); its earlier versions
(`vwlog.io.pools.EARLIER_POOLS`) stay published under their own ids."""
SIGNED_PREFIX = b"vwlog-seal-v1\n"
"""What a signature covers before the seal record's hash."""
_PUB_TAG = "vwlog-ed25519"
_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$")
_ID = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.@-]{0,199}$")


# -- hashes ----------------------------------------------------------------------------------


def _digest(obj: Any) -> str:
    return hashlib.sha256(canonical(obj)).hexdigest()


def pool_hash(pool: CardPool) -> str:
    """SHA-256 of a pool's canonical JSON."""
    return _digest(pool.model_dump(mode="json", by_alias=True, exclude_none=True))


def ruleset_hash(ruleset: Ruleset) -> str:
    """SHA-256 of a ruleset's canonical JSON."""
    return _digest(ruleset.model_dump(mode="json", exclude_none=True))


def cards_hash(cards: Sequence[CardDef]) -> str:
    """SHA-256 of a list of card definitions' canonical JSON (a log's embedded cards)."""
    return _digest(card_dumps(cards))


def ruleset_id(ruleset: Ruleset) -> str:
    """The published id of a ruleset: ``id@version``."""
    return f"{ruleset.id}@{ruleset.version}"


# -- published definitions -------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Published:
    """A definition published under an id, with the hash of its canonical JSON."""

    id: str
    hash: str

    @property
    def ref(self) -> PublishedRef:
        """How a log names it."""
        return PublishedRef(id=self.id, hash=self.hash)


@dataclass(frozen=True, slots=True)
class PublishedPool(_Published):
    """A card pool published under an id."""

    pool: CardPool
    builtin: bool = False

    def cards(self) -> dict[str, CardDef]:
        """Its cards by id."""
        return {c.id: c for c in self.pool.cards}


@dataclass(frozen=True, slots=True)
class PublishedRuleset(_Published):
    """A ruleset published under its ``id@version``."""

    ruleset: Ruleset
    builtin: bool = False


def published_pool(pool: CardPool, pool_id: str, *, builtin: bool = False) -> PublishedPool:
    """A pool with its id and hash."""
    return PublishedPool(pool_id, pool_hash(pool), pool, builtin)


def published_ruleset(ruleset: Ruleset, *, builtin: bool = False) -> PublishedRuleset:
    """A ruleset with its id and hash."""
    return PublishedRuleset(ruleset_id(ruleset), ruleset_hash(ruleset), ruleset, builtin)


@dataclass(frozen=True, slots=True)
class Registry:
    """Every published pool and ruleset a log may be held to, by id."""

    pools: Mapping[str, PublishedPool] = field(default_factory=dict)
    rulesets: Mapping[str, PublishedRuleset] = field(default_factory=dict)

    def with_pool(self, item: PublishedPool) -> Registry:
        """This registry and one more pool."""
        return Registry({**self.pools, item.id: item}, self.rulesets)

    def with_ruleset(self, item: PublishedRuleset) -> Registry:
        """This registry and one more ruleset."""
        return Registry(self.pools, {**self.rulesets, item.id: item})

    def pool(self, pool_id: str) -> PublishedPool:
        """The pool published under ``pool_id``.

        Raises:
            NotPublishedError: nothing is published under that id.
        """
        return _published(self.pools, "pool", pool_id)

    def ruleset(self, rs_id: str) -> PublishedRuleset:
        """The ruleset published under ``rs_id``.

        Raises:
            NotPublishedError: nothing is published under that id.
        """
        return _published(self.rulesets, "ruleset", rs_id)


def _published(table: Mapping[str, _P], what: str, key: str) -> _P:
    """What ``table`` has under ``key``.

    Raises:
        NotPublishedError: nothing is published under that id (``what``: ``pool``, ``ruleset``).
    """
    found = table.get(key)
    if found is None:
        raise NotPublishedError(what, key, tuple(table))
    return found


@cache
def builtin_registry() -> Registry:
    """The packaged pool, its earlier versions and the default ruleset (read once per process:
    they are packaged files)."""
    pools = {
        pool_id: published_pool(load_earlier_pool(pool_id), pool_id, builtin=True)
        for pool_id in EARLIER_POOLS
    }
    pools[PACKAGED_POOL_ID] = published_pool(load_pool(), PACKAGED_POOL_ID, builtin=True)
    rulesets = [
        published_ruleset(DEFAULT_RULESET, builtin=True),
        *(_packaged_ruleset(name) for name in PACKAGED_RULESETS.values()),
    ]
    return Registry(pools, {rs.id: rs for rs in rulesets})


PACKAGED_RULESETS = {"vw-samples@1": "data/published/vw-samples@1.ruleset.json"}
"""Rulesets published with vwlog beside the default, by id: ``vw-samples@1`` is the one the
packaged sample logs are played under (`samples/build.py`: the default rules, with a quick
setup)."""


def _packaged_ruleset(resource: str) -> PublishedRuleset:
    """A packaged published ruleset (its file holds the ruleset's canonical JSON)."""
    import importlib.resources

    data = importlib.resources.files("vwlog").joinpath(resource).read_bytes()
    return published_ruleset(Ruleset.model_validate_json(data), builtin=True)


def check_published_id(text: str, what: str) -> str:
    """A published id, checked: letters, digits and ``_ . @ -``.

    Raises:
        UsageError: the id is malformed.
    """
    if not _ID.match(text):
        raise UsageError(
            msg(
                "{what} id {text}: use letters, digits and _ . @ - (up to 200)",
                what=what,
                text=repr(text),
            )
        )
    return text


def pool_document(item: PublishedPool) -> bytes:
    """The stored form of a published pool: canonical JSON of id and pool."""
    return canonical(
        {"id": item.id, "pool": item.pool.model_dump(mode="json", by_alias=True, exclude_none=True)}
    )


def ruleset_document(item: PublishedRuleset) -> bytes:
    """The stored form of a published ruleset."""
    return canonical({"id": item.id, "ruleset": item.ruleset.model_dump(mode="json")})


def read_pool_document(data: bytes) -> PublishedPool:
    """A published pool from its stored form."""
    import orjson

    obj = orjson.loads(data)
    return published_pool(CardPool.model_validate(obj["pool"]), str(obj["id"]))


def read_ruleset_document(data: bytes) -> PublishedRuleset:
    """A published ruleset from its stored form."""
    import orjson

    obj = orjson.loads(data)
    return published_ruleset(Ruleset.model_validate(obj["ruleset"]))


# -- seals -----------------------------------------------------------------------------------


def with_refs(start: MatchStarted, pool: PublishedPool | None) -> MatchStarted:
    """``match_started`` naming the pool it was played under and its ruleset, by id and hash."""
    rs = published_ruleset(start.ruleset)
    return start.model_copy(
        update={"pool": None if pool is None else pool.ref, "ruleset_ref": rs.ref}
    )


def seal_event(
    start: MatchStarted | None,
    count: int,
    head: str,
    signers: Sequence[str] = (),
    sealed_by: SealedBy | None = None,
) -> MatchSealed:
    """The seal after ``count`` records whose last hash is ``head``, requiring signatures by
    ``signers`` (key names or ids; none: the field is left out), naming who sealed it
    (``sealed_by``: an organiser or judge sealing an outside record)."""
    required = tuple(dict.fromkeys(signers)) or None
    if start is None:
        return MatchSealed(events=count, head=head, signers=required, sealed_by=sealed_by)
    return MatchSealed(
        events=count,
        head=head,
        pool=start.pool.hash if start.pool else None,
        ruleset=ruleset_hash(start.ruleset),
        cards=cards_hash(start.cards),
        signers=required,
        sealed_by=sealed_by,
    )


def strip_trailer(records: Iterable[EventRecord]) -> list[EventRecord]:
    """The records without a seal and signatures (to re-seal after a change)."""
    return [r for r in records if not isinstance(r.event, MatchSealed | RecordSigned)]


# -- keys and signatures ---------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class PublicKey:
    """A public key of a keyring."""

    name: str
    hex: str

    @property
    def key_id(self) -> str:
        """Short id: the first 16 hex digits of the key's SHA-256."""
        return key_id(self.hex)


def key_id(public_hex: str) -> str:
    """Short id of a public key: the first 16 hex digits of its SHA-256 (``malformed`` when
    the text is no hex key)."""
    if not re.fullmatch(r"[0-9a-f]{64}", public_hex):
        return "malformed"
    return hashlib.sha256(bytes.fromhex(public_hex)).hexdigest()[:16]


def _crypto() -> Any:
    try:
        from cryptography.hazmat.primitives.asymmetric import ed25519
    except ImportError as err:  # pragma: no cover - the trust extra is installed in CI
        raise UsageError(
            msg("signatures need the 'cryptography' package: pip install 'vwlog[trust]'")
        ) from err
    return ed25519


def check_key_name(name: str) -> str:
    """A key name, checked.

    Raises:
        UsageError: the name is malformed.
    """
    if not _NAME.match(name):
        raise UsageError(
            msg("key name {name}: use letters, digits and _ . - (up to 64)", name=repr(name))
        )
    return name


def create_key(directory: Path, name: str) -> PublicKey:
    """Create ``NAME.key`` and ``NAME.pub`` in ``directory``; refuses to overwrite.

    Raises:
        UsageError: the name is malformed or a key of that name exists.
        OSError: the directory cannot be written.
    """
    from cryptography.hazmat.primitives import serialization

    check_key_name(name)
    ed25519 = _crypto()
    directory.mkdir(parents=True, exist_ok=True)
    private_path, public_path = directory / f"{name}.key", directory / f"{name}.pub"
    if private_path.exists() or public_path.exists():
        raise UsageError(
            msg(
                "{directory}: a key named {name} exists already",
                directory=directory,
                name=repr(name),
            )
        )
    key = ed25519.Ed25519PrivateKey.generate()
    pem = key.private_bytes(
        serialization.Encoding.PEM,
        serialization.PrivateFormat.PKCS8,
        serialization.NoEncryption(),
    )
    public_hex = key.public_key().public_bytes_raw().hex()
    fd = os.open(private_path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(fd, "wb") as out:
        out.write(pem)
    public_path.write_text(f"{_PUB_TAG} {public_hex} {name}\n", encoding="utf-8")
    return PublicKey(name, public_hex)


def read_public_key(path: Path) -> PublicKey:
    """Read a ``.pub`` file.

    Raises:
        UsageError: the file is unreadable or malformed.
    """
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as err:
        raise UsageError(msg("{path}: cannot read public key: {err}", path=path, err=err)) from err
    parts = text.split()
    if (
        len(parts) != 3
        or parts[0] != _PUB_TAG
        or not re.fullmatch(r"[0-9a-f]{64}", parts[1])
        or not _NAME.match(parts[2])
    ):
        raise UsageError(
            msg(
                "{path}: line 1: malformed public key (expected '{_PUB_TAG} <64 hex digits> NAME')",
                path=path,
                _PUB_TAG=_PUB_TAG,
            )
        )
    try:
        _crypto().Ed25519PublicKey.from_public_bytes(bytes.fromhex(parts[1]))
    except ValueError as err:
        raise UsageError(msg("{path}: line 1: not an Ed25519 public key", path=path)) from err
    return PublicKey(parts[2], parts[1])


def load_keyring(directory: Path) -> dict[str, PublicKey]:
    """Every public key of a keyring directory, by hex.

    Raises:
        UsageError: the directory is missing or holds a malformed ``.pub`` file.
    """
    if not directory.is_dir():
        raise UsageError(msg("{directory}: no such keyring directory", directory=directory))
    keys: dict[str, PublicKey] = {}
    for path in sorted(directory.glob("*.pub")):
        key = read_public_key(path)
        keys[key.hex] = key
    return keys


def load_private_key(path: Path) -> tuple[Ed25519PrivateKey, str]:
    """Read a private key file (``NAME.key``, or ``DIR/NAME`` meaning ``DIR/NAME.key``);
    returns the key and its name.

    Raises:
        UsageError: the file is unreadable or not an Ed25519 private key.
    """
    from cryptography.hazmat.primitives import serialization

    ed25519 = _crypto()
    if not path.exists() and path.with_suffix(".key").exists():
        path = path.with_suffix(".key")
    try:
        data = path.read_bytes()
    except OSError as err:
        raise UsageError(
            msg("{path}: cannot read key: {strerror}", path=path, strerror=err.strerror)
        ) from err
    try:
        key = serialization.load_pem_private_key(data, password=None)
    except (ValueError, TypeError) as err:
        raise UsageError(
            msg("{path}: line 1: malformed private key (expected PKCS#8 PEM)", path=path)
        ) from err
    if not isinstance(key, ed25519.Ed25519PrivateKey):
        raise UsageError(msg("{path}: line 1: not an Ed25519 private key", path=path))
    name = path.stem
    check_key_name(name)
    return key, name


def signed_bytes(seal_hash: str) -> bytes:
    """What a signature over a seal covers."""
    return SIGNED_PREFIX + seal_hash.encode("ascii")


def sign_seal(key: Ed25519PrivateKey, name: str, seal: EventRecord) -> RecordSigned:
    """A signature record over a sealed record's seal."""
    if not isinstance(seal.event, MatchSealed) or seal.hash is None:
        raise UsageError(msg("only a hashed seal record can be signed"))
    signature = key.sign(signed_bytes(seal.hash))
    return RecordSigned(
        signer=name,
        key=key.public_key().public_bytes_raw().hex(),
        signature=signature.hex(),
        seal=seal.seq,
    )


def signature_holds(signed: RecordSigned, seal_hash: str) -> bool:
    """Whether the signature is the key's over this seal hash."""
    from cryptography.exceptions import InvalidSignature

    ed25519 = _crypto()
    try:
        public = ed25519.Ed25519PublicKey.from_public_bytes(bytes.fromhex(signed.key))
        public.verify(bytes.fromhex(signed.signature), signed_bytes(seal_hash))
    except (InvalidSignature, ValueError):
        return False
    return True


def parse_ruleset_bytes(data: bytes, source: str) -> Ruleset:
    """A ruleset from JSON bytes.

    Raises:
        UsageError: the bytes are not a valid ruleset.
    """
    try:
        return Ruleset.model_validate_json(data)
    except ValidationError as err:
        first = err.errors()[0]
        where = ".".join(str(p) for p in first["loc"]) or "(top)"
        raise UsageError(
            msg(
                "{source}: line 1: field {where}: {first}",
                source=source,
                where=repr(where),
                first=first["msg"].lower(),
            )
        ) from err


__all__ = [
    "PACKAGED_POOL_ID",
    "PACKAGED_RULESETS",
    "SIGNED_PREFIX",
    "PublicKey",
    "PublishedPool",
    "PublishedRuleset",
    "Registry",
    "builtin_registry",
    "cards_hash",
    "check_key_name",
    "check_published_id",
    "create_key",
    "key_id",
    "load_keyring",
    "load_private_key",
    "parse_ruleset_bytes",
    "pool_document",
    "pool_hash",
    "published_pool",
    "published_ruleset",
    "read_pool_document",
    "read_public_key",
    "read_ruleset_document",
    "ruleset_document",
    "ruleset_hash",
    "ruleset_id",
    "seal_event",
    "sign_seal",
    "signature_holds",
    "signed_bytes",
    "strip_trailer",
    "with_refs",
]
