"""The pages' HTML: plain server-made markup that reads completely without JavaScript (the live
updates, local times and the scrubber's quick moves are page.js's). Every text is escaped here; no
inline script or style (the Content-Security-Policy allows neither). Links are relative, so the
pages work under any path a reverse proxy gives them."""

from __future__ import annotations

from collections.abc import Sequence
from html import escape
from typing import Any

from game.names import plain
from game.replay import Frame
from game.service.leagues import Table
from game.service.web_pages import Listed

STATIC = "../../static"


def e(value: object) -> str:
    return escape(str(value), quote=True)


def page(title: str, body: str, kind: str = "page") -> str:
    return (
        "<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
        "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"
        "<meta name=\"robots\" content=\"noindex, nofollow\">"
        f"<title>{e(title)} · Quarterdeck</title>"
        f"<link rel=\"stylesheet\" href=\"{STATIC}/page.css\"><link rel=\"icon\" href=\"{STATIC}/icon.svg\">"
        f"<script src=\"{STATIC}/page.js\" defer></script></head>"
        f"<body class=\"{e(kind)}\"><a class=\"skip\" href=\"#main\">Skip to the content</a>{body}"
        "<footer><p>A read-only page of Quarterdeck, the Oak &amp; Iron referee: it changes nothing in the "
        "game.</p></footer></body></html>"
    )


def time_tag(moment: dict[str, str] | None, empty: str = "none") -> str:
    if moment is None:
        return e(empty)
    return f"<time datetime=\"{e(moment['iso'])}\">{e(moment['utc'])}</time>"


def _squadrons(squadrons: Sequence[dict[str, Any]]) -> str:
    out = []
    for q in squadrons:
        cards = f"Face-up card: {e(q['face_up'])}. " if q["face_up"] else ""
        played = f"Played: {e(', '.join(q['discards']))}." if q["discards"] else ""
        rows = "".join(
            f"<tr><th scope=\"row\">{e(s['id'])}</th><td>{e(s['class'])}</td>"
            f"<td>{e(s['damage'])} / {e(s['fortitude'])}</td><td>{e(s['fatigue'])}</td><td>{e(s['state'])}</td></tr>"
            for s in q["ships"])
        out.append(
            f"<article class=\"squadron\"><h3>{e(q['who'])}{': ' + e(q['name']) if q['name'] else ''}</h3>"
            f"<p>Admiral {e(q['admiral'])}; fortune {e(q['fortune'])}. {cards}{played}</p>"
            "<div class=\"scroll\"><table><caption class=\"sr\">Ships of "
            f"{e(q['who'])}</caption><thead><tr><th scope=\"col\">Ship</th><th scope=\"col\">Class</th>"
            "<th scope=\"col\">Damage</th><th scope=\"col\">Fatigue</th><th scope=\"col\">State</th></tr></thead>"
            f"<tbody>{rows}</tbody></table></div></article>")
    return "".join(out)


def squadrons_html(snap: dict[str, Any]) -> str:
    return _squadrons(snap["squadrons"])


def _clock(c: dict[str, Any]) -> str:
    paused = "<li><strong>The clock is paused.</strong></li>" if c["paused"] else ""
    return (f"<ul>{paused}<li>A reminder after {e(c['reminder_hours'])} hours of waiting.</li>"
            f"<li>A deadline after {e(c['deadline_hours'])} hours; then {e(c['on_deadline'])}.</li></ul>")


def _ending(snap: dict[str, Any]) -> str:
    end = snap["ending"]
    if end is None:
        return (f"<p>The dice come from a secret seed whose SHA-256 is <code class=\"hash\">{e(snap['commitment'])}</code>. "
                "The seed is shown here when the game ends, and every roll is then checked against it.</p>")
    test = " This game played with test dice, so there was no secret to prove." if end["test_dice"] else ""
    return (f"<p>The dice seed was <code class=\"hash\">{e(end['seed'])}</code>; its SHA-256 "
            f"<code class=\"hash\">{e(end['commitment'])}</code> was published when the game began.</p>"
            f"<p id=\"verification\">Every roll recomputed from the seed: {e(end['verification'])}{e(test)}</p>"
            "<p><a href=\"log.json\" download>Download the game's log</a> and check it yourself with "
            "<code>quarterdeck verify --file</code>.</p>")


def _account(snap: dict[str, Any]) -> str:
    earlier = (f"<p>{e(snap['earlier'])} earlier lines are in the replay below.</p>" if snap["earlier"] else "")
    start = snap["earlier"] + 1
    lines = "".join(f"<li>{e(line)}</li>" for line in snap["account"]) or "<li>Nothing has happened yet.</li>"
    return f"{earlier}<ol id=\"account-list\" start=\"{start}\">{lines}</ol>"


def _replay(frame: Frame | None, index: int, total: int, alt: str) -> str:
    if frame is None or total == 0:
        return "<p id=\"replay-empty\">No moves to replay yet.</p>"
    caption = "".join(f"<li>{e(line)}</li>" for line in frame.caption)

    def go(n: int, label: str, key: str) -> str:
        n = max(1, min(total, n))
        return f"<a href=\"?frame={n}#replay\" data-frame=\"{n}\" aria-keyshortcuts=\"{key}\">{label}</a>"

    return (
        "<form method=\"get\" action=\"#replay\" id=\"scrubber\">"
        f"<figure><img id=\"frame-img\" src=\"frame/{index}.png\" alt=\"{e(alt)}\" width=\"1080\" loading=\"lazy\">"
        f"<figcaption><ul id=\"frame-caption\" aria-live=\"polite\">{caption}</ul></figcaption></figure>"
        f"<label for=\"frame\">Move <output id=\"frame-no\" for=\"frame\">{index}</output> of "
        f"<span id=\"frame-count\">{total}</span></label>"
        f"<input type=\"range\" id=\"frame\" name=\"frame\" min=\"1\" max=\"{total}\" value=\"{index}\">"
        f"<nav class=\"steps\" aria-label=\"Replay steps\">{go(1, '« First', 'Home')}{go(index - 1, '◀ Back', 'ArrowLeft')}"
        f"{go(index + 1, 'Next ▶', 'ArrowRight')}{go(total, 'Last »', 'End')}</nav>"
        "<noscript><button type=\"submit\">Show this move</button></noscript></form>")


def game_page(snap: dict[str, Any], frame: Frame | None, index: int, total: int, frame_alt: str) -> str:
    deadline = (f"<p id=\"deadline\">Deadline: {time_tag(snap['deadline'])}</p>" if snap["deadline"] else
                "<p id=\"deadline\" hidden></p>")
    body = (
        f"<header><h1>{e(snap['name'])}</h1><p>Game #{e(snap['id'])} · Oak &amp; Iron · "
        f"<span id=\"turn\">turn {e(snap['turn'])}, {e(snap['phase'])} phase</span></p></header>"
        f"<main id=\"main\" data-version=\"{e(snap['version'])}\" data-frames=\"{e(total)}\">"
        "<section id=\"now\" aria-labelledby=\"now-h\"><h2 id=\"now-h\">Now</h2>"
        f"<p id=\"waiting\" aria-live=\"polite\">{e(snap['waiting'])}</p>{deadline}"
        "<p id=\"live\" class=\"live\">Reload the page to see new moves.</p></section>"
        f"<figure id=\"board\"><img id=\"board-img\" src=\"{e(snap['board'])}\" alt=\"{e(snap['alt'])}\" width=\"1080\">"
        "<figcaption>The board now, as every spectator sees it.</figcaption></figure>"
        f"<section id=\"squadrons\" aria-labelledby=\"sq-h\"><h2 id=\"sq-h\">Squadrons</h2>"
        f"<div id=\"squadron-list\">{squadrons_html(snap)}</div></section>"
        f"<section id=\"clock\" aria-labelledby=\"clock-h\"><h2 id=\"clock-h\">Clock</h2>"
        f"<div id=\"clock-body\">{_clock(snap['clock'])}</div></section>"
        f"<section id=\"account\" aria-labelledby=\"acc-h\"><h2 id=\"acc-h\">Account</h2>"
        f"<div id=\"account-body\">{_account(snap)}</div></section>"
        f"<section id=\"replay\" aria-labelledby=\"rep-h\"><h2 id=\"rep-h\">Replay</h2>"
        f"{_replay(frame, index, total, frame_alt)}</section>"
        f"<section id=\"fair\" aria-labelledby=\"fair-h\"><h2 id=\"fair-h\">Fair dice</h2>"
        f"<div id=\"fair-body\">{_ending(snap)}</div></section></main>")
    return page(snap["name"], body, "game")


def index_page(guild_id: str, games: Sequence[Listed]) -> str:
    rows = "".join(
        f"<li><a href=\"../../g/{e(x.token)}/\">{e(plain(x.info.name))}</a> (game #{e(x.info.id)}): "
        f"{e(x.info.status)}, turn {e(x.info.turn)}, {e(x.info.phase.replace('_', ' '))} phase; "
        + e(", ".join(f"{s.player}: {'free' if s.free else plain(s.name)}" for s in x.info.seats)) + "</li>"
        for x in games) or "<li>No games yet.</li>"
    body = (f"<header><h1>Games of this server</h1></header><main id=\"main\"><ul class=\"games\">{rows}</ul>"
            "<p>Unfinished games first, newest first.</p></main>")
    return page("Games", body, "index")


def league_page(table: Table, games: dict[int, str], deadline: dict[str, str] | None) -> str:
    lg = table.league
    standings = "".join(
        f"<tr><td>{e(r.rank)}</td><th scope=\"row\">{e(plain(r.name))}{' (dropped)' if r.dropped else ''}</th>"
        f"<td>{e(r.played)}</td><td>{e(f'{r.wins:g}')}</td><td>{e(r.draws)}</td><td>{e(r.losses)}</td>"
        f"<td>{e(r.margin)}</td><td>{e(round(r.rating, 1))}</td></tr>" for r in table.rows)
    pairs = []
    for p in lg.pairings:
        who = f"{plain(p.a_name)} v {plain(p.b_name)}" if p.b is not None else f"{plain(p.a_name)} has a bye"
        link = (f" · <a href=\"../../g/{e(games[p.game_id])}/\">the game's page</a>"
                if p.game_id and p.game_id in games else "")
        result = f" · won by {e(p.winner)}" if p.winner else ""
        pairs.append(f"<li>Table {e(p.table)}: {e(who)} ({e(p.status)}{result}){link}</li>")
    due = f"<p>The round closes {time_tag(deadline)}.</p>" if deadline else ""
    body = (
        f"<header><h1>{e(plain(lg.name))}</h1><p>League · {e(lg.format)} · round {e(lg.current_round)} of "
        f"{e(lg.rounds)} · {e(lg.status)}</p></header><main id=\"main\">"
        "<section aria-labelledby=\"st-h\"><h2 id=\"st-h\">Standings</h2><div class=\"scroll\"><table><thead><tr>"
        "<th scope=\"col\">#</th><th scope=\"col\">Captain</th><th scope=\"col\">Played</th><th scope=\"col\">Won</th>"
        "<th scope=\"col\">Drawn</th><th scope=\"col\">Lost</th><th scope=\"col\">Margin</th>"
        f"<th scope=\"col\">Rating</th></tr></thead><tbody>{standings}</tbody></table></div></section>"
        f"<section aria-labelledby=\"pa-h\"><h2 id=\"pa-h\">Pairings of round {e(lg.current_round)}</h2>{due}"
        f"<ul class=\"games\">{''.join(pairs) or '<li>Not paired yet.</li>'}</ul></section></main>")
    return page(plain(lg.name), body, "league")


def message_page(title: str, text: str) -> str:
    return page(title, f"<main id=\"main\"><h1>{e(title)}</h1><p>{e(text)}</p></main>", "message")
