"""The ships: bases to scale in their side's colours (lighter once they have activated this
phase), the bow wedge, reload markers, wakes, landing parties, the highlight behind an enemy in a
path, and each ship's label block (name, tracks, sail, statuses, the paths it lies in). Every
layer is one collection, so twenty ships cost a handful of draw calls."""

from __future__ import annotations

import numpy as np
from matplotlib.collections import LineCollection, PolyCollection
from matplotlib.colors import to_rgba

from benchmarks.baseline_render import labels as lab
from benchmarks.baseline_render import style
from benchmarks.baseline_render import text as tx
from benchmarks.baseline_render.guide import Guide
from benchmarks.baseline_render.layout import font
from benchmarks.baseline_render.scene import Block, Scene, hull_at, side_style
from game import geometry as geo
from game.model import Game, Ship

_CIRCLE = np.column_stack([np.cos(np.linspace(0, 2 * np.pi, 17)), np.sin(np.linspace(0, 2 * np.pi, 17))])


def draw_ships(sc: Scene, game: Game, g: Guide) -> None:
    k, ppi = sc.k, sc.frame.ppi
    targets = {p.target for p in g.in_path}
    hulls, faces, edges, styles = [], [], [], []
    bows, bow_edges = [], []
    rings = []
    wakes = []
    discs = []
    parties, party_faces = [], []
    radius = max(0.2, 7 * k / ppi)
    for s in game.ships:
        if not s.on_table:
            continue
        st = side_style(game, s.controller)
        h = hull_at(s.x, s.y, s.heading, s)
        corners = np.asarray(h.corners)
        quad = sc.px(corners)
        centre = quad.mean(axis=0)
        grow = (6 if s.id in targets else 2) * k
        grown = centre + (quad - centre) * (1 + grow / max(float(np.abs(quad - centre).max()), 1.0))
        sc.hard.append(grown)
        sc.blocks.append(ship_block(game, s, g, sc.frame.width, grown))
        sc.hull_ids.append(s.id)
        faded = s.out_of_action or "captured" in s.status_names()
        fill = style.tint(st.fill, style.DONE_TINT) if s.id in g.done else st.fill
        hulls.append(corners)
        faces.append(to_rgba(fill, 0.45 if faded else 1.0))
        edges.append(to_rgba(st.edge, 0.45 if faded else 1.0))
        styles.append(st.linestyle)
        # the bow: a white wedge from the bow edge's mid-point back into the hull
        bow = h.edge_midpoint("bow")
        f, r = geo.forward(s.heading), geo.right(s.heading)
        back = (bow[0] - f[0] * s.length * 0.4, bow[1] - f[1] * s.length * 0.4)
        wing = s.beam * 0.32
        bows.append([bow, (back[0] + r[0] * wing, back[1] + r[1] * wing), (back[0] - r[0] * wing, back[1] - r[1] * wing)])
        bow_edges.append(st.edge)
        if s.id in targets:
            ring = h.polygon.buffer(max(0.12, 6 * k / ppi), join_style="mitre")
            rings.append(np.asarray(ring.exterior.coords))
        if s.wake:
            stern = h.edge_midpoint("stern")
            tail = geo.add(stern, geo.scale(h.outward("stern"), 1.2))
            wakes.append([stern, tail])
            a, b = sc.px([stern, tail])
            sc.soft.append(lab.segment_quad(a, b, 3 * k))
        for side in sorted(s.reload):
            # inside the base by the side it marks: outside, it would lie on a ship alongside
            m = h.edge_midpoint(side.value)
            at = geo.add(m, geo.scale(h.outward(side.value), -min(radius + 0.04, s.beam / 4)))
            discs.append(np.asarray(at) + _CIRCLE * radius)
            sc.reload_ids.append(f"{s.id}:{side.value}")
            c = sc.px([at])[0]
            rp = radius * ppi + 2
            sc.hard.append(lab.box_quad(c[0] - rp, c[1] - rp, c[0] + rp, c[1] + rp))
        for p in s.landing_parties:
            tri = np.asarray([(p.x, p.y + 0.35), (p.x - 0.3, p.y - 0.2), (p.x + 0.3, p.y - 0.2)])
            parties.append(tri)
            party_faces.append(st.fill)
            t = sc.px(tri)
            sc.hard.append(lab.box_quad(*t.min(axis=0), *t.max(axis=0)))
    if rings:
        sc.data.append(PolyCollection(rings, facecolors=style.TARGET, edgecolors="black", linewidths=1.2 * k,
                                      zorder=9, gid="targets"))
    if wakes:
        sc.data.append(LineCollection(wakes, colors=style.WAKE, linewidths=3 * k, linestyles=[(0, (1, 1))], zorder=9))
    if hulls:
        sc.data.append(PolyCollection(hulls, facecolors=faces, edgecolors=edges, linewidths=2.2 * k,
                                      linestyles=styles, zorder=10, gid="hulls"))
        sc.data.append(PolyCollection(bows, facecolors="white", edgecolors=bow_edges, linewidths=0.8 * k, zorder=11))
    if parties:
        sc.data.append(PolyCollection(parties, facecolors=party_faces, edgecolors="black", linewidths=1 * k, zorder=12))
    if discs:
        sc.data.append(PolyCollection(discs, facecolors=style.RELOAD, edgecolors="white", linewidths=1.2 * k,
                                      zorder=21, gid="reload"))


def _status_label(name: str) -> str:
    return {
        "shaken": "SHAKEN", "crippled": "CRIPPLED", "out_of_action": "OUT OF ACTION", "aground": "AGROUND",
        "entangled": "ENTANGLED", "captured": "CAPTURED", "sunk": "SUNK", "left_table": "", "removed": "",
        "anchored": "",
    }.get(name, name.upper())


def ship_block(game: Game, s: Ship, g: Guide, width_px: int, anchor: np.ndarray) -> Block:
    """Name (★ Flagship, ✓ activated this phase); damage and fatigue; a sail setting other than
    Battle Sail; statuses; then, highlighted, each path of a ship to act the ship lies in."""
    size = font(width_px)
    flag = s.owner in game.players and game.squadron(s.owner).flagship == s.id
    name = ("★ " if flag else "") + s.id + (" ✓" if s.id in g.done else "")
    lines: list[tuple[str, float, str, str, str | None]] = [(name, size, "bold", style.TEXT, "white")]
    words = [w for w in (f"D{s.damage}" if s.damage else "", f"F{s.fatigue}" if s.fatigue else "") if w]
    if s.sail.value != "battle":
        words.append(f"{s.sail.value.capitalize()} sail")
    statuses = [w for w in (_status_label(n) for n in s.status_names()) if w]
    width = max(tx.size_of(name, size, "bold")[0], 170 * width_px / style.WIDTH)
    for text in ([" ".join(words)] if words else []) + _wrap(statuses, size, width):
        lines.append((text, size, "normal", style.TEXT, "white"))
    for p in g.in_path:
        if p.target == s.id:
            side = "stbd" if p.side == "starboard" else "port"
            band = p.band.removesuffix(" Shot")
            lines.append((f"{p.ship} {side} · {band}" + (" (reload)" if p.unloaded else ""), size, "normal",
                          style.TEXT, style.TARGET))
    return Block(f"ship:{s.id}", lines, "around", anchor)


def _wrap(words: list[str], size: float, width: float) -> list[str]:
    out: list[str] = []
    for w in words:
        if out and tx.size_of(out[-1] + " " + w, size)[0] <= width:
            out[-1] += " " + w
        else:
            out.append(w)
    return out
