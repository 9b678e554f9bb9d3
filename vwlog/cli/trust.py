"""``vwlog pool publish``, ``vwlog ruleset publish``, ``vwlog keys``, ``vwlog sign``, and how
every verdict shows what it rests on (chain, seal, signatures, published pool and ruleset,
trusted effects)."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

import click

from vwlog.cli import options
from vwlog.cli.base import CliContext, main, pass_cli_context
from vwlog.cli.render import echo, to_json
from vwlog.io import trust as io_trust
from vwlog.io.i18n import gettext as _
from vwlog.io.i18n import say
from vwlog.io.logfile import require_regular_file
from vwlog.model.errors import UsageError
from vwlog.model.text import msg, term
from vwlog.services import publishing
from vwlog.services import trust as services_trust
from vwlog.services.trust import TrustOptions, seal_log

if TYPE_CHECKING:
    from collections.abc import Callable

    from vwlog.io.trust import Registry
    from vwlog.store import MatchStore

P = TypeVar("P")
"""A published pool or ruleset."""


# -- options ---------------------------------------------------------------------------------


def registry_for(cli: CliContext) -> Registry:
    """The built-in definitions and those published into the store, when a store exists
    (validating a file never creates one)."""
    url = cli.store
    if not url.startswith("postgres"):
        path = url.removeprefix("sqlite:///").removeprefix("sqlite://")
        if ":memory:" in path or not Path(path.split("?")[0]).is_file():
            return io_trust.builtin_registry()
    from vwlog.cli.matches import open_store
    from vwlog.model.errors import StoreConfigError, StoreError

    try:
        with open_store(cli) as store:
            return publishing.store_registry(store)
    except (StoreError, StoreConfigError):
        # no reachable store: the built-in definitions only (a log naming a pool published
        # there is then judged with the "log's own" warning; --pool ID says it is unknown)
        return io_trust.builtin_registry()


def trust_options(
    cli: CliContext,
    pool: str | None,
    ruleset: str | None,
    keyring: Path | None,
    *,
    trust_log_definitions: bool = False,
    accept_pools: tuple[str, ...] = (),
    accept_rulesets: tuple[str, ...] = (),
    require: tuple[str, ...] = (),
) -> TrustOptions:
    """`TrustOptions` from ``--pool``, ``--ruleset ID``, ``--keyring``,
    ``--trust-log-definitions``, ``--accept-pool``, ``--accept-ruleset`` and ``--require``,
    checked (without ``--accept-*``, the store's setting ``VWLOG_ACCEPT_POOLS`` /
    ``VWLOG_ACCEPT_RULESETS`` applies).

    Raises:
        UsageError: an id names nothing published, or a keyring key is malformed.
    """
    defaults = TrustOptions()
    opts = TrustOptions(
        registry=registry_for(cli),
        pool=pool,
        ruleset=ruleset,
        keyring=None if keyring is None else io_trust.load_keyring(keyring),
        trust_log_definitions=trust_log_definitions,
        accept_pools=accept_pools or defaults.accept_pools,
        accept_rulesets=accept_rulesets or defaults.accept_rulesets,
        require_signers=tuple(io_trust.check_key_name(n) for n in require),
    )
    services_trust.check_options(opts)
    return opts


pool_option = click.option(
    "--pool",
    "pool_id",
    metavar="ID",
    help="Hold the logs to this published pool (default: the one each log names).",
)
trust_log_definitions_option = click.option(
    "--trust-log-definitions",
    is_flag=True,
    help="Trust the card definitions and ruleset a log carries when nobody published them: "
    "such a log is then OK (and says it rests on its own definitions) instead of UNVERIFIED.",
)
accept_pool_option = click.option(
    "--accept-pool",
    "accept_pools",
    multiple=True,
    metavar="ID",
    help="A published pool this tournament accepts (repeatable; default: the setting "
    "VWLOG_ACCEPT_POOLS, else every published pool); a log held to another is UNVERIFIED.",
)
accept_ruleset_option = click.option(
    "--accept-ruleset",
    "accept_rulesets",
    multiple=True,
    metavar="ID",
    help="A published ruleset this tournament accepts (repeatable; default: the setting "
    "VWLOG_ACCEPT_RULESETS, else every published ruleset); a log under another is UNVERIFIED.",
)
require_option = click.option(
    "--require",
    "require",
    multiple=True,
    metavar="NAME",
    help="A signer (key name, or key id) whose signature the record must carry (repeatable).",
)
keyring_option = click.option(
    "--keyring",
    type=click.Path(path_type=Path),
    help="Directory of public keys (NAME.pub): every signature is checked, and at least one "
    "must be by a key of the ring.",
)


# -- publishing ------------------------------------------------------------------------------


@main.group()
def pool() -> None:
    """Published card pools: the definitions logs are held to.

    Example:

    \b
        vwlog pool publish errata.json --id spring-cup@1
        vwlog pool list
    """


def _stored_unless_builtin(
    cli: CliContext, item: P, builtin: bool, store_item: Callable[[MatchStore, P], bool]
) -> str:
    """Store a checked pool or ruleset (``store_item``) unless it is built in, opening the store
    only then; ``published``, or ``already published`` where there was nothing to store."""
    from vwlog.cli.matches import open_store

    stored = False
    if not builtin:
        with open_store(cli) as store:
            stored = store_item(store, item)
    return _("published") if stored else _("already published")


@pool.command("publish")
@click.argument("file", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option("--id", "pool_id", required=True, metavar="ID", help="Stable id, e.g. spring-cup@1.")
@pass_cli_context
def pool_publish(cli: CliContext, file: Path, pool_id: str) -> None:
    """Publish a card pool file (a tournament's errata) into the store.

    An id is published once: publishing other content under it is refused
    (exit 2) and nothing stored changes.

    Example:

    \b
        vwlog pool publish errata.json --id spring-cup@1
        vwlog validate --pool spring-cup@1 match.jsonl
    """
    item, builtin = publishing.pool_to_publish(file, pool_id)  # a bad file opens no store
    state = _stored_unless_builtin(cli, item, builtin, publishing.store_pool)
    echo(
        _("pool {pool} {state} · {cards} cards · sha256 {hash}").format(
            pool=term(item.id), state=state, cards=len(item.pool.cards), hash=item.hash
        )
    )


@pool.command("list")
@options.output_format(["text", "json"], "Text or JSON.")
@pass_cli_context
def pool_list(cli: CliContext, output_format: str) -> None:
    """List the published pools (built in and in the store).

    Example:

    \b
        vwlog pool list
    """
    registry = registry_for(cli)
    rows: list[dict[str, Any]] = [
        {"id": p.id, "hash": p.hash, "cards": len(p.pool.cards), "builtin": p.builtin}
        for p in registry.pools.values()
    ]
    if output_format == "json":
        click.echo(to_json(rows))
        return
    for row in rows:
        cards = _("{cards} cards").format(cards=f"{row['cards']:4}")
        echo(f"{term(row['id']):30} {row['hash'][:16]}  {cards}")


@main.group("ruleset")
def ruleset_group() -> None:
    """Published rulesets: the flags logs are held to.

    Example:

    \b
        vwlog ruleset publish spring-cup.json
        vwlog ruleset list
    """


@ruleset_group.command("publish")
@click.argument("file", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@pass_cli_context
def ruleset_publish(cli: CliContext, file: Path) -> None:
    """Publish a ruleset file into the store under its id@version.

    Example:

    \b
        vwlog ruleset publish spring-cup.json
        vwlog validate --ruleset spring-cup@1 match.jsonl
    """
    item, builtin = publishing.ruleset_to_publish(file)  # a bad file opens no store
    state = _stored_unless_builtin(cli, item, builtin, publishing.store_ruleset)
    echo(
        _("ruleset {ruleset} {state} · sha256 {hash}").format(
            ruleset=term(item.id), state=state, hash=item.hash
        )
    )


@ruleset_group.command("list")
@pass_cli_context
def ruleset_list(cli: CliContext) -> None:
    """List the published rulesets (built in and in the store).

    Example:

    \b
        vwlog ruleset list
    """
    for item in registry_for(cli).rulesets.values():
        echo(f"{term(item.id):30} {item.hash[:16]}")


# -- keys and signing ------------------------------------------------------------------------


@main.group()
def keys() -> None:
    """Ed25519 keys for signing sealed records.

    Example:

    \b
        vwlog keys create alice --dir keys
        vwlog keys list --dir keys
    """


keys_dir_option = click.option(
    "--dir",
    "directory",
    type=click.Path(file_okay=False, path_type=Path),
    default=Path("keys"),
    show_default=True,
    help="Key directory (NAME.key private, NAME.pub public).",
)


@keys.command("create")
@click.argument("name")
@keys_dir_option
def keys_create(name: str, directory: Path) -> None:
    """Create a key pair NAME.key (private, mode 0600) and NAME.pub.

    Give NAME.pub to whoever verifies (their keyring directory); keep NAME.key.

    Example:

    \b
        vwlog keys create alice --dir keys
    """
    try:
        key = io_trust.create_key(directory, name)
    except OSError as err:
        raise UsageError(
            msg(
                "{directory}: cannot write key: {strerror}",
                directory=directory,
                strerror=err.strerror,
            )
        ) from err
    echo(
        _("created {private} and .pub · key id {key_id}").format(
            private=term(directory / (name + ".key")), key_id=key.key_id
        )
    )


@keys.command("list")
@keys_dir_option
def keys_list(directory: Path) -> None:
    """List the public keys of a directory (a keyring).

    Example:

    \b
        vwlog keys list --dir keys
    """
    for key in io_trust.load_keyring(directory).values():
        echo(f"{term(key.name):20} {key.key_id}  {key.hex}")


@main.command()
@click.argument("log", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option(
    "--key",
    "key_path",
    required=True,
    type=click.Path(path_type=Path),
    help="Private key file (NAME.key).",
)
@click.option("-o", "--out", type=click.Path(dir_okay=False, path_type=Path), help="Write here.")
def sign(log: Path, key_path: Path, out: Path | None) -> None:
    """Sign a sealed log: append a signature over its seal.

    The log must be sealed and its chain intact. The file is rewritten
    whole (or written to --out); a log that cannot be signed is left as it
    was (exit 2). The signatures the seal still requires (vwlog seal
    --require) are named after the new one.

    Example:

    \b
        vwlog sign match.jsonl --key keys/alice.key
        vwlog verify --keyring keys match.jsonl
    """
    require_regular_file(log, "signing reads the log twice")
    check = services_trust.sign_log(log, key_path, out)
    echo(
        _("{log}: signed by {signer} (key {key_id}) at seq {seq}").format(
            log=term(out or log), signer=term(check.signer), key_id=check.key_id, seq=check.seq
        )
    )
    # the signatures the seal still requires (vwlog seal --require), each named
    for awaited in services_trust.check_integrity(out or log).integrity.awaiting:
        echo("    " + term(say(awaited)))


@main.command()
@click.argument("log", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@require_option
@click.option(
    "--key",
    "key_path",
    type=click.Path(path_type=Path),
    help="Seal as an organiser or judge who checked the record: your private key (NAME.key). "
    "The seal names you and your signature follows it.",
)
@click.option(
    "--role",
    "role",
    type=click.Choice(["organiser", "judge"]),
    default="organiser",
    show_default=True,
    help="In what capacity you seal it (with --key).",
)
@click.option("-o", "--out", type=click.Path(dir_okay=False, path_type=Path), help="Write here.")
@pass_cli_context
@click.pass_context
def seal(
    ctx: click.Context,
    cli: CliContext,
    log: Path,
    require: tuple[str, ...],
    key_path: Path | None,
    role: str,
    out: Path | None,
) -> None:
    """Chain and seal a log, naming the signatures it requires.

    The log's records are chained, match_started names the published pool
    and the ruleset, and a seal closes the record; a seal and signatures
    the log carried are dropped (they were over other bytes). With
    --require NAME (repeatable: the players, the recording device), the
    seal names each signer whose signature the record must carry: verify
    and validate then find the record UNTRUSTED until every one has
    signed, naming who is missing. The file is rewritten whole (or written
    to --out).

    A record that did not come from vwlog carries no hashes: nothing
    vouches for it (UNTRUSTED), and sealed on import it stays INCOMPLETE.
    With --key, an organiser or judge (--role) seals it after vwlog has
    checked it against the rules (a record that breaks one is not sealed,
    exit 1): the seal names them and requires their signature, which is
    appended. Every verdict on the record then says who sealed it
    ("sealed after N records by organiser NAME"; with --keyring, the name
    the keyring gives the key).

    Exit status: 0 sealed, 1 not sealed (with --key: the record breaks a
    rule), 2 the log or key cannot be read.

    Example:

    \b
        vwlog seal match.jsonl --require bob -o sealed.jsonl
        vwlog sign sealed.jsonl --key keys/bob.key
        vwlog verify --keyring keys sealed.jsonl
        vwlog seal match.jsonl --key keys/bob.key --role judge -o judged.jsonl
    """
    require_regular_file(log, "sealing reads the log twice")
    if key_path is not None:
        _check_before_sealing(ctx, log)
    record = seal_log(
        log,
        out,
        signers=require,
        registry=registry_for(cli),
        sealer=(key_path, role) if key_path is not None else None,
    )
    if key_path is not None:
        echo(
            _("{log}: sealed at seq {seq} by {role} {signer}, who signed it").format(
                log=term(out or log),
                seq=record.seq,
                role=_("judge") if role == "judge" else _("organiser"),
                signer=term(io_trust.load_private_key(key_path)[1]),
            )
        )
        return
    echo(
        _("{log}: sealed at seq {seq}; signatures required: {signers}").format(
            log=term(out or log),
            seq=record.seq,
            signers=term(", ".join(require)) if require else _("none"),
        )
    )


def _check_before_sealing(ctx: click.Context, log: Path) -> None:
    """Refuse to vouch for a record that breaks a rule: its verdict and reason, exit 1."""
    from vwlog.services.validate import validate_log

    report = validate_log(log)
    if not report.violations:
        return
    judged = report.judgement
    reason = say(judged.reason) if judged is not None else ""
    echo(
        _("{log}: not sealed: {reason}").format(log=term(log), reason=term(reason)),
        err=True,
    )
    ctx.exit(1)


__all__ = [
    "keys",
    "keys_create",
    "keys_list",
    "pool",
    "pool_list",
    "pool_publish",
    "registry_for",
    "ruleset_group",
    "ruleset_list",
    "ruleset_publish",
    "seal",
    "sign",
    "trust_options",
]
