"""The boards of docs/first-game.md, made by the project itself.

    .venv/bin/python docs/images/make_first_game.py [OUT_DIR]   (default: this folder)

It plays the tutorial (the quick start with hints) the way docs/first-game.md tells it: you are player
A, the computer captain plays B. Your orders are the ones the guide gives, which its hints suggest; the computer captain decides for itself; your
broadside's dice are fixed so the guide can show a Fortune re-roll; every other die comes from the
game's seed. Each post is drawn and worded as the bot posts it (bot/publish.py): the spectator's
view, the last move and attacks drawn, the account, who is to act and what they can do. It prints
each post's text; a test runs it and checks that docs/first-game.md quotes those texts.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from bot.publish import account_text, options_text, waiting_text
from game.ai.captain import Captain
from game.names import prose
from game.options import public_options
from game.phases.flow import deciders
from game.scenario import builtin_scenarios, load_scenario_text
from game.service.results import SeatInfo
from game.table_session import TableSession
from game.tutorial import hint, learner
from game.views import event_for, view_of
from render.board import RenderOptions, render_board
from render.overlays import last_attacks, last_move

HERE = Path(__file__).resolve().parent
YOU = "1001"  # your Discord user id in the seats: the bot mentions it as <@1001>
SEATS = (SeatInfo("A", YOU, "you", False), SeatInfo("B", None, "Computer captain (B)", True))
# Kestrel's broadside (3 dice): a poor first roll, then the Fortune re-roll, then one critical die
BROADSIDE_DICE = "dice cannon sail sail skull cannon cannon sword"


@dataclass(frozen=True)
class Post:
    image: str  # the file name, or "" for a post this guide shows as text only
    text: str  # the message as the bot posts it, with your mention written as @you


class Table:
    """The tutorial as the bot runs it: a post after each of your commands, then one post for each
    of the computer captain's commands."""

    def __init__(self, out_dir: Path) -> None:
        tutorial = load_scenario_text(builtin_scenarios()["tutorial"], "tutorial.toml")
        self.session = TableSession(replace(tutorial, test_dice=True))
        self.out_dir = out_dir
        self.posts: list[Post] = []

    def you(self, line: str, image: str = "", then: str = "") -> None:
        """Your command; `image` draws its post, `then` the computer captain's first post after it."""
        self.post(self.session.submit_line(line), image)
        self.computer(then)

    def fix_dice(self, line: str) -> None:
        self.session.submit_line(line)  # a test scenario's `dice` command: nothing to post

    def computer(self, image: str = "") -> None:
        while "B" in deciders(self.session.state):
            captain = Captain("B", len(self.session.events), self.session.rules)
            self.post(self.session.submit(captain.act(self.session.state)), image)
            image = ""

    def post(self, events: Sequence[Any], image: str = "") -> None:
        state, rules = self.session.state, self.session.rules
        spectator = view_of(state, None)
        shown = [event_for(e, None) for e in events]
        waiting = [public_options(view_of(state, p), rules) for p in sorted(deciders(state))]
        mention, _ = waiting_text(spectator, SEATS, [o.player for o in waiting])
        what_now = options_text([line for o in waiting for line in o.lines()[1:]])
        # the tutorial's hint as the service reads it (game/service/reading.py) and the bot posts it
        told = prose(hint(view_of(state, learner(state)).game, waiting, shown, rules))
        text = "\n".join(x for x in (account_text(shown), mention, what_now, told) if x)
        if image:
            options = RenderOptions(last_move=last_move(shown), last_attacks=last_attacks(shown), rules=rules)
            (self.out_dir / image).write_bytes(render_board(spectator, options))
        self.posts.append(Post(image, text.replace(f"<@{YOU}>", "@you")))


IMAGES = ("first-game-1-table.png", "first-game-2-movement.png", "first-game-3-attack.png",
          "first-game-4-broadside.png")


def play(out_dir: Path = HERE) -> list[Post]:
    """Play the guide's game, write its boards into out_dir, and return every post."""
    out_dir.mkdir(parents=True, exist_ok=True)
    table, (table_png, movement_png, attack_png, broadside_png) = Table(out_dir), IMAGES
    table.post([], table_png)  # every side is taken: the board and the first pick
    table.computer()  # the computer captain picks its first card at once, face down
    table.you("pick A Effective Fire")  # your first card, revealed at once for turn 1
    table.you("pick A Careful Aim", then=movement_png)  # your card for turn 2; then B moves first
    table.you("move Amazone ahead turn start port 30")  # as the hint suggests
    table.you("move Kestrel", then=attack_png)  # as the hint suggests; the Attack Phase: B fires first
    table.fix_dice(BROADSIDE_DICE)
    table.you("fire Kestrel port Otter")  # as the hint suggests; the roll waits for you: the re-roll buttons
    table.you("fortune", broadside_png)
    table.you("fire Amazone port Otter")  # the hint of your other ship
    table.you("keep")  # the End Phase, then turn 2: the hints stop
    return table.posts


def main(argv: Sequence[str]) -> int:
    out_dir = Path(argv[0]) if argv else HERE
    for post in play(out_dir):
        print(f"--- {post.image or '(text only)'}\n{post.text}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
