"""Issue 11, item 7: the opponent, a spectator and a member without a seat (who holds the GM role, so
has the most a non-player can have) send every command, autocomplete and button in each phase.
Nothing any of them receives may name a card they may not know, or the dice seed; no message pings
anyone it does not name; nothing they send changes the game."""

from __future__ import annotations

from collections.abc import Callable

from game.ai.captain import Captain
from game.model import Game, Phase
from game.phases.flow import deciders
from game.rules_data import load_rules
from game.squadron import random_squadron
from game.squadron_builder import to_toml
from tests.adversary.eyes import (
    ADVERSARIES,
    ANN,
    BOB,
    EVE,
    GUS,
    SEATS,
    Table,
    assert_learns_nothing,
    assert_no_pings,
    assert_view_keeps_secrets,
    token_of,
)
from tests.adversary.sweep import DUTCH, Targets, autocompleted, every_command, game_requests, lookup_requests
from tests.adversary.sweep import lookups as run_lookups
from tests.adversary.sweep import sweep as run_sweep

USERS = {"A": ANN, "B": BOB}
OUTSIDERS = {k: v for k, v in ADVERSARIES.items() if v[0] not in SEATS}  # who sits at no side of a tutorial
SQUADRON = "Zeeland Admiralty"  # the list each adversary saves in the look-ups


async def make_gm_role(t: Table) -> None:
    from game.service.models import GuildSettings
    from tests.adversary.eyes import GM_ROLE
    from tests.bot.fake_discord import GUILD_ID

    await t.service.data.save_settings(GuildSettings(guild_id=str(GUILD_ID), gm_role_id=str(GM_ROLE)))


async def baseline(t: Table) -> dict[str, str]:
    """The look-ups' answers before any game exists (the same for each adversary: each saves the same
    list in them)."""
    await make_gm_role(t)
    return await run_lookups(t, EVE, SQUADRON)


async def open_quickstart(t: Table) -> str:
    """Ann (A) and Bob (B) play the quick start; Bob has chosen Take Courage face down through his
    private menu, whose message id is returned."""
    await t.cmd(ANN, "game", "create")
    await t.cmd(ANN, "game", "join", side="A")
    await t.cmd(BOB, "game", "join", side="B")
    _, menu, message = await t.open_hand(BOB)
    await t.press(BOB, menu, message, values=["Take Courage"])
    assert (await t.state()).squadron("B").face_down == "Take Courage"
    return message


async def drive(t: Table, until: Callable[[Game], bool], limit: int = 400) -> Game:
    """Play on through the service (the players' own orders, chosen by computer captains that see the
    whole state) until the condition holds."""
    captains = {p: Captain(p, 3) for p in "AB"}
    for _ in range(limit):
        state = await t.state()
        if until(state):
            return state
        due = deciders(state)
        assert due, f"the game ended before the phase wanted: {state.result}"
        player = sorted(due)[0]
        await t.submit(USERS[player], captains[player].act(state))
    raise AssertionError("the phase wanted never came")


def targets(state: Game, menu: str | None) -> Targets:
    b = state.squadron("B")
    cards = sorted({c for c in (*b.hand, b.face_down) if c} - {c for c in state.squadron("A").hand})
    prefixes = tuple(dict.fromkeys([c[:3] for c in cards] + [cards[0][:1]]))
    ships = tuple(s.id for s in state.ships_of("B"))[:2]
    return Targets((ships[0], ships[1]), state.ships_of("A")[0].id, prefixes, menu, state.phase is Phase.OVER)


async def check_phase(t: Table, phase: str, aims: Targets, base: dict[str, str] | None,
                      secrets_kept: bool = True, adversaries: dict[str, tuple[int, str]] = ADVERSARIES) -> None:
    """Each adversary sweeps; then what each received is checked (and, given `base`, that the rules
    look-ups still answer as without a game)."""
    version = await t.version()
    views_before = len(t.drawn.views)
    for label, user in adversaries.items():
        mark = t.mark()
        swept = await run_sweep(t, user, aims, gm=user is GUS, seated=user[0] in SEATS)
        assert await t.version() == version, f"{label} changed the game in the {phase}"
        answered = {token_of(r) for r in t.fake.requests[mark:]}
        silent = [tok for tok in swept.tokens if tok not in answered]
        assert not silent, f"{label}: {len(silent)} interaction(s) got no answer in the {phase}"
        allowed = [(what, answer) for what, answer in swept.refusals if not (answer or "").startswith("❌")]
        assert not allowed, f"{label} was not refused in the {phase}: {allowed}"
        if base is not None:
            assert await run_lookups(t, user, SQUADRON) == base, f"{label}: a look-up depends on the game"
    assert_no_pings(t.fake)
    if not secrets_kept:
        return
    for label, user in adversaries.items():
        await assert_learns_nothing(t, user, f"the {label} in the {phase}")
    state, log = await t.state(), await t.log_events()
    for view in t.drawn.views[views_before:]:
        assert_view_keeps_secrets(view, state, log)


async def test_the_sweep_sends_every_command_the_bot_has(table: Table) -> None:
    """A command added later is swept too, or this fails (every autocomplete is asked by walking the tree)."""
    commands, completions = every_command(table.bot.tree), autocompleted(table.bot.tree)
    aims = Targets(("Otter", "Hoorn"), "Kestrel", ("Rel",), "1")
    swept = {r.name for r in game_requests(aims, gm=False, seated=False) + lookup_requests(SQUADRON)}
    assert commands == swept, commands ^ swept
    assert len(completions) >= 20  # every one is asked in complete_all


async def test_initiative_with_a_card_face_down(table: Table) -> None:
    t = table
    base = await baseline(t)
    menu = await open_quickstart(t)
    state = await t.state()
    assert state.phase in (Phase.SETUP, Phase.INITIATIVE) and not state.squadron("A").picked
    await check_phase(t, "initiative pick", targets(state, menu), base)


async def test_movement_with_next_turns_cards_face_down(table: Table) -> None:
    t = table
    base = await baseline(t)
    menu = await open_quickstart(t)
    for user, line in ((ANN, "pick A Down!"), (ANN, "pick A Careful Aim"), (BOB, "pick B Reload!")):
        await t.submit(user, line)
    state = await t.state()
    assert state.phase is Phase.MOVEMENT and state.squadron("B").face_down == "Reload!"
    await check_phase(t, "movement phase", targets(state, menu), base)


async def test_a_pending_reroll_in_the_attack_phase_then_the_end(table: Table) -> None:
    t = table
    base = await baseline(t)
    menu = await open_quickstart(t)
    state = await drive(t, lambda s: s.pending is not None and s.pending.player == "B" and s.phase is Phase.ATTACK)
    await check_phase(t, "attack phase with B's roll pending", targets(state, menu), base)
    await t.submit(BOB, "concede B")
    state = await t.state()
    assert state.phase is Phase.OVER
    # after the end the seed is public and /game verify attaches the whole log: only pings are checked
    await check_phase(t, "finished game", targets(state, menu), None, secrets_kept=False)
    seed = await t.seed()
    assert any(seed in item.text for item in t.public()), [i.text[:300] for i in t.public()[-5:]]


async def test_a_drafted_games_set_up(table: Table) -> None:
    t = table
    rules = load_rules()
    listed = random_squadron(11, "skirmish", rules, faction="English")
    english = to_toml(listed)
    await t.cmd(ANN, "squadron", "save", attachments={"file": t.fake.attach("a.toml", DUTCH)})
    await t.cmd(BOB, "squadron", "save", attachments={"file": t.fake.attach("b.toml", english.encode())})
    base = await baseline(t)
    await t.cmd(ANN, "game", "create", scenario="drafted", size="skirmish")
    await t.cmd(ANN, "game", "join", side="A", squadron=SQUADRON)
    answer = await t.cmd(BOB, "game", "join", side="B", squadron=listed.name)
    assert "set-up begins" in str(answer.payload.get("content")), answer.payload
    state = await drive(t, lambda s: s.prep is not None and s.prep.to_act == "B" and s.prep.step == "deploy")
    await check_phase(t, "set-up (B to deploy)", targets(state, None), base)


async def test_the_tutorial_in_its_thread(table: Table) -> None:
    """The tutorial (Ann against the computer captain, in a thread of its own): the members without a
    seat send everything there, at Ann's pick and in the Movement Phase, and get nothing of it (Ann, the
    usual "opponent", is the learner here: her own orders may well move her ships)."""
    t = table
    base = await baseline(t)
    await t.cmd(ANN, "game", "create", scenario="tutorial")
    [thread] = t.fake.threads()
    t.here = int(thread["id"])
    state = await t.state()
    assert state.tutorial and not state.squadron("A").picked
    await check_phase(t, "tutorial's first pick", targets(state, None), base, adversaries=OUTSIDERS)
    for line in ("pick A Down!", "pick A Careful Aim"):
        answer = await t.cmd(ANN, "order", line=line)
        assert str(answer.payload.get("content")).startswith("✅"), answer.payload
    state = await t.state()
    assert state.phase is Phase.MOVEMENT and deciders(state) == {"A"}, state.phase
    await check_phase(t, "tutorial's movement phase", targets(state, None), base, adversaries=OUTSIDERS)
