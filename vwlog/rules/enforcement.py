"""Where the engine enforces each rule, read from its own sources: the functions that cite the
rule's id, the events they judge when they do, and the ruleset flags they read.

Nothing here is kept by hand, so it cannot drift from the code: the engine's modules are parsed
(`ast`, never imported for this) and every string that is exactly a rule id is a *site*:

* its **place** is the module and the function (or the module-level table) it stands in;
* its **events** are the event classes the conditions around it test (``isinstance(event,
  HandLimitDiscarded)``, ``type(event) is X``), the event a table maps to it
  (``"turn_started": "R-END-5"``), the consequences built in the same statement, else the event
  types of the function's parameters (``event: HandLimitDiscarded``);
* its **flags** are the `Ruleset` fields its function reads (``ruleset.hand_limit``), the flag
  its violation names (``flag="preparation_window"``), and, for the rule as a whole, the flags
  whose documentation names the rule or whose open question the rule's text names.

Where the sources are not installed (a wheel of compiled modules only) the index is empty and
`enforcement` says nothing of where a rule is checked.
"""

from __future__ import annotations

import ast
import itertools
import re
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from vwlog.model.ruleids import OPEN_QUESTION_PATTERN, RULE_ID
from vwlog.rules.catalog import RULES

__all__ = ["Enforcement", "Site", "enforcement", "flag_rules", "rule_flags", "sites"]

_ROOT = Path(__file__).resolve().parent.parent
_SCANNED = ("rules", "engine", "services", "model")
"""The packages whose modules enforce rules (the catalog itself only lists them)."""
_SKIPPED = frozenset(("catalog.py", "catalog_data.py", "enforcement.py"))
_RULE_ID = re.compile(RULE_ID)
_CITED = re.compile(rf"[\"']{RULE_ID}[\"']")
_OPEN_QUESTION = OPEN_QUESTION_PATTERN
_RULESET_NAMES = frozenset(("ruleset", "rs", "rules"))
_IDENTITY = frozenset(("id", "version"))


@dataclass(frozen=True, slots=True)
class Site:
    """One place in the engine that cites a rule."""

    module: str
    """The dotted module name (``vwlog.rules.checks.decision``)."""
    function: str
    """The function (``check_discard``), or the module-level table, the id stands in."""
    line: int
    events: tuple[str, ...]
    """The event types (wire names) judged there, as far as the code says."""
    flags: tuple[str, ...]
    """The ruleset flags read there."""

    @property
    def place(self) -> str:
        """``vwlog.rules.checks.decision.check_discard``."""
        return f"{self.module}.{self.function}" if self.function else self.module


@dataclass(frozen=True, slots=True)
class Enforcement:
    """Where and how one rule is enforced."""

    rule: str
    sites: tuple[Site, ...]
    flags: tuple[str, ...]
    """Every ruleset flag the rule's verdicts depend on (sites, flag documentation, the
    rule's open questions), in `Ruleset` field order."""

    @property
    def events(self) -> tuple[str, ...]:
        """The event types its sites judge, in order of first mention."""
        return tuple(dict.fromkeys(e for s in self.sites for e in s.events))

    @property
    def places(self) -> tuple[str, ...]:
        """Its sites' places, each once."""
        return tuple(dict.fromkeys(s.place for s in self.sites))


@cache
def _event_tags() -> dict[str, str]:
    from vwlog.events import EVENT_TYPES

    return {cls.__name__: tag for tag, cls in EVENT_TYPES.items()}


@cache
def _flag_names() -> tuple[str, ...]:
    from vwlog.model.cards import Ruleset

    return tuple(name for name in Ruleset.model_fields if name not in _IDENTITY)


def _modules() -> list[tuple[str, Path]]:
    found = []
    for package in _SCANNED:
        for path in sorted((_ROOT / package).rglob("*.py")):
            if path.name in _SKIPPED:
                continue
            parts = path.relative_to(_ROOT.parent).with_suffix("").parts
            name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
            found.append((name, path))
    return found


def _parents(tree: ast.AST) -> dict[ast.AST, ast.AST]:
    return {child: node for node in ast.walk(tree) for child in ast.iter_child_nodes(node)}


def _ruleset_read(node: ast.AST, flags: frozenset[str]) -> str | None:
    """The flag an expression reads, if it is ``ruleset.FLAG`` (or ``self.ruleset.FLAG``)."""
    if not (isinstance(node, ast.Attribute) and node.attr in flags):
        return None
    owner = node.value
    name = owner.id if isinstance(owner, ast.Name) else getattr(owner, "attr", "")
    return node.attr if name in _RULESET_NAMES else None


def _events_named(node: ast.AST) -> list[str]:
    """The event types a piece of code names: ``HandLimitDiscarded``, or ``ev.HandLimitDiscarded``
    where the module imports the events as a module."""
    tags = _event_tags()
    named = []
    for n in ast.walk(node):
        if isinstance(n, ast.Name) and n.id in tags:
            named.append(tags[n.id])
        elif isinstance(n, ast.Attribute) and n.attr in tags and isinstance(n.value, ast.Name):
            named.append(tags[n.attr])
    return named


def _in_branch(parent: ast.AST, child: ast.AST) -> bool:
    """Whether ``child`` lies in the branch of an ``if`` that its test holds for."""
    if isinstance(parent, ast.If | ast.IfExp):
        body = parent.body if isinstance(parent.body, list) else [parent.body]
        return child in body
    return False


class _Scan:
    """The sites of one module."""

    def __init__(self, module: str, tree: ast.Module) -> None:
        self.module = module
        self.parent = _parents(tree)
        self.flags = frozenset(_flag_names())

    def owner(self, node: ast.AST) -> ast.AST | None:
        """The outermost function, or the module-level statement, ``node`` stands in."""
        found: ast.AST | None = None
        while node in self.parent:
            node = self.parent[node]
            function = isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)
            top = isinstance(self.parent.get(node), ast.Module) and found is None
            if function or top:
                found = node
        return found

    def reads(self, nodes: list[ast.AST]) -> list[str]:
        """The flags the expressions and statements ``nodes`` read."""
        seen = (_ruleset_read(n, self.flags) for node in nodes for n in ast.walk(node))
        return [f for f in seen if f]

    def site(self, const: ast.Constant) -> Site:
        owner = self.owner(const)
        events: list[str] = []
        named_flag: list[str] = []
        node: ast.AST = const
        parent = self.parent.get(node)
        if isinstance(parent, ast.Dict) and node in parent.values:
            key = parent.keys[parent.values.index(node)]
            if isinstance(key, ast.Constant) and key.value in _event_tags().values():
                events.append(str(key.value))
            elif key is not None:
                events += _events_named(key)
        if isinstance(parent, ast.Call):
            named_flag += [
                str(k.value.value)
                for k in parent.keywords
                if k.arg == "flag" and isinstance(k.value, ast.Constant)
            ]
        read: list[ast.AST] = []
        statement = True  # the innermost statement: the consequences it builds
        while parent is not None:
            if _in_branch(parent, node):
                events += _events_named(parent.test)  # type: ignore[attr-defined]
                read.append(parent.test)  # type: ignore[attr-defined]
            elif statement and isinstance(parent, ast.stmt) and not isinstance(parent, ast.If):
                events += _events_named(parent)
                read.append(parent)
            if isinstance(node, ast.stmt):
                read += _before(parent, node)
            statement = statement and not isinstance(parent, ast.stmt)
            if parent is owner:
                break
            node, parent = parent, self.parent.get(parent)
        if not events and isinstance(owner, ast.FunctionDef | ast.AsyncFunctionDef):
            for arg in owner.args.args:
                if arg.annotation is not None:
                    events += _events_named(arg.annotation)
        return Site(
            module=self.module,
            function=_name_of(owner),
            line=const.lineno,
            events=tuple(dict.fromkeys(events)),
            flags=tuple(dict.fromkeys([*named_flag, *self.reads(read)])),
        )


def _before(block_owner: ast.AST, statement: ast.stmt) -> list[ast.AST]:
    """The simple statements (assignments, calls) before ``statement`` in its block: what
    they compute is what the conditions on the way to a site test."""
    for name in ("body", "orelse", "finalbody"):
        block = getattr(block_owner, name, None)
        if isinstance(block, list) and statement in block:
            earlier = block[: block.index(statement)]
            simple = (ast.Assign, ast.AnnAssign, ast.AugAssign, ast.Expr)
            return [s for s in earlier if isinstance(s, simple)]
    return []


def _name_of(owner: ast.AST | None) -> str:
    if isinstance(owner, ast.FunctionDef | ast.AsyncFunctionDef):
        return owner.name
    targets: list[ast.expr] = []
    if isinstance(owner, ast.Assign):
        targets = owner.targets
    elif isinstance(owner, ast.AnnAssign):
        targets = [owner.target]
    return next((t.id for t in targets if isinstance(t, ast.Name)), "")


@cache
def sites() -> dict[str, tuple[Site, ...]]:
    """Every rule id the engine's sources cite, with the sites that cite it (empty where the
    sources are not installed)."""
    out: dict[str, list[Site]] = {}
    for module, path in _modules():
        try:
            source = path.read_text("utf-8")
            if not _CITED.search(source):
                continue
            tree = ast.parse(source)
        except (OSError, SyntaxError, UnicodeDecodeError):
            continue
        scan = _Scan(module, tree)
        for node in ast.walk(tree):
            if (
                isinstance(node, ast.Constant)
                and isinstance(node.value, str)
                and _RULE_ID.fullmatch(node.value)
                and node.value in RULES
                and not _is_docstring(scan.parent.get(node))
            ):
                out.setdefault(node.value, []).append(scan.site(node))
    return {rule: tuple(found) for rule, found in out.items()}


def _is_docstring(parent: ast.AST | None) -> bool:
    return isinstance(parent, ast.Expr)


@cache
def flag_rules() -> dict[str, tuple[str, ...]]:
    """The rule ids each flag's documentation in `Ruleset` names (``hand_limit``: R-END-3)."""
    path = _ROOT / "model" / "cards.py"
    try:
        tree = ast.parse(path.read_text("utf-8"))
    except (OSError, SyntaxError):
        return {}
    ruleset = next(
        (n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == "Ruleset"), None
    )
    out: dict[str, tuple[str, ...]] = {}
    body = ruleset.body if ruleset is not None else []
    for field, doc in itertools.pairwise(body):
        if (
            isinstance(field, ast.AnnAssign)
            and isinstance(field.target, ast.Name)
            and isinstance(doc, ast.Expr)
            and isinstance(doc.value, ast.Constant)
            and isinstance(doc.value.value, str)
        ):
            out[field.target.id] = tuple(_RULE_ID.findall(doc.value.value))
    return out


def rule_flags(rule_id: str) -> tuple[str, ...]:
    """Every ruleset flag a rule's verdicts depend on, in `Ruleset` field order."""
    return enforcement(rule_id).flags


def enforcement(rule_id: str) -> Enforcement:
    """Where the engine enforces ``rule_id`` (no sites for a rule nothing cites)."""
    from vwlog.model.cards import OPEN_QUESTION_FLAGS, SECOND_FLAGS

    found = sites().get(rule_id, ())
    wanted = {f for s in found for f in s.flags}
    wanted |= {f for f, rules in flag_rules().items() if rule_id in rules}
    rule = RULES.get(rule_id)  # type: ignore[call-overload]
    if rule is not None:
        for question in _OPEN_QUESTION.findall(rule.text):
            if question in OPEN_QUESTION_FLAGS:
                wanted.add(OPEN_QUESTION_FLAGS[question])
            wanted |= {f for f, q in SECOND_FLAGS.items() if q == question}
    flags = tuple(f for f in _flag_names() if f in wanted)
    return Enforcement(rule=rule_id, sites=found, flags=flags)
