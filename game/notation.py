"""The table notation: one line <-> one command, both ways (docs/notation.md).

    pick A Careful Aim
    move Kestrel adjust +1 turn end port 30 crew reload port
    seamanship Kestrel heading starboard 20
    advance Kestrel turn start port 15
    crew Kestrel board Otter
    done Kestrel
    reroll 2 4 | fortune | keep
    pass Kestrel
    dice skull sail sword
    A: role attacker | A: draft Fair Wind | A: terrain island
    A: place island-1 12 18 rot 30 | A: finish | A: deploy Kestrel 10 4 heading 0

A line may start with `A:` to say which player gives the order. With a game state, ship and card
names may be written in any case, without accents, as a unique prefix, or with a typo that is
nearer one name than any other (game/fuzzy.py).
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable

from game.commands import (
    Activate,
    AddTerrain,
    Advance,
    Attack,
    ChooseRole,
    Command,
    Concede,
    Crew,
    Decide,
    Decline,
    Deploy,
    Draft,
    EndActivation,
    Enlist,
    FinishStep,
    FixDice,
    KeepRoll,
    Pass,
    PickCard,
    PlaceTerrain,
    Reroll,
    Seamanship,
    Shift,
    Shot,
    Turn,
    UseFortune,
)
from game.errors import ParseError
from game.fuzzy import fold as fold  # re-exported: the systems and scenarios fold names here
from game.fuzzy import nearest
from game.model import Game
from game.tokens import Tokens, quote, read_words

DIRECTIONS = ("ahead", "back", "port", "starboard", "hold")
VERBS = (
    "pick", "move", "seamanship", "advance", "crew", "done", "reroll", "fortune", "keep", "pass", "dice",
    "fire", "partial", "melee", "free", "decline", "freeturn", "capture", "destroy", "spare", "transfer",
    "newflag", "concede", "borrow", "shoal", "event", "role", "draft", "terrain", "place", "finish", "deploy", "enlist",
)
MAX_NUMBER = 1000  # inches and degrees: a table is at most 120 inches a side
SETUP_VERBS = ("role", "draft", "terrain", "place", "finish", "deploy", "enlist")
ATTACK_VERBS = ("fire", "partial", "melee")


def resolve(name: str, known: Iterable[str], what: str) -> str:
    options = list(dict.fromkeys(known))
    f = fold(name)
    exact = [k for k in options if fold(k) == f]
    if exact:
        return exact[0]
    prefix = [k for k in options if fold(k).startswith(f)]
    if len(prefix) == 1:
        return prefix[0]
    if prefix:
        raise ParseError(f"{name!r} could be any of {', '.join(prefix)}.", f"Write more of the {what}'s name.")
    # a typo: only when one name is clearly nearest, never a guess between two close ones
    near = nearest(name, options)
    if len(near) == 1:
        return near[0]
    if near:
        raise ParseError(f"{name!r} is close to both {' and '.join(near[:2]) if len(near) == 2 else ', '.join(near)}.",
                         f"Write the {what}'s name as it is spelled.")
    raise ParseError(f"There is no {what} called {name!r}.", f"Known: {', '.join(options)}.")


class _Tokens(Tokens):
    def __init__(self, line: str, tokens: list[str], state: Game | None) -> None:
        super().__init__(line, tokens)
        self.state = state

    def take_number(self, what: str) -> float:
        """Inches, degrees or a point of the table: finite, and bounded so nothing downstream is handed
        a nan, an infinity or a figure too large to mean anything."""
        tok = self.take(what)
        try:
            value = float(tok.rstrip("°"))
        except ValueError:
            raise ParseError(f"Expected a number for {what}, got {tok!r}.") from None
        if not -MAX_NUMBER <= value <= MAX_NUMBER:  # also false for nan
            raise ParseError(f"Expected a number from -{MAX_NUMBER} to {MAX_NUMBER} for {what}, got {tok!r}.")
        return value

    def ship(self) -> str:
        name = self.take("a ship name")
        if self.state is None:
            return name
        return resolve(name, (s.id for s in self.state.ships), "ship")


def parse(line: str, state: Game | None = None, hands: Collection[str] | None = None) -> Command:
    """A line of table notation as a command, with names resolved against `state`. `hands` are the
    players whose cards the sender may see (None: all of them); another player's card is left as
    written, so a wrong guess teaches nothing about that hand."""
    player, tokens = read_words(line, VERBS)
    t = _Tokens(line, tokens, state)
    verb = t.take("a verb").lower()
    if verb == "pick":
        who = t.take("a player")
        card = " ".join(t.items[t.i :])
        if not card:
            raise ParseError("pick needs a player and a card, e.g. `pick A Careful Aim`.")
        if state is not None:
            who = resolve(who, state.players, "player")
            if hands is None or who in hands:
                q = state.squadron(who)
                card = resolve(card, (c for c in (*q.hand, q.face_up, *q.discards) if c), "card")
        return PickCard(who, card)
    if verb == "move":
        ship = t.ship()
        pos = _point_of_sail(t)
        seam = _seamanship_part(t, ship, player) if t.peek() in ("heading", "adjust", "cutfree") else None
        adv = _advance_part(t, ship, player) if t.peek() in (*DIRECTIONS, "turn", "shift") else None
        crew = None
        if t.peek() == "crew":
            t.take("crew")
            crew = _crew_part(t, ship, player)
        t.end()
        return Activate(ship, seam, adv, crew, pos, player)
    if verb in _STEP_PARTS:
        ship = t.ship()
        pos = _point_of_sail(t)
        step = _STEP_PARTS[verb](t, ship, player, pos)
        t.end()
        return step
    if verb == "done":
        ship = t.ship()
        t.end()
        return EndActivation(ship, player)
    if verb == "pass":
        ship = t.ship()
        t.end()
        return Pass(ship, player)
    if verb == "reroll":
        dice = []
        while not t.done():
            dice.append(t.take_int("a die position"))
        if not dice:
            raise ParseError("reroll needs the positions of the dice to re-roll, e.g. `reroll 1 3`.")
        return Reroll(tuple(dice), player)
    if verb == "fortune":
        t.end()
        return UseFortune(player)
    if verb == "keep":
        t.end()
        return KeepRoll(player)
    if verb == "free":
        verb = t.take_choice("fire or partial", ATTACK_VERBS)
        attack = _attack_part(t, verb, t.ship(), player, free=True)
        t.end()
        return attack
    if verb in ATTACK_VERBS:
        attack = _attack_part(t, verb, t.ship(), player)
        t.end()
        return attack
    if verb == "decline":
        t.end()
        return Decline(player)
    if verb == "freeturn":
        ship = t.ship()
        if t.peek() == "skip":
            t.take("skip")
            t.end()
            return Decide(ship, "skip", player=player)
        side = t.take_choice("a side", ("port", "starboard"))
        deg = t.take_number("degrees")
        t.end()
        return Decide(ship, side, degrees=deg, player=player)
    if verb in ("capture", "destroy", "spare"):
        ship = t.ship()
        t.end()
        return Decide(ship, verb, player=player)
    if verb in ("transfer", "newflag"):
        ship = t.ship()
        target = t.ship()
        cards: list[str] = []
        if t.peek() == "drop":
            t.take("drop")
            cards = [c.strip() for c in " ".join(t.items[t.i :]).split(",") if c.strip()]
            t.i = len(t.items)
        t.end()
        answer = "transfer" if verb == "transfer" else "assign"
        return Decide(ship, answer, target=target, cards=tuple(cards), player=player)
    if verb == "event":
        answer = t.take_choice("keep or discard", ("keep", "discard"))
        t.end()
        return Decide("", answer, player=player)
    if verb == "shoal":
        if t.peek() == "skip":
            t.take("skip")
            t.end()
            return Decide("", "skip", player=player)
        x, y, rotation = _spot(t)
        return Decide("", "place", degrees=rotation, player=player, x=x, y=y)
    if verb == "borrow":
        card = " ".join(t.items[t.i :])
        if not card:
            raise ParseError("borrow needs a card, e.g. `borrow Effective Fire`.")
        return Decide("", "borrow", target=card, player=player)
    if verb == "concede":
        who = t.take("a player")
        t.end()
        if state is not None:
            who = resolve(who, state.players, "player")
        return Concede(who)
    if verb in SETUP_VERBS:
        return _setup_command(t, verb, player)
    if verb == "dice":
        faces = tuple(x.lower() for x in t.items[t.i :])
        if not faces:
            raise ParseError("dice needs at least one face, e.g. `dice skull sail`.")
        return FixDice(faces)
    raise ParseError(f"Unknown command {verb!r}.", f"Commands: {', '.join(VERBS)}.")


def _spot(t: _Tokens) -> tuple[float, float, float]:
    """`X Y [rot DEG]` ending the line: where a terrain piece goes."""
    x, y = t.take_number("x"), t.take_number("y")
    rotation = 0.0
    if t.peek() in ("rot", "rotation"):
        t.take("rot")
        rotation = t.take_number("the rotation")
    t.end()
    return x, y, rotation


def _setup_command(t: _Tokens, verb: str, player: str) -> Command:
    """The chapter-7 set-up orders. The player comes from the `A:` prefix (or the service fills it)."""
    state = t.state
    if verb == "role":
        role = t.take_choice("a role", ("attacker", "defender"))
        t.end()
        return ChooseRole(player, role)
    if verb == "draft":
        card = " ".join(t.items[t.i :])
        if not card:
            raise ParseError("draft needs a card, e.g. `draft Fair Wind`.")
        if state is not None and state.prep is not None and state.prep.offered:
            card = resolve(card, state.prep.offered, "card on offer")
        return Draft(player, card)
    if verb == "terrain":
        kind = t.take("a terrain kind").lower().replace(" ", "_")
        t.end()
        return AddTerrain(player, kind)
    if verb == "place":
        piece = t.take("a terrain piece")
        if state is not None and state.prep is not None:
            known = [p.id for p in state.prep.pool] + [x.id for x in state.table.terrain]
            piece = resolve(piece, known, "terrain piece")
        x, y, rotation = _spot(t)
        return PlaceTerrain(player, piece, x, y, rotation)
    if verb == "finish":
        t.end()
        return FinishStep(player)
    if verb == "deploy":
        ship = t.ship()
        x, y = t.take_number("x"), t.take_number("y")
        heading = 0.0
        if t.peek() == "heading":
            t.take("heading")
        if not t.done():
            heading = t.take_number("the heading")
        t.end()
        return Deploy(player, ship, x, y, heading)
    # `enlist` is the one set-up verb that is no command of the game: it seats a side (docs/notation.md)
    raise ParseError("`enlist` is not an order in the game: a squadron joins a drafted game from a list.",
                     "In Discord: save the list (/squadron save or the builder), then /game join with it; at the "
                     "offline table or in a script: the line `enlist PLAYER FILE`.")


def _attack_part(t: _Tokens, verb: str, ship: str, player: str, free: bool = False) -> Attack:
    kind = {"fire": "broadside", "partial": "partial", "melee": "close"}[verb]
    shots: list[Shot] = []
    helm = ""
    while not t.done() and t.peek() != "crew":
        if t.peek() == "helm":
            t.take("helm")
            helm = t.take_choice("a side", ("port", "starboard"))
            continue
        side = ""
        if kind == "broadside":
            side = t.take_choice("a side", ("port", "starboard"))
        target = t.ship()
        if kind == "close" and t.peek() in ("landing", "boat"):
            side = t.take("landing").lower()
        aim = "hull"
        if t.peek() == "aim":
            t.take("aim")
            aim = t.take_choice("an aim", ("hull", "rigging", "crew"))
        shots.append(Shot(side, target, aim))
    if not shots:
        raise ParseError(f"{verb} needs a target, e.g. `fire Kestrel port Otter`.")
    return Attack(ship, kind, tuple(shots), helm, free, player)


def _point_of_sail(t: _Tokens) -> str:
    if t.peek() == "as":
        t.take("as")
        return t.take_choice("a point of sail", ("large", "windward"))
    return ""


def _seamanship_part(t: _Tokens, ship: str, player: str, pos: str = "") -> Seamanship:
    action = t.take_choice("a Seamanship Action", ("heading", "adjust", "cutfree"))
    if action == "heading":
        side = t.take_choice("a side", ("port", "starboard"))
        return Seamanship(ship, "heading", side=side, degrees=t.take_number("degrees"), point_of_sail=pos, player=player)
    if action == "adjust":
        delta = t.take_choice("+1 or -1", ("+1", "-1", "1", "up", "down"))
        return Seamanship(ship, "adjust", delta=-1 if delta in ("-1", "down") else 1, point_of_sail=pos, player=player)
    return Seamanship(ship, "cutfree", point_of_sail=pos, player=player)


def _advance_part(t: _Tokens, ship: str, player: str, pos: str = "") -> Advance:
    direction = ""
    if t.peek() in DIRECTIONS:
        direction = t.take("a direction").lower()
    turn = None
    shift = None
    while t.peek() in ("turn", "shift"):
        word = t.take("turn").lower()
        when = t.take_choice("start or end", ("start", "end"))
        side = t.take_choice("a side", ("port", "starboard"))
        if word == "turn":
            turn = Turn(when, side, t.take_number("degrees"))
        else:
            shift = Shift(when, side, t.take_number("inches"))
    return Advance(ship, direction, turn, pos, player, shift)


def _crew_part(t: _Tokens, ship: str, player: str, pos: str = "") -> Crew:
    action = t.take_choice(
        "a Crew Action",
        ("reload", "rally", "repair", "sail", "board", "row", "flag", "landing", "boat", *ATTACK_VERBS),
    )
    if action in ATTACK_VERBS:
        return Crew(ship, "attack", attack=_attack_part(t, action, ship, player), point_of_sail=pos, player=player)
    if action == "boat":
        return Crew(ship, "boat", target=t.ship(), point_of_sail=pos, player=player)
    if action == "reload":
        return Crew(ship, "reload", side=t.take_choice("a side", ("port", "starboard")), point_of_sail=pos, player=player)
    if action == "repair":
        if t.peek() == "aground":
            t.take("aground")
            return Crew(ship, "repair_aground", point_of_sail=pos, player=player)
        return Crew(ship, "repair", point_of_sail=pos, player=player)
    if action == "sail":
        way = t.take_choice("up or down", ("up", "down"))
        return Crew(ship, "sail", delta=1 if way == "up" else -1, point_of_sail=pos, player=player)
    if action == "board":
        target = t.ship()
        edge = ""
        if t.peek() == "edge":
            t.take("edge")
            edge = t.take_choice("an edge", ("bow", "stern", "port", "starboard"))
        return Crew(ship, "board", target=target, edge=edge, point_of_sail=pos, player=player)
    if action == "flag":
        return Crew(ship, "flag", target=t.ship(), point_of_sail=pos, player=player)
    if action == "landing":
        x = t.take_number("x")
        return Crew(ship, "landing", x=x, y=t.take_number("y"), point_of_sail=pos, player=player)
    return Crew(ship, action, point_of_sail=pos, player=player)


_STEP_PARTS: dict[str, Callable[[_Tokens, str, str, str], Seamanship | Advance | Crew]] = {
    "seamanship": _seamanship_part,
    "advance": _advance_part,
    "crew": _crew_part,
}


# ---------------------------------------------------------------- formatting




def _num(x: float) -> str:
    return f"{x:g}"


def _pos(p: str) -> list[str]:
    return ["as", p] if p else []


def _seamanship_words(s: Seamanship) -> list[str]:
    if s.action == "heading":
        return ["heading", s.side, _num(s.degrees)]
    if s.action == "adjust":
        return ["adjust", "+1" if s.delta > 0 else "-1"]
    return [s.action]


def _advance_words(a: Advance) -> list[str]:
    words = [a.direction] if a.direction else []
    if a.turn is not None:
        words += ["turn", a.turn.when, a.turn.side, _num(a.turn.degrees)]
    if a.shift is not None:
        words += ["shift", a.shift.when, a.shift.side, _num(a.shift.distance)]
    return words


def _attack_words(a: Attack) -> list[str]:
    words = [{"broadside": "fire", "partial": "partial", "close": "melee"}[a.kind]]
    for shot in a.shots:
        if a.kind == "broadside":
            words.append(shot.side)
        words.append(quote(shot.target))
        if a.kind == "close" and shot.side:
            words.append(shot.side)
        if shot.aim != "hull":
            words += ["aim", shot.aim]
    if a.helm:
        words += ["helm", a.helm]
    return words


def _crew_words(c: Crew) -> list[str]:
    if c.action == "reload":
        return ["reload", c.side]
    if c.action == "repair_aground":
        return ["repair", "aground"]
    if c.action == "sail":
        return ["sail", "up" if c.delta > 0 else "down"]
    if c.action == "board":
        return ["board", quote(c.target)] + (["edge", c.edge] if c.edge else [])
    if c.action == "flag":
        return ["flag", quote(c.target)]
    if c.action == "landing":
        return ["landing", _num(c.x), _num(c.y)]
    if c.action == "boat":
        return ["boat", quote(c.target)]
    if c.action == "attack" and c.attack is not None:
        return _attack_words(c.attack)
    return [c.action]


def format_command(cmd: Command) -> str:
    player = getattr(cmd, "player", "")
    prefix = f"{player}: " if player and not isinstance(cmd, PickCard | Concede) else ""
    words: list[str]
    if isinstance(cmd, PickCard):
        words = ["pick", cmd.player, cmd.card]
    elif isinstance(cmd, Activate):
        words = ["move", quote(cmd.ship), *_pos(cmd.point_of_sail)]
        if cmd.seamanship:
            words += _seamanship_words(cmd.seamanship)
        if cmd.advance:
            words += _advance_words(cmd.advance)
        if cmd.crew:
            words += ["crew", *_crew_words(cmd.crew)]
    elif isinstance(cmd, Seamanship):
        words = ["seamanship", quote(cmd.ship), *_pos(cmd.point_of_sail), *_seamanship_words(cmd)]
    elif isinstance(cmd, Advance):
        words = ["advance", quote(cmd.ship), *_pos(cmd.point_of_sail), *_advance_words(cmd)]
    elif isinstance(cmd, Crew):
        words = ["crew", quote(cmd.ship), *_pos(cmd.point_of_sail), *_crew_words(cmd)]
    elif isinstance(cmd, EndActivation):
        words = ["done", quote(cmd.ship)]
    elif isinstance(cmd, Pass):
        words = ["pass", quote(cmd.ship)]
    elif isinstance(cmd, Reroll):
        words = ["reroll", *(str(d) for d in cmd.dice)]
    elif isinstance(cmd, UseFortune):
        words = ["fortune"]
    elif isinstance(cmd, KeepRoll):
        words = ["keep"]
    elif isinstance(cmd, FixDice):
        words = ["dice", *cmd.faces]
    elif isinstance(cmd, Attack):
        words = (["free"] if cmd.free else []) + [_attack_words(cmd)[0], quote(cmd.ship), *_attack_words(cmd)[1:]]
    elif isinstance(cmd, Concede):
        words = ["concede", cmd.player]
    elif isinstance(cmd, Decline):
        words = ["decline"]
    elif isinstance(cmd, Decide):
        words = _decide_words(cmd)
    elif isinstance(cmd, ChooseRole):
        words = ["role", cmd.role]
    elif isinstance(cmd, Draft):
        words = ["draft", cmd.card]
    elif isinstance(cmd, AddTerrain):
        words = ["terrain", cmd.kind]
    elif isinstance(cmd, PlaceTerrain):
        words = ["place", quote(cmd.piece), _num(cmd.x), _num(cmd.y)] + (["rot", _num(cmd.rotation)] if cmd.rotation else [])
    elif isinstance(cmd, FinishStep):
        words = ["finish"]
    elif isinstance(cmd, Deploy):
        words = ["deploy", quote(cmd.ship), _num(cmd.x), _num(cmd.y), "heading", _num(cmd.heading)]
    elif isinstance(cmd, Enlist):
        words = ["enlist", quote(cmd.squadron.name)]
    else:  # pragma: no cover - every command type is listed above
        raise TypeError(f"cannot format {cmd!r}")
    return prefix + " ".join(words)


def _decide_words(d: Decide) -> list[str]:
    if d.answer == "borrow":
        return ["borrow", d.target]
    if d.answer == "place":
        return ["shoal", _num(d.x), _num(d.y)] + (["rot", _num(d.degrees)] if d.degrees else [])
    if d.answer == "skip" and not d.ship:
        return ["shoal", "skip"]
    if d.answer in ("keep", "discard") and not d.ship:
        return ["event", d.answer]
    if d.answer in ("capture", "destroy", "spare"):
        return [d.answer, quote(d.ship)]
    if d.answer == "skip":
        return ["freeturn", quote(d.ship), "skip"]
    if d.answer in ("port", "starboard"):
        return ["freeturn", quote(d.ship), d.answer, _num(d.degrees)]
    verb = "transfer" if d.answer == "transfer" else "newflag"
    words = [verb, quote(d.ship), quote(d.target)]
    if d.cards:
        words += ["drop", ", ".join(d.cards)]
    return words
