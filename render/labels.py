"""Label placement with collision avoidance, in figure pixels (origin at the bottom left).

Every label is a box of known size. Candidates are tried in order of preference (touching the
thing named, then rings further out that need a leader line) and the first one that overlaps no
label placed before it, no obstacle (ship hulls, markers, arrows) and stays inside the frame wins.
Obstacles are convex quadrilaterals and the test is the separating-axis test, vectorised over every
candidate at once, so a crowded board costs a few milliseconds.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass

import numpy as np
from matplotlib.lines import Line2D
from matplotlib.transforms import IdentityTransform

from render import style
from render.scene import Block, Scene
from render.text import TextItem, label, size_of

PAD = 2.0  # pixels kept clear around every label (the halo of its text)


@dataclass(frozen=True)
class Placed:
    box: tuple[float, float, float, float]  # x0, y0, x1, y1 in pixels, padding excluded
    leader: bool  # detached from its anchor: draw a line back to it
    clear: bool  # overlaps nothing (False only when no free place was found)


class Obstacles:
    """Convex quadrilaterals (N x 4 x 2) with their bounding boxes and edge normals."""

    def __init__(self, quads: Sequence[np.ndarray] | np.ndarray) -> None:
        q = np.asarray(quads, dtype=float).reshape(-1, 4, 2)
        self.quads = q
        self.lo = q.min(axis=1) if len(q) else np.zeros((0, 2))
        self.hi = q.max(axis=1) if len(q) else np.zeros((0, 2))
        edges = np.roll(q, -1, axis=1) - q
        normals = np.stack([-edges[..., 1], edges[..., 0]], axis=-1)
        length = np.linalg.norm(normals, axis=-1, keepdims=True)
        self.normals = np.divide(normals, length, out=np.zeros_like(normals), where=length > 1e-9)  # N x 4 x 2
        proj = np.einsum("nkd,njd->nkj", self.normals, q)  # N x 4 axes x 4 corners
        self.pmin = proj.min(axis=2)
        self.pmax = proj.max(axis=2)

    def __len__(self) -> int:
        return len(self.quads)

    def containing(self, centres: np.ndarray, half: np.ndarray) -> np.ndarray:
        """Which quads each box overlaps (M x N booleans)."""
        out = np.zeros((len(centres), len(self.quads)), dtype=bool)
        m, n, sat = self._pairs(centres, half)
        out[m[sat], n[sat]] = True
        return out

    def hits(self, centres: np.ndarray, half: np.ndarray) -> np.ndarray:
        """How many quads each box (centre, half-size, M x 2 each) overlaps."""
        m, _, sat = self._pairs(centres, half)
        return np.bincount(m[sat], minlength=len(centres))

    def _pairs(self, centres: np.ndarray, half: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """(box index, quad index, overlap) for every pair whose bounding boxes meet."""
        empty = np.zeros(0, dtype=int)
        if not len(self.quads) or not len(centres):
            return empty, empty, np.zeros(0, dtype=bool)
        eps = 0.5
        lo, hi = centres - half, centres + half
        # the candidates of one label lie around one thing: the quads out of reach of all of them
        # (most of a crowded board) are dropped before the pairwise test
        qlo, qhi = self.lo + eps, self.hi - eps
        near = np.flatnonzero((qlo[:, 0] < hi[:, 0].max()) & (qhi[:, 0] > lo[:, 0].min())
                              & (qlo[:, 1] < hi[:, 1].max()) & (qhi[:, 1] > lo[:, 1].min()))
        if not len(near):
            return empty, empty, np.zeros(0, dtype=bool)
        nlo, nhi = self.lo[near], self.hi[near]
        aabb = ((lo[:, None, 0] < nhi[None, :, 0] - eps) & (hi[:, None, 0] > nlo[None, :, 0] + eps)
                & (lo[:, None, 1] < nhi[None, :, 1] - eps) & (hi[:, None, 1] > nlo[None, :, 1] + eps))
        m, j = np.nonzero(aabb)  # only boxes whose bounding boxes meet need the exact test
        n = near[j]
        normals = self.normals[n]  # P x 4 x 2
        cproj = np.einsum("pd,pkd->pk", centres[m], normals)
        reach = np.einsum("pd,pkd->pk", half[m], np.abs(normals))
        sat = np.all((cproj - reach < self.pmax[n] - eps) & (cproj + reach > self.pmin[n] + eps), axis=1)
        return m, n, sat


def box_quad(x0: float, y0: float, x1: float, y1: float) -> np.ndarray:
    return np.array([(x0, y0), (x1, y0), (x1, y1), (x0, y1)], dtype=float)


def segment_quad(p: np.ndarray, q: np.ndarray, half_width: float) -> np.ndarray:
    d = q - p
    n = np.array([-d[1], d[0]]) / max(float(np.hypot(*d)), 1e-9) * half_width
    return np.array([p + n, q + n, q - n, p - n], dtype=float)


class Placer:
    """Places labels one after another; each placed label becomes an obstacle for the next."""

    def __init__(self, frame: tuple[float, float, float, float], hard: Obstacles, soft: Obstacles) -> None:
        self.frame = frame
        self.hard = hard  # never covered: hulls, markers
        self.soft = soft  # avoided when possible: arrows, the move trail
        self.boxes = np.zeros((0, 4))

    def _label_hits(self, centres: np.ndarray, half: np.ndarray) -> np.ndarray:
        if not len(self.boxes):
            return np.zeros(len(centres), dtype=int)
        lo, hi = centres - half, centres + half
        b = self.boxes
        over = ((lo[:, None, 0] < b[None, :, 2]) & (hi[:, None, 0] > b[None, :, 0])
                & (lo[:, None, 1] < b[None, :, 3]) & (hi[:, None, 1] > b[None, :, 1]))
        return np.asarray(over.sum(axis=1))

    def _crossings(self, origin: np.ndarray, centres: np.ndarray) -> np.ndarray:
        """How many obstacles and labels a leader line from the origin to each centre would cross
        (those holding the origin, the thing named, do not count)."""
        t = np.linspace(0.1, 0.9, 9)
        points = origin[None, None, :] + (centres[:, None, :] - origin[None, None, :]) * t[None, :, None]
        flat = points.reshape(-1, 2)
        tiny = np.ones_like(flat)
        own = self.hard.containing(origin[None, :], np.ones((1, 2)))[0]
        hit = self.hard.containing(flat, tiny) & ~own[None, :]
        crossed = hit.reshape(len(centres), len(t), -1).any(axis=1).sum(axis=1)
        if len(self.boxes):
            b = self.boxes
            inside = ((flat[:, None, 0] > b[None, :, 0]) & (flat[:, None, 0] < b[None, :, 2])
                      & (flat[:, None, 1] > b[None, :, 1]) & (flat[:, None, 1] < b[None, :, 3]))
            crossed = crossed + inside.reshape(len(centres), len(t), -1).any(axis=1).sum(axis=1)
        return np.asarray(crossed)

    def _nearer_another(self, anchor: np.ndarray, centres: np.ndarray) -> np.ndarray:
        """For each label centre: is another obstacle nearer to it than the thing it names (`anchor`)?"""
        return nearer_another(anchor, centres, self.hard.lo, self.hard.hi)

    def place(self, size: tuple[float, float], batches: Iterable[tuple[np.ndarray, np.ndarray]],
              optional: bool = False, anchor: np.ndarray | None = None) -> Placed | None:
        """Where a box of this size goes. Candidates come in batches, nearest first. Among those with
        room, the cheapest wins: a leader line crossing a ship or a label costs most, then sitting
        nearer another ship than the one named (`anchor`, its corners), then covering a soft
        obstacle, then lateness. The search stops at the first batch holding a candidate free of the
        first two, or a few batches after the first with any room. None for an optional label that
        fits nowhere, else the least crowded candidate."""
        w, h = size[0] + 2 * PAD, size[1] + 2 * PAD
        fallback: tuple[float, np.ndarray, bool] | None = None
        best: tuple[float, np.ndarray, bool] | None = None
        extra = 0
        origin = anchor.mean(axis=0) if anchor is not None else None
        fx0, fy0, fx1, fy1 = self.frame
        for b, (every, led_every) in enumerate(batches):
            within = ((every[:, 0] - w / 2 >= fx0) & (every[:, 0] + w / 2 <= fx1)
                      & (every[:, 1] - h / 2 >= fy0) & (every[:, 1] + h / 2 <= fy1))
            if not within.any():
                if fallback is None and len(every):
                    fallback = (1e9, every[0], bool(led_every[0]))
                continue
            centres, leaders = every[within], led_every[within]
            half = np.broadcast_to(np.array([w / 2, h / 2]), centres.shape)
            hard = self._label_hits(centres, half) + self.hard.hits(centres, half)
            free = np.flatnonzero(hard == 0)
            if not len(free):
                j = int(np.argmin(hard))
                if fallback is None or hard[j] * 1000.0 < fallback[0]:
                    fallback = (hard[j] * 1000.0, centres[j], bool(leaders[j]))
                continue
            cost = self.soft.hits(centres[free], half[free]) * 10.0 + b + np.arange(len(free)) / len(free)
            # the dearer tests only for the few cheapest so far
            top = np.argsort(cost, kind="stable")[:16]
            free, cost = free[top], cost[top]
            if anchor is not None and origin is not None:
                cost += self._nearer_another(anchor, centres[free]) * 500.0
                led = leaders[free]
                if led.any():
                    cost[led] += self._crossings(origin, centres[free[led]]) * 1000.0
            i = int(np.argmin(cost))
            if best is None or cost[i] < best[0]:
                best = (float(cost[i]), centres[free[i]], bool(leaders[free[i]]))
            if best[0] < 500 or extra >= 4:
                break
            extra += 1
        if best is not None:
            return self._take(best[1], size, best[2], True)
        if optional or fallback is None:
            return None
        return self._take(fallback[1], size, fallback[2], False)

    def _take(self, centre: np.ndarray, size: tuple[float, float], leader: bool, clear: bool) -> Placed:
        cx, cy = float(centre[0]), float(centre[1])
        w, h = size[0] + 2 * PAD, size[1] + 2 * PAD
        self.boxes = np.vstack([self.boxes, [cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2]])
        return Placed((cx - size[0] / 2, cy - size[1] / 2, cx + size[0] / 2, cy + size[1] / 2), leader, clear)


def around(anchor: tuple[float, float, float, float], size: tuple[float, float], line: float, rings: int = 9
           ) -> tuple[np.ndarray, np.ndarray]:
    """Candidate centres around a box: above, below, right, left, the corners, then each further out
    by steps of about half a line (`line`: the height of one line of text); those further than that
    from the box need a leader line."""
    x0, y0, x1, y1 = anchor
    w, h = size[0] + 2 * PAD, size[1] + 2 * PAD
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
    step = max(line * 0.6, 6.0)
    d = 1.0 + np.arange(rings) * step  # every ring at once: built one by one they cost a tenth of the labels
    above, below = y1 + d + h / 2, y0 - d - h / 2
    right, left = x1 + d + w / 2, x0 - d - w / 2
    mid_x, mid_y = np.full(rings, cx), np.full(rings, cy)
    xs = [mid_x, mid_x, right, left, right, left, right, left]
    ys = [above, below, mid_y, mid_y, above, above, below, below]
    for k in (0.5, 1.0):  # slid sideways along the top and bottom, up and down the sides
        east, west = np.full(rings, cx + k * w), np.full(rings, cx - k * w)
        north, south = np.full(rings, cy + k * h), np.full(rings, cy - k * h)
        xs += [east, west, east, west, right, right, left, left]
        ys += [above, above, below, below, north, south, north, south]
    c = np.stack([np.stack(xs, axis=1), np.stack(ys, axis=1)], axis=-1).reshape(-1, 2)
    # the gap between the label and what it names: beyond half a line it needs a leader
    gx = np.maximum(0.0, np.maximum(x0 - (c[:, 0] + w / 2), c[:, 0] - w / 2 - x1))
    gy = np.maximum(0.0, np.maximum(y0 - (c[:, 1] + h / 2), c[:, 1] - h / 2 - y1))
    return c, np.hypot(gx, gy) > max(line * 0.5, 8.0)


def along(p: tuple[float, float], q: tuple[float, float], size: tuple[float, float], line: float, rings: int = 6
          ) -> tuple[np.ndarray, np.ndarray]:
    """Candidate centres beside a segment, from its middle outwards, on either side; from the third
    step out (`line`: a line's height), with a leader line."""
    a, b = np.asarray(p, dtype=float), np.asarray(q, dtype=float)
    d = b - a
    length = max(float(np.hypot(*d)), 1e-9)
    n = np.array([-d[1], d[0]]) / length
    w, h = size[0] + 2 * PAD, size[1] + 2 * PAD
    extent = abs(n[0]) * w / 2 + abs(n[1]) * h / 2
    out: list[np.ndarray] = []
    lead: list[bool] = []
    for r in range(rings):
        off = extent + 3.0 + r * max(line * 0.6, 6.0)
        for t in (0.5, 0.4, 0.6, 0.3, 0.7, 0.2, 0.8):
            m = a + d * t
            out += [m + n * off, m - n * off]
            lead += [r >= 2, r >= 2]
    return np.asarray(out, dtype=float), np.asarray(lead, dtype=bool)


def spiral(centre: tuple[float, float], size: tuple[float, float], reach: float
           ) -> Iterator[tuple[np.ndarray, np.ndarray]]:
    """Candidates on squares of growing size around a point, a square per batch, for a label
    nothing near could take (each needs a leader line)."""
    cx, cy = centre
    w, h = size[0] + 2 * PAD, size[1] + 2 * PAD
    step = max(h * 0.5, 6.0)
    r = step
    while r <= reach:
        n = max(2, int(r / step))
        t = np.arange(-n, n + 1) / n
        xs, ys = cx + t * (r + w / 2), cy + t * (r + h / 2)
        top = np.column_stack([xs, np.full_like(xs, cy + r + h / 2)])
        bottom = np.column_stack([xs, np.full_like(xs, cy - r - h / 2)])
        right = np.column_stack([np.full_like(ys, cx + r + w / 2), ys])
        left = np.column_stack([np.full_like(ys, cx - r - w / 2), ys])
        square = np.vstack([top, bottom, right, left])
        yield square, np.ones(len(square), dtype=bool)
        r += step


def inside(centre: tuple[float, float], size: tuple[float, float]) -> tuple[np.ndarray, np.ndarray]:
    """Candidate centres at and near a point (a terrain piece's middle); never with a leader line."""
    cx, cy = centre
    w, h = size[0] + 2 * PAD, size[1] + 2 * PAD
    offsets = [(0, 0), (0, h), (0, -h), (w / 2, 0), (-w / 2, 0), (w / 2, h), (-w / 2, h), (w / 2, -h), (-w / 2, -h),
               (0, 2 * h), (0, -2 * h)]
    return np.asarray([(cx + dx, cy + dy) for dx, dy in offsets], dtype=float), np.zeros(len(offsets), dtype=bool)


# ---------------------------------------------------------------- a board's labels


def _texts(block: Block, box: tuple[float, float, float, float], k: float) -> list[TextItem]:
    """The block's lines stacked from the top of its box, each centred."""
    x0, _, x1, y1 = box
    y = y1
    out = []
    for text, size, weight, colour, halo in block.lines:
        h = size_of(text, size, weight)[1]
        width = (3.0 if halo == "white" else 7.0) * k  # a highlighter, not a halo, for the paths
        out.append(label((x0 + x1) / 2, y - h / 2, text, size, colour, weight=weight, halo=halo, halo_width=width,
                         gid=block.gid))
        y -= h
    return out


def _block_size(block: Block) -> tuple[float, float]:
    sizes = [size_of(t, s, w) for t, s, w, _, _ in block.lines]
    return (max(w for w, _ in sizes), sum(h for _, h in sizes))


def place_all(sc: Scene) -> None:
    """Every label of the scene, in order of importance: ships (the most crowded first), the
    preview, attacks, zones, then terrain names, which are left out where there is no room. A
    label that had to move away from what it names gets a leader line."""
    k = sc.k
    x0, y0, x1, y1 = sc.frame.plot
    placer = Placer((x0 + 2, y0 + 2, x1 - 2, y1 - 2), Obstacles(sc.hard), Obstacles(sc.soft))
    ships = np.array([np.asarray(b.where).mean(axis=0) for b in sc.blocks if b.mode == "around"]).reshape(-1, 2)
    rank = {"around": 0, "along": 1, "inside": 2, "terrain": 3}
    reach = max(x1 - x0, y1 - y0)  # as far as the whole board, if that is where the room is

    def crowding(block: Block) -> float:
        if block.mode != "around" or not len(ships):
            return 0.0
        d = np.hypot(*(ships - np.asarray(block.where).mean(axis=0)).T)
        return -float((d < 120 * k).sum())

    for block in sorted(sc.blocks, key=lambda b: (rank[b.mode], crowding(b), b.gid)):
        size = _block_size(block)
        line = size_of(*block.lines[0][:3])[1]
        where = np.asarray(block.where, dtype=float).reshape(-1, 2)
        if block.mode == "around":
            cands, lead = around((*where.min(axis=0), *where.max(axis=0)), size, line)
        elif block.mode == "along":
            cands, lead = along(tuple(where[0]), tuple(where[1]), size, line)
        else:
            cands, lead = inside(tuple(where[0]), size)
        batches: Iterable[tuple[np.ndarray, np.ndarray]] = [(cands, lead)]
        if block.mode != "terrain":
            middle = where.mean(axis=0)
            batches = itertools.chain(batches, spiral((float(middle[0]), float(middle[1])), size, reach))
        placed = placer.place(size, batches, optional=block.mode == "terrain",
                              anchor=where if len(where) > 2 else None)
        if placed is None:
            continue
        if not placed.clear:
            sc.unplaced.append(block.gid)
        middle = np.array([[(placed.box[0] + placed.box[2]) / 2, (placed.box[1] + placed.box[3]) / 2]])
        unclear = block.mode == "around" and bool(nearer_another(where, middle, placer.hard.lo, placer.hard.hi)[0])
        if placed.leader or unclear:
            # a label beside its ship but nearer another points into the middle of its own
            a, b = _leader(placed.box, where[None, :].mean(axis=1) if unclear else where)
            sc.pixels.append(Line2D([a[0], b[0]], [a[1], b[1]], color=style.LEADER, lw=1.3 * k, zorder=35,
                                    transform=IdentityTransform(), gid=f"leader:{block.gid}"))
        sc.texts += _texts(block, placed.box, k)


def nearer_another(anchor: np.ndarray, centres: np.ndarray, lo: np.ndarray, hi: np.ndarray) -> np.ndarray:
    """For each point: is one of the boxes (lo, hi: N x 2) nearer to it than the anchor's box is?
    A label whose middle is nearer another ship than its own could be read as naming that one."""
    alo, ahi = anchor.min(axis=0), anchor.max(axis=0)
    mid = (alo + ahi) / 2
    others = ~(np.all(lo <= mid, axis=1) & np.all(mid <= hi, axis=1))  # boxes holding the anchor are its own
    if not others.any() or not len(centres):
        return np.zeros(len(centres), dtype=bool)

    def dist(blo: np.ndarray, bhi: np.ndarray) -> np.ndarray:
        d = np.maximum(0.0, np.maximum(blo[None] - centres[:, None], centres[:, None] - bhi[None]))
        return np.asarray(np.hypot(d[..., 0], d[..., 1]))

    own = dist(alo[None], ahi[None])[:, 0]
    return np.asarray(dist(lo[others], hi[others]).min(axis=1) < own)


def _leader(box: tuple[float, float, float, float], anchor: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """From the nearest corner, edge middle or centre of what is named to the label's nearest point."""
    x0, y0, x1, y1 = box
    pts = np.vstack([anchor, anchor.mean(axis=0)[None, :], (anchor + np.roll(anchor, -1, axis=0)) / 2])
    near = np.column_stack([np.clip(pts[:, 0], x0, x1), np.clip(pts[:, 1], y0, y1)])
    i = int(np.argmin(np.hypot(*(pts - near).T)))
    return pts[i], near[i]
