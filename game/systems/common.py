"""What every assistant system shares: the common state fields, the decision context that rolls and
emits, the events and commands of the shared pieces (phase tracker, dice roller, printed-table
entries, game end), and the line tokenizer their notations use."""

from __future__ import annotations

import tomllib
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from functools import cache
from importlib import resources
from typing import Any, Generic, Protocol, TypeVar

from game.codec import TaggedRegistry
from game.dice import DiceSource
from game.errors import GameOver, IllegalAction, NotYourShip, ParseError, UnknownName
from game.model import evolve
from game.notation import fold, resolve
from game.systems import orders as od
from game.systems.dice import DiceRolled, DiceSpec, Opposed, parse_spec, roll, roll_coloured
from game.systems.table_entry import check_entries
from game.systems.tables import PrintedEntry, TableSet
from game.tokens import Tokens, quote, read_words

# ---------------------------------------------------------------- state


class CommonState(Protocol):
    """The fields every assistant system's state carries (the shared pieces work on these)."""

    @property
    def players(self) -> tuple[str, ...]: ...
    @property
    def referee(self) -> str: ...
    @property
    def turn(self) -> int: ...
    @property
    def phase(self) -> str: ...
    @property
    def orders(self) -> od.OrderBook: ...
    @property
    def printed(self) -> tuple[PrintedEntry, ...]: ...
    @property
    def result(self) -> str: ...
    @property
    def log_position(self) -> int: ...


S = TypeVar("S", bound=CommonState)


def sees_all(state: CommonState, viewer: str | None) -> bool:
    """A referee who is not also a player sees every secret (loads, sealed orders)."""
    return viewer is not None and viewer == state.referee and viewer not in state.players


# ---------------------------------------------------------------- shared events


@dataclass(frozen=True)
class PhaseEntered:
    turn: int
    phase: str  # the key the state keeps ("D")
    name: str = ""  # what players read ("D. Movement notation Phase")


@dataclass(frozen=True)
class PhaseSkipped:
    """A phase the sequence passed through because, by the state alone, no seat had anything to give in it
    (its `skip_when` in the system's sequence.toml). The state moves through it as through PhaseEntered."""

    turn: int
    phase: str
    name: str
    reason: str


@dataclass(frozen=True)
class PrintedEntered:
    entry: PrintedEntry


@dataclass(frozen=True)
class TableEntered:
    """A printed table entered whole (game/systems/table_entry.py): the cells it keeps, one event."""

    table: str
    title: str
    entries: tuple[PrintedEntry, ...]


@dataclass(frozen=True)
class Prompt:
    """A line for the players that changes nothing: what to do on the table, what to read."""

    text: str


@dataclass(frozen=True)
class GameEnded:
    result: str


@dataclass(frozen=True)
class OpposedRolled:
    """A Challenge against a Response, after both rolls (their faces are in the DiceRolled before)."""

    purpose: str
    challenge: int
    response: int
    success: bool
    flags: str


@dataclass(frozen=True)
class StateRestored(Generic[S]):
    """Commands taken back: the state as it stood before them (game/service/undo.py). Each system
    names its own, with its state's type, so the codec reads the state back; `apply` returns the
    state exactly (its log position included: the dice stream goes on from there)."""

    state: S
    reason: str = ""
    by: str = ""
    undid: int = 0  # the command taken back: a later undo takes back the one before it


class Assistant:
    """What the referee-assistant systems offer the service alike (game/systems/base.py): no
    capability beyond the interface, a game over once it has a result, and an undo refused for what
    every player has seen or what a sealed order must keep."""

    capabilities: frozenset[str] = frozenset()
    events: TaggedRegistry

    def over(self, state: CommonState) -> bool:
        return bool(state.result)

    def restored(self, state: CommonState, reason: str, by: str, undid: int = 0) -> Any:
        return self.events.types["StateRestored"](state, reason, by, undid)

    def undo_refused(self, taken: Sequence[Any], state: CommonState) -> str | None:
        """An order sealed once the reveal began stands: taking it back would let its owner seal it
        again knowing what the reveal showed."""
        if any(isinstance(e, DiceRolled) for e in taken):
            return "its dice have been rolled and seen"
        if any(isinstance(e, od.OrdersRevealed) for e in taken):
            return "it revealed orders"
        if state.orders.revealing and any(isinstance(e, od.OrderSubmitted) for e in taken):
            return "it sealed an order after the reveal began, and a sealed order stands"
        return ""


SHARED_EVENTS: tuple[type, ...] = (DiceRolled, PhaseEntered, PhaseSkipped, PrintedEntered, TableEntered, Prompt,
                                   GameEnded, OpposedRolled, *od.ORDER_EVENTS)


def registry(*types: type) -> TaggedRegistry:
    reg = TaggedRegistry()
    for t in (*SHARED_EVENTS, *types):
        reg.register(t)
    return reg


def apply_common(state: S, event: Any) -> S | None:
    """The shared events folded into a state; None if the event is not a shared one."""
    if isinstance(event, PhaseEntered | PhaseSkipped):
        return evolve(state, turn=event.turn, phase=event.phase)
    if isinstance(event, od.ORDER_EVENTS):
        return evolve(state, orders=od.apply_orders(state.orders, event))
    if isinstance(event, PrintedEntered):
        kept = tuple(
            p for p in state.printed if (p.table, p.row, p.column) != (event.entry.table, event.entry.row, event.entry.column)
        )
        return evolve(state, printed=(*kept, event.entry))
    if isinstance(event, TableEntered):
        cells = {(e.table, e.row, e.column) for e in event.entries}
        return evolve(state, printed=(*(p for p in state.printed if (p.table, p.row, p.column) not in cells),
                                      *event.entries))
    if isinstance(event, GameEnded):
        return evolve(state, result=event.result)
    if isinstance(event, DiceRolled | Prompt | OpposedRolled):
        return state
    return None


# ---------------------------------------------------------------- shared commands


@dataclass(frozen=True)
class RollDice:
    """`roll SPEC [vs SPEC|N] [drm ±N] [rdrm ±N] [for TEXT…]`: any roll the table needs."""

    spec: str
    against: str = ""  # a Response: dice, or a fixed number
    drm: int = 0
    rdrm: int = 0
    purpose: str = ""
    player: str = ""


@dataclass(frozen=True)
class EnterPrinted:
    """`printed TABLE ROW [COLUMN] = VALUE`: the referee enters an unverified cell from the printed copy."""

    table: str
    row: str
    column: str
    value: str
    player: str = ""


@dataclass(frozen=True)
class EnterTable:
    """A printed table entered whole by the game's referee (read from a file by game/systems/table_entry.py)."""

    table: str
    entries: tuple[PrintedEntry, ...]
    player: str = ""


@dataclass(frozen=True)
class NextPhase:
    """`next [PHASE]`: leave the phase; with PHASE, stop there even if it has nothing to do."""

    player: str = ""
    to: str = ""  # the phase to stop in, as the referee wrote it (the system resolves it)


@dataclass(frozen=True)
class EndGame:
    reason: str
    player: str = ""


SHARED_COMMANDS: tuple[type, ...] = (RollDice, EnterPrinted, EnterTable, NextPhase, EndGame)


# ---------------------------------------------------------------- the decision context


class Step(Generic[S]):
    """One decision: the state as its events accumulate, and the dice."""

    def __init__(self, state: S, dice: DiceSource, apply: Callable[[S, Any], S]) -> None:
        self.state = state
        self.dice = dice
        self._apply = apply
        self.events: list[Any] = []

    def emit(self, event: Any) -> None:
        self.events.append(event)
        self.state = self._apply(self.state, event)

    def prompt(self, text: str) -> None:
        self.emit(Prompt(text))

    def roll(self, spec: DiceSpec | str, purpose: str, modifier: int = 0, by: str = "") -> DiceRolled:
        s = parse_spec(spec) if isinstance(spec, str) else spec
        if modifier:
            s = s.with_modifier(s.modifier + modifier)
        r = roll(self.dice, s, purpose, by)
        self.emit(r)
        return r

    def roll_coloured(self, groups: tuple[tuple[str, int, int], ...], purpose: str, by: str = "") -> DiceRolled:
        r = roll_coloured(self.dice, groups, purpose, by)
        self.emit(r)
        return r

    def opposed(
        self,
        purpose: str,
        challenge: DiceSpec | str,
        response: DiceSpec | str | int,
        c_drm: int = 0,
        r_drm: int = 0,
        challenger: str = "",
        responder: str = "",
    ) -> Opposed:
        c = self.roll(challenge, f"{purpose}: challenge", c_drm, challenger).total
        if isinstance(response, int):
            r = response + r_drm
        else:
            r = self.roll(response, f"{purpose}: response", r_drm, responder).total
        out = Opposed(c, r)
        self.emit(OpposedRolled(purpose, c, r, out.success, out.flags()))
        return out


def decide_shared(step: Step[S], command: Any, tables: TableSet) -> bool:
    """The shared commands every system accepts. False if the command is not one of them."""
    state = step.state
    if isinstance(command, RollDice):
        who = command.player
        purpose = command.purpose or "roll"
        if command.against:
            against: DiceSpec | int = _fixed_or_spec(command.against)
            step.opposed(purpose, command.spec, against, command.drm, command.rdrm, who)
        else:
            step.roll(command.spec, purpose, command.drm, who)
        return True
    if isinstance(command, EnterPrinted):
        require_referee(state, command.player)
        table = tables.find(command.table)
        row, column = table.keys_of(command.row, command.column or None)
        if not table.enterable(row, column):
            raise IllegalAction(
                f"{table.title}, row {row}, column {column} is verified already.",
                "Only cells garbled in the play aid's text, or answered as printed with a note, are entered from the "
                "printed copy.",
            )
        value = command.value.strip()
        if not value:
            raise ParseError("printed needs a value after `=`.")
        step.emit(PrintedEntered(PrintedEntry(table.name, row, column, table.checked_value(row, column, value))))
        return True
    if isinstance(command, EnterTable):
        require_referee(state, command.player)
        table = tables.find(command.table)
        check_entries(table, command.entries)
        entries = tuple(replace(e, by="") for e in command.entries)  # the game's referee's, whoever wrote the file
        step.emit(TableEntered(table.name, table.title, entries))
        return True
    if isinstance(command, EndGame):
        require_referee(state, command.player)
        step.emit(GameEnded(command.reason or "the referee ends the game"))
        return True
    return False


def open_step(
    state: S, command: Any, dice: DiceSource, apply: Callable[[S, Any], S], tables: TableSet
) -> tuple[Step[S], bool]:
    """The start of every system's decide: the game must be running; the shared commands are
    decided here (True: done, the events are in the step)."""
    require_running(state)
    step = Step(state, dice, apply)
    return step, decide_shared(step, command, tables)


def check_names(known: Iterable[str], command: Any, fields: tuple[str, ...] = ("ship", "other", "target")) -> None:
    """A command built without the parser (JSON, a bot) may still name no such ship."""
    ids = set(known)
    names = [getattr(command, f) for f in fields if isinstance(getattr(command, f, None), str)]
    names += list(getattr(command, "targets", ()))
    for name in names:
        if name not in ids:
            raise UnknownName(f"There is no ship called {name!r}.", f"Ships: {', '.join(sorted(ids))}.")


def _fixed_or_spec(text: str) -> DiceSpec | int:
    t = text.strip()
    try:
        return int(t)
    except ValueError:
        return parse_spec(t)


def require_running(state: CommonState) -> None:
    if state.result:
        raise GameOver(f"The game is over: {state.result}.", "Start a new game to play again.")


def require_referee(state: CommonState, player: str) -> None:
    if player and player != state.referee:
        raise NotYourShip(f"Only the referee ({state.referee}) does that.", "Ask the referee.")


def require_owner(owner: str, player: str, what: str) -> None:
    if player and player != owner:
        raise NotYourShip(f"{what} belongs to {owner}.", "Each player gives orders only for their own ships.")


# ---------------------------------------------------------------- the sequence of play


@dataclass(frozen=True)
class PhaseSpec:
    key: str
    name: str
    prompt: str
    skip_when: str = ""  # a predicate the system names: the phase is skipped when it gives a reason
    pass_when: str = ""  # the same, asked once the phase's own work (its rolls) is done on entering it


Predicate = Callable[[Any], str]  # the state -> why the phase has nothing to do ("": it has something)


@cache
def sequence(system: str) -> tuple[PhaseSpec, ...]:
    """The system's sequence of play, from its `sequence.toml`."""
    text = resources.files("game.data").joinpath(system).joinpath("sequence.toml").read_text(encoding="utf-8")
    doc = tomllib.loads(text)
    return tuple(PhaseSpec(p["key"], p["name"], p["prompt"], p.get("skip_when", ""), p.get("pass_when", ""))
                 for p in doc["phase"])


def phase_spec(system: str, key: str) -> PhaseSpec:
    return next(p for p in sequence(system) if p.key == key)


def nothing_to_do(system: str, key: str, state: Any, predicates: Mapping[str, Predicate], after_entry: bool = False) -> str:
    """Why phase `key` has nothing to do, by its `skip_when` (before it is entered) or `pass_when` (after its
    own work) in sequence.toml, each the name of one of the system's predicates; "" when it has something."""
    spec = phase_spec(system, key)
    name = spec.pass_when if after_entry else spec.skip_when
    return predicates[name](state) if name else ""


def phase_named(system: str, word: str) -> str:
    """The key of the phase a referee names in `next PHASE`: its key or the start of its name, any case."""
    phases = sequence(system)
    f = fold(word)
    for p in phases:
        if fold(p.key) == f:
            return p.key
    found = [p.key for p in phases if fold(p.name).startswith(f)]
    if len(found) == 1:
        return found[0]
    raise UnknownName(f"There is no phase {word!r}." if not found else f"{word!r} names more than one phase.",
                      f"Phases: {', '.join(p.key + ' (' + p.name + ')' for p in phases)}.")


def require_next_is(system: str, to: str, key: str) -> None:
    """`next PHASE` in a system whose sequence skips nothing: PHASE must be the phase `next` enters."""
    if to and phase_named(system, to) != key:
        raise IllegalAction(f"`next` goes to {phase_spec(system, key).name}: this system walks its phases one at a time.",
                            "`next` alone, or `next` with the phase that follows.")


def next_phase_key(system: str, key: str) -> tuple[str, bool]:
    """The phase after `key`, and whether a new turn begins with it."""
    keys = [p.key for p in sequence(system)]
    i = keys.index(key) if key in keys else -1
    if i + 1 < len(keys):
        return keys[i + 1], False
    return keys[0], True


# ---------------------------------------------------------------- notation


class Line(Tokens):
    """A command line's words, read as Oak & Iron's are (game/tokens.py): an optional `NAME:` prefix
    (who gives it), `#` comments, double quotes around a name with spaces."""

    MAX = 500  # a chat message is shorter; a longer line is a paste gone wrong (or an attack)
    HINT = "See the system's notation in docs/systems/."

    def __init__(self, line: str, verbs: tuple[str, ...]) -> None:
        if len(line) > self.MAX:
            raise ParseError(f"The line is {len(line)} characters long.", f"Commands are at most {self.MAX}.")
        self.player, items = read_words(line, verbs)
        super().__init__(line, items)

    def take_int(self, what: str) -> int:
        return as_int(self.take(what), what)

    def name(self, known: Iterable[str] | None, what: str = "ship") -> str:
        """A name, resolved against the known ones (any case, no accents, a unique prefix) when given."""
        word = self.take(f"a {what} name")
        return resolve_name(word, tuple(known), what) if known is not None else word

    def rest(self) -> list[str]:
        out = self.items[self.i :]
        self.i = len(self.items)
        return out

    def options(self, known: tuple[str, ...]) -> dict[str, str]:
        """The remaining words as `key=value` options (or bare flags, value "")."""
        out: dict[str, str] = {}
        for word in self.rest():
            key, _, value = word.partition("=")
            k = key.lower()
            if k not in known:
                raise ParseError(f"Unknown option {key!r} in {self.line!r}.", f"Options: {', '.join(known)}.")
            if k in out:
                raise ParseError(f"{key!r} is given twice in {self.line!r}.")
            out[k] = value
        return out


def as_int(text: str, what: str) -> int:
    try:
        return int(text.replace("−", "-"))
    except ValueError:
        raise ParseError(f"Expected a whole number for {what}, got {text!r}.") from None


def resolve_name(name: str, known: tuple[str, ...], what: str) -> str:
    try:
        return resolve(name, known, what)
    except ParseError as exc:
        raise UnknownName(exc.message, exc.allowed) from None


def parse_shared(t: Line, verb: str) -> Any | None:
    """The shared commands' notation; None if the verb is not one of them."""
    if verb == "roll":
        spec = t.take("dice, e.g. 2d6 or d10d8")
        parse_spec(spec)
        against, drm, rdrm, purpose = "", 0, 0, ""
        while not t.done():
            word = t.take("an option").lower()
            if word == "vs":
                against = t.take("the response dice or number")
                _fixed_or_spec(against)
            elif word in ("drm", "rdrm"):
                n = t.take_int(word)
                drm, rdrm = (n, rdrm) if word == "drm" else (drm, n)
            elif word == "for":
                purpose = " ".join(t.rest())
            else:
                raise ParseError(f"Did not understand {word!r} in {t.line!r}.", "roll SPEC [vs SPEC|N] [drm N] [rdrm N] [for TEXT]")
        return RollDice(spec.lower(), against.lower(), drm, rdrm, purpose, t.player)
    if verb == "printed":
        words = t.rest()
        if "=" not in words:
            raise ParseError("printed needs `= VALUE`.", "printed TABLE ROW [COLUMN] = VALUE")
        at = words.index("=")
        keys, value = words[:at], " ".join(words[at + 1 :])
        if len(keys) not in (2, 3) or not value:
            raise ParseError("printed names a table, a row, maybe a column, then `= VALUE`.")
        return EnterPrinted(keys[0], keys[1], keys[2] if len(keys) == 3 else "", value, t.player)
    if verb == "next":
        to = t.take("a phase") if not t.done() else ""
        t.end()
        return NextPhase(t.player, to)
    if verb == "end":
        return EndGame(" ".join(t.rest()), t.player)
    return None


def read_line(line: str, verbs: tuple[str, ...]) -> tuple[Line, str, Any | None]:
    """A line's words, its verb, and the shared command it is (None if it is the system's own)."""
    t = Line(line, verbs)
    verb = t.take("a verb").lower()
    return t, verb, parse_shared(t, verb)


def format_line(command: Any, own: Callable[[Any], str]) -> str:
    """A command back to its line: the shared commands here, the system's own through `own`."""
    return format_shared(command) or who(command) + own(command)


def who(command: Any) -> str:
    """The `NAME: ` prefix of a formatted line, when the command says who gives it."""
    return f"{command.player}: " if getattr(command, "player", "") else ""


def format_shared(command: Any) -> str | None:
    who_ = who(command)
    if isinstance(command, RollDice):
        words = ["roll", command.spec]
        if command.against:
            words += ["vs", command.against]
        if command.drm:
            words += ["drm", f"{command.drm:+d}"]
        if command.rdrm:
            words += ["rdrm", f"{command.rdrm:+d}"]
        if command.purpose:
            words += ["for", command.purpose]
        return who_ + " ".join(words)
    if isinstance(command, EnterPrinted):
        keys = [command.table, command.row] + ([command.column] if command.column else [])
        return who_ + " ".join(["printed", *(quote(k) for k in keys), "=", command.value])
    if isinstance(command, NextPhase):
        return who_ + ("next " + quote(command.to) if command.to else "next")
    if isinstance(command, EndGame):
        return who_ + ("end " + command.reason if command.reason else "end")
    return None


def account_shared(event: Any) -> str | None:
    if isinstance(event, StateRestored):
        return f"The last command is taken back ({event.reason})." if event.reason else "The last command is taken back."
    if isinstance(event, DiceRolled):
        faces = " ".join(
            f"[{f}{' ' + c if c else ''}]" for f, c in zip(event.faces, event.colours or ("",) * len(event.faces), strict=True)
        )
        mod = f" {event.modifier:+d} = {event.total}" if event.modifier else (
            f" = {event.kept}" if len(event.faces) > 1 and event.keep == "sum" else "")
        kept = f" keep {event.kept}" if event.keep == "highest" else ""
        who = f"{event.by} " if event.by else ""
        return f"{who}rolls {event.notation} for {event.purpose}: {faces}{kept}{mod}"
    if isinstance(event, OpposedRolled):
        verdict = "succeeds" if event.success else "fails"
        flags = f" ({event.flags})" if event.flags else ""
        return f"{event.purpose}: challenge {event.challenge} vs response {event.response} — {verdict}{flags}."
    if isinstance(event, PhaseEntered):
        return f"— Turn {event.turn}: {event.name or event.phase} —"
    if isinstance(event, PhaseSkipped):
        return f"Turn {event.turn}: {event.name or event.phase} skipped: {event.reason}."
    if isinstance(event, PrintedEntered):
        e = event.entry
        col = f", {e.column}" if e.column != "value" else ""
        return f"The referee enters from the printed table: {e.table} {e.row}{col} = {e.value or 'blank'}."
    if isinstance(event, TableEntered):
        overrides = sum(e.override for e in event.entries)
        extra = f", {overrides} of them in place of the play aid's text" if overrides else ""
        return (f"The referee enters the printed {event.title}: {len(event.entries)} cell(s){extra}. "
                f"`/rules table: {event.table}` shows them.")
    if isinstance(event, Prompt):
        return event.text
    if isinstance(event, GameEnded):
        return f"Game over: {event.result}."
    if isinstance(event, od.OrdersOpened):
        return f"Secret orders ({event.kind}) are awaited for: {', '.join(s for _, s in event.slots)}."
    if isinstance(event, od.OrderSubmitted):
        return f"{event.owner} seals the {event.slot} order." if event.text is None else f"{event.owner} seals {event.slot}: {event.text}"
    if isinstance(event, od.OrdersRevealed):
        return "Revealed: " + "; ".join(f"{slot}: {text}" for _, slot, text in event.orders) if event.orders else ""
    if isinstance(event, od.OrdersClosed | od.OrdersCleared | od.RevealBegun):
        return ""
    return None


def fold_choice(word: str, choices: tuple[str, ...], what: str) -> str:
    f = fold(word)
    for c in choices:
        if fold(c) == f:
            return c
    raise ParseError(f"Expected {what} ({' | '.join(choices)}), got {word!r}.")
