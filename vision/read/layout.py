"""The layout from one image: which tiles join, the tree they form, its open ends, and the hands.

Tiles join where a port of one (the outer end or a long side of a half, or the middle of a
double's long side) meets a port of the other facing it, and the two touching halves show the
same value (BYK-1.6). That covers lengthwise joins, crosswise doubles (BYK-1.7), right-angle bends
and crosses (BAL-9). A face-down tile joined at an end showing v is the closed double v-v
(SPI-4, BAL-12); nothing joins it further. Two tiles lying end to end in one line (or a tile's end
square against a double's middle) join even where their touching halves read differently: the joint
is marked as a mismatch (a misread, or a tile played against BYK-1.6) and settles nothing.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

import numpy as np

from vision.read.hands import group_hands, linked

PORT_TOL = 0.45  # how far apart two facing ports may be, in tile widths
PORT_SLACK_PX = 2.0  # plus this many pixels: a box's edge is a pixel or two off at any size
FIX_TOL = 0.3  # a contact this tight may settle a doubtful half from its neighbour
SURE = 0.9  # half confidence that counts as sure
# A joint overrides a doubtful half only from a neighbour this sure: one read at 0.92 turned a right
# 3 read at 0.897 into a wrong 2 (held-out 1080p render s21_000039; session 15: exact tiles with the
# detector 1080p 97.53 -> 97.66 %, nothing else changed; at 0.99 the 640 and 1280 sets lost tiles).
FIX_SURE = 0.95
NORMAL_TOL = 0.8  # minimum -cos between the two ports' outward normals
# A tile's side touched by another (a bend, or a double's middle beside a tile) is weaker evidence
# than tiles in line: many things lie against a side by chance. Such a joint needs boxes the
# detector is this sure of (held-out renders, session 14: the three false boxes joined at a side
# were scored 0.27-0.34, the least sure true tiles joined so 0.40 and 0.43).
SIDE_SCORE = 0.35
AGAINST_LAYOUT = 0.85  # a lone tile this near a layout tile (centres, in tile lengths) is the chain's
IN_LINE_COS = 0.97  # two tiles this parallel, end to end, lie in one line
MISMATCH_PENALTY = 0.4  # a joint whose halves read differently is taken after the others


@dataclass(frozen=True)
class LayoutTile:
    """What the layout needs from a read tile."""

    halves: np.ndarray  # (2, 2) half centres
    u: np.ndarray  # unit long axis, half 0 -> half 1
    width: float
    values: tuple[int | None, int | None] | None  # None: face down
    face: str = "up"
    confidence: tuple[float, float] = (1.0, 1.0)  # per half, calibrated
    no_face: tuple[bool, bool] = (False, False)  # per half: left unread as showing no tile face
    score: float = 1.0  # the detector's score for the box

    @property
    def is_double(self) -> bool:
        return self.values is not None and self.values[0] is not None and self.values[0] == self.values[1]


@dataclass(frozen=True)
class Port:
    tile: int
    half: int  # 0, 1, or -1 for the middle of a double's long side
    kind: str  # "end", "side", "mid"
    point: np.ndarray
    normal: np.ndarray


@dataclass(frozen=True)
class Join:
    a: int
    b: int
    joint: int | None  # value at the joint (None if unknown)
    half_a: int  # which half of a touches (-1: double's middle)
    half_b: int
    gap: float  # port distance in tile widths (smaller is better)
    fix: tuple[int, int, int] | None = None  # (tile, half, value) the joint settles
    mismatch: bool = False  # tiles in line whose touching halves read differently (or one unread)
    kinds: tuple[str, str] = ("end", "end")  # the touching ports' kinds (end, side, mid)


@dataclass
class FrameLayout:
    tiles: list[int]  # indices of the tiles in the layout
    joins: list[Join]
    ends: list[tuple[int, int]]  # (tile, open value)
    parent: dict[int, int | None] = field(default_factory=dict)  # tree from `root`
    root: int | None = None
    inferred: dict[int, tuple[int, int]] = field(default_factory=dict)  # face-down closed doubles
    fixed: dict[tuple[int, int], int] = field(default_factory=dict)  # (tile, half) -> value from a joint
    hands: dict[str, list[int]] = field(default_factory=dict)
    # bits of the chain apart from the layout: joined pieces (`_chain_pieces`), lone tiles against it (`_against_layout`)
    pieces: list[list[int]] = field(default_factory=list)

    @property
    def edges(self) -> list[tuple[int, int]]:
        return [(min(j.a, j.b), max(j.a, j.b)) for j in self.joins]


def ports(i: int, t: LayoutTile) -> list[Port]:
    n = float(np.hypot(*t.u))
    u = t.u / n if n > 1e-9 else np.array([1.0, 0.0])
    v = np.array([-u[1], u[0]])
    w = t.width
    out = []
    for k, sign in ((0, -1.0), (1, 1.0)):
        h = t.halves[k]
        out.append(Port(i, k, "end", h + sign * u * w / 2, sign * u))
        out.append(Port(i, k, "side", h + v * w / 2, v))
        out.append(Port(i, k, "side", h - v * w / 2, -v))
    c = t.halves.mean(axis=0)
    if t.is_double or t.values is None:
        out.append(Port(i, -1, "mid", c + v * w / 2, v))
        out.append(Port(i, -1, "mid", c - v * w / 2, -v))
    return out


def _conf(t: LayoutTile, half: int) -> float:
    if t.values is None:
        return 1.0
    return min(t.confidence) if half == -1 else t.confidence[half]


def _value(t: LayoutTile, half: int) -> int | None:
    if t.values is None:
        return None
    return t.values[0] if half == -1 else t.values[half]


def _faceless(t: LayoutTile, half: int) -> bool:
    """A joint may not settle this half: the tile shows no value at all and a half of it no tile
    face (a false box by a tile's end joined the chain as a 0 that way, held-out render s8_000028;
    held-out renders, session 12: layout exact 1280 89.7 -> 92.3 %, nothing else changed; barring
    every no-face half instead broke a chain and lost 1-2 exact tiles a set)."""
    return t.values[1 - half] is None and any(t.no_face)


def _in_line(pa: Port, pb: Port, ta: LayoutTile, tb: LayoutTile) -> bool:
    """Two tiles lying end to end in one line, or a tile's end square against a double's middle,
    touching (the caller checked how close): placed so only as a chain's neighbours, whatever their
    halves were read as."""
    kinds = {pa.kind, pb.kind}
    if kinds not in ({"end"}, {"end", "mid"}):
        return False
    if any(t.values is None or all(v is None for v in t.values) or any(t.no_face) for t in (ta, tb)):
        return False  # a tile with no value read, or a half showing no face: perhaps no tile at all
    ua, ub = ta.u / max(float(np.hypot(*ta.u)), 1e-9), tb.u / max(float(np.hypot(*tb.u)), 1e-9)
    along = abs(float(ua @ ub))
    square = along >= IN_LINE_COS if kinds == {"end"} else along <= (1.0 - IN_LINE_COS ** 2) ** 0.5
    return square and -float(pa.normal @ pb.normal) >= IN_LINE_COS


def candidate_joins(tiles: list[LayoutTile]) -> list[Join]:
    """Every pair of facing ports whose halves show the same value (or where one tile is face down)."""
    all_ports = [p for i, t in enumerate(tiles) for p in ports(i, t)]
    if not all_ports:
        return []
    pts = np.array([p.point for p in all_ports])
    nrm = np.array([p.normal for p in all_ports])
    owner = np.array([p.tile for p in all_ports])
    widths = np.array([max(tiles[p.tile].width, 1.0) for p in all_ports])
    narrow = np.minimum(widths[:, None], widths[None])
    px = np.sqrt(((pts[:, None] - pts[None]) ** 2).sum(axis=2))
    d = px / narrow
    facing = -(nrm @ nrm.T) > NORMAL_TOL
    close = (px < PORT_TOL * narrow + PORT_SLACK_PX) & facing & (owner[:, None] < owner[None])
    best: dict[tuple[int, int, int, int], Join] = {}
    for a, b in zip(*np.nonzero(close), strict=True):
        pa, pb = all_ports[a], all_ports[b]
        ta, tb = tiles[pa.tile], tiles[pb.tile]
        if pa.kind == "side" and pb.kind == "side":
            continue  # tiles lying side by side do not join
        if ta.values is None and tb.values is None:
            continue
        if "side" in (pa.kind, pb.kind) and min(ta.score, tb.score) < SIDE_SCORE:
            continue
        if pa.kind == "side" and tb.values is None or pb.kind == "side" and ta.values is None:
            continue  # a closed double lies across the line's end, not along a side
        va, vb = _value(ta, pa.half), _value(tb, pb.half)
        ca, cb = _conf(ta, pa.half), _conf(tb, pb.half)
        fix = None  # (tile, half, value): a doubtful half the joint corrects
        mismatch = False
        if (va is None and ta.values is not None) or (vb is None and tb.values is not None) or (
                va is not None and vb is not None and va != vb):
            # touching halves carry one value (BYK-1.6): a tight end-to-end contact may settle a
            # half that was unread or read with low confidence, from a confident neighbour
            tight = float(px[a, b]) < FIX_TOL * float(narrow[a, b]) + PORT_SLACK_PX and "side" not in (pa.kind, pb.kind)
            if not tight or ta.values is None or tb.values is None:
                continue
            if va is not None and ca >= FIX_SURE and (vb is None or cb < SURE):
                fix = (pb.tile, pb.half, va)
            elif vb is not None and cb >= FIX_SURE and (va is None or ca < SURE):
                fix = (pa.tile, pa.half, vb)
            if fix is not None and (fix[1] == -1 or _faceless(tiles[fix[0]], fix[1])):
                fix = None
            if fix is None:
                # no half to settle: tiles lying so are still the chain's neighbours
                if not _in_line(pa, pb, ta, tb):
                    continue
                mismatch = True
        joint = None if mismatch else fix[2] if fix else (va if va is not None else vb)
        key = (pa.tile, pa.half, pb.tile, pb.half)
        # ends meeting ends is the usual join; prefer it over side contacts, and sure joints over fixes
        gap = float(d[a, b]) + (0.05 if "side" in (pa.kind, pb.kind) else 0.0) + (0.2 if fix else 0.0) + (
            MISMATCH_PENALTY if mismatch else 0.0)
        if key not in best or gap < best[key].gap:
            best[key] = Join(pa.tile, pb.tile, joint, pa.half, pb.half, gap, fix, mismatch, (pa.kind, pb.kind))
    return sorted(best.values(), key=lambda j: j.gap)


def _capacity_key(tiles: list[LayoutTile], i: int, half: int) -> tuple[int, int]:
    # a plain tile's half joins once; a double's middle and ends each join once; a closed double once
    if tiles[i].values is None:
        return (i, 9)
    return (i, half)


SWAP_TRIES = 12  # joins given up in turn to let a blocked one in (each a greedy pass)


def _ports_of(tiles: list[LayoutTile], j: Join) -> list[tuple[int, int]]:
    """The capacity each side of a join takes (`_capacity_key`: (tile, -1) for a double's middle)."""
    return [_capacity_key(tiles, j.a, j.half_a), _capacity_key(tiles, j.b, j.half_b)]


def nearest_joins(tiles: list[LayoutTile], candidates: list[Join]) -> tuple[list[Join], list[Join]]:
    """Join by port distance, no cycles, each port once (a double's middle twice). Returns the
    joins and the candidates refused only because a port was taken while they would have joined
    two separate pieces."""
    n = len(tiles)
    used: set[tuple[int, int]] = set()
    mid_used: dict[int, int] = {}
    parent_uf = list(range(n))

    def find(x: int) -> int:
        while parent_uf[x] != x:
            parent_uf[x] = parent_uf[parent_uf[x]]
            x = parent_uf[x]
        return x

    joins: list[Join] = []
    blocked: list[Join] = []
    for j in candidates:
        ka, kb = _capacity_key(tiles, j.a, j.half_a), _capacity_key(tiles, j.b, j.half_b)
        ra, rb = find(j.a), find(j.b)
        if ra == rb:
            continue
        # a double's middle takes one tile on each long side
        if ka in used or kb in used or (j.half_a == -1 and mid_used.get(j.a, 0) >= 2) or (
                j.half_b == -1 and mid_used.get(j.b, 0) >= 2):
            blocked.append(j)
            continue
        parent_uf[ra] = rb
        for k, t, h in ((ka, j.a, j.half_a), (kb, j.b, j.half_b)):
            if h == -1 and tiles[t].values is not None:
                mid_used[t] = mid_used.get(t, 0) + 1
            else:
                used.add(k)
        joins.append(j)
    return joins, blocked


def _pieces(joins: list[Join]) -> list[list[int]]:
    """The joined pieces (connected tiles, each sorted), in order of their lowest tile."""
    adj: dict[int, list[int]] = {}
    for j in joins:
        adj.setdefault(j.a, []).append(j.b)
        adj.setdefault(j.b, []).append(j.a)
    out: list[list[int]] = []
    seen: set[int] = set()
    for s in sorted(adj):
        if s in seen:
            continue
        piece, todo = [], [s]
        seen.add(s)
        while todo:
            x = todo.pop()
            piece.append(x)
            for y in adj[x]:
                if y not in seen:
                    seen.add(y)
                    todo.append(y)
        out.append(sorted(piece))
    return out


def _largest(joins: list[Join]) -> list[int]:
    """The tiles of the largest joined piece ([] when nothing joins; of two as large, the one
    with the lower tile)."""
    return max(_pieces(joins), key=len, default=[])


def _lying(tiles: list[LayoutTile]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Each tile's centre, unit long axis and length, as `vision.read.hands.linked` takes them."""
    c = np.array([t.halves.mean(axis=0) for t in tiles]).reshape(-1, 2)
    u = np.array([t.u / max(float(np.hypot(*t.u)), 1e-9) for t in tiles]).reshape(-1, 2)
    return c, u, np.array([2.0 * t.width for t in tiles])


def _in_hands(tiles: list[LayoutTile], joins: list[Join]) -> list[Join]:
    """`joins` less those of pieces lying in hands: a piece whose every tile lies in a run of
    tiles side by side (`vision.read.hands.linked`) with tiles joined to nothing, at least as many
    of them as the piece has. Two tiles of a hand laid side by side join where one is a double (its
    middle against the other's side), and two hands meeting at a corner join end to side; either
    pair, taken for the layout, would leave the real one (a lone opener) out. A chain laid
    staggered (doubles beside their neighbours) is such a run too, but of its own tiles."""
    pieces = _pieces(joins)
    joined = {t for p in pieces for t in p}
    loose = {i for i in range(len(tiles)) if i not in joined}
    if not loose:
        return joins
    beside = linked(*_lying(tiles), rows=False)
    drop: set[int] = set()
    for piece in pieces:
        nodes = loose | set(piece)
        runs: list[set[int]] = []  # the piece's tiles' runs of tiles side by side, over nodes
        for start in piece:
            if any(start in r for r in runs):
                continue
            run, todo = {start}, [start]
            while todo:
                for y in map(int, np.nonzero(beside[todo.pop()])[0]):
                    if y in nodes and y not in run:
                        run.add(y)
                        todo.append(y)
            runs.append(run)
        if all(r & loose for r in runs) and len(set().union(*runs) & loose) >= len(piece):
            drop |= set(piece)
    return [j for j in joins if j.a not in drop]


def _against_layout(tiles: list[LayoutTile], members: set[int], placed: set[int]) -> list[list[int]]:
    """Lone tiles against the layout: a tile outside everything `placed`, lying by no other such
    tile (`vision.read.hands.linked`), its centre within AGAINST_LAYOUT tile lengths of a layout
    tile's. Hands are laid apart from the chain; such a tile is the chain's, unjoined because a half
    was misread or its neighbour is hidden (held-out renders, session 14, the renderer's boxes: 5
    such chain tiles at 0.71-0.82 lengths, the nearest lone hand tile at 1.36)."""
    rest = [i for i in range(len(tiles)) if i not in placed]
    if not members or not rest:
        return []
    c, u, length = _lying(tiles)
    near = linked(c[rest], u[rest], length[rest])
    np.fill_diagonal(near, False)
    lay = sorted(members)
    d = np.hypot(*(c[rest][:, None] - c[lay][None]).transpose(2, 0, 1))
    reach = AGAINST_LAYOUT * np.maximum(length[rest][:, None], length[lay][None])
    return [[i] for k, i in enumerate(rest) if not near[k].any() and (d[k] < reach[k]).any()]


def _chain_pieces(joins: list[Join], members: set[int]) -> list[list[int]]:
    """The joined pieces besides the layout that are bits of the chain (cut off from it by an arm
    over the table, or by a joint misread), not hands: a piece with a tile's end in a joint. Tiles
    of a hand lie side by side, where the only joint possible is a double's middle against a
    neighbour's side (held-out renders, session 14, the renderer's boxes: every joint between
    hand tiles (24) was one, and 516 of the 532 joints in the chain's other pieces had an end)."""
    ends = {t for j in joins if "end" in j.kinds for t in (j.a, j.b)}
    return [p for p in _pieces([j for j in joins if j.a not in members]) if ends & set(p)]


def select_joins(tiles: list[LayoutTile], candidates: list[Join]) -> list[Join]:
    """The greedy joins, then, where a join that would have linked two pieces was refused for a
    port already taken, the join holding that port is given up in turn and the greedy pass run
    again; kept when the layout (the largest piece) grows by two tiles or more. In a chain folded
    tightly onto itself a half can face two halves of its value, and the nearer is not always its
    neighbour."""
    best, blocked = nearest_joins(tiles, candidates)
    size, tries = len(_largest(best)), 0
    banned: set[Join] = set()
    while blocked and tries < SWAP_TRIES:
        wanted = {p for b in blocked for p in _ports_of(tiles, b)}
        suspects = [j for j in best if j not in banned and wanted & set(_ports_of(tiles, j))]
        for k in suspects[: SWAP_TRIES - tries]:
            tries += 1
            trial, trial_blocked = nearest_joins(tiles, [c for c in candidates if c != k and c not in banned])
            # by two tiles at least: a piece of the chain, not one stray box (a false one on a
            # chain's tiles joins wherever a port is given up)
            if len(_largest(trial)) >= size + 2:
                best, blocked, size = trial, trial_blocked, len(_largest(trial))
                banned.add(k)
                break
        else:
            break
    return best


def build_layout(tiles: list[LayoutTile], size: tuple[int, int] | None = None,
                 root: int | None = None) -> FrameLayout:
    """Join tiles into a tree (`select_joins`; pieces lying in hands left out), keep the largest
    tree as the layout and the other pieces with a tile's end in a joint, and lone tiles against
    it, as bits of the chain; infer closed doubles, find open ends, and group the remaining tiles
    into seats' hands."""
    n = len(tiles)
    joins = _in_hands(tiles, select_joins(tiles, candidate_joins(tiles)))
    members = _largest(joins) or _lone_opener(tiles, size)
    member_set = set(members)
    pieces = _chain_pieces(joins, member_set)
    pieces = sorted(pieces + _against_layout(tiles, member_set, member_set.union(*pieces)))
    joins = [j for j in joins if j.a in member_set]
    inferred = {}
    fixed = {(j.fix[0], j.fix[1]): j.fix[2] for j in joins if j.fix}
    for j in joins:
        for t in (j.a, j.b):
            if tiles[t].values is None and j.joint is not None:
                inferred[t] = (j.joint, j.joint)
    if fixed:
        tiles = list(tiles)
        for (t, k), v in fixed.items():
            vals = list(tiles[t].values)
            vals[k] = v
            tiles[t] = replace(tiles[t], values=(vals[0], vals[1]))
    ends = open_ends(tiles, members, joins)
    lay = FrameLayout(sorted(members), joins, ends, inferred=inferred, fixed=fixed, pieces=pieces)
    if members:
        lay.root = root if root in member_set else _central(tiles, members)
        lay.parent = _tree(lay.root, joins)
    placed = member_set.union(*pieces)
    lay.hands = group_hands([t.halves for t in tiles], [t.width for t in tiles],
                            [i for i in range(n) if i not in placed], size)
    return lay


def _central(tiles: list[LayoutTile], members: list[int]) -> int:
    cs = np.array([tiles[i].halves.mean(axis=0) for i in members])
    c = cs.mean(axis=0)
    return members[int(np.argmin(((cs - c) ** 2).sum(axis=1)))]


def _lone_opener(tiles: list[LayoutTile], size: tuple[int, int] | None) -> list[int]:
    """With no joins, the layout is one face-up tile in the middle of the table (the opener), if
    there is one well inside the frame."""
    if size is None or not tiles:
        return []
    w, h = size
    best, best_d = None, 0.3
    for i, t in enumerate(tiles):
        if t.values is None:
            continue
        c = t.halves.mean(axis=0)
        d = max(abs(c[0] / w - 0.5), abs(c[1] / h - 0.5))
        if d < best_d:
            best, best_d = i, d
    return [] if best is None else [best]


def _tree(root: int, joins: list[Join]) -> dict[int, int | None]:
    adj: dict[int, list[int]] = {}
    for j in joins:
        adj.setdefault(j.a, []).append(j.b)
        adj.setdefault(j.b, []).append(j.a)
    parent: dict[int, int | None] = {root: None}
    stack = [root]
    while stack:
        x = stack.pop()
        for y in adj.get(x, []):
            if y not in parent:
                parent[y] = x
                stack.append(y)
    return parent


def open_ends(tiles: list[LayoutTile], members: list[int], joins: list[Join]) -> list[tuple[int, int]]:
    """Open ends of a line layout: the free value of every tile joined once (a double's value), or
    both values of a lone opener. Closed (face-down) doubles end nothing (SPI-4, BAL-12)."""
    halves_used: dict[int, list[int]] = {i: [] for i in members}
    for j in joins:
        halves_used[j.a].append(j.half_a)
        halves_used[j.b].append(j.half_b)
    ends = []
    for i in members:
        t = tiles[i]
        if t.values is None or None in t.values:
            continue
        used = halves_used[i]
        if t.is_double:
            if len(used) <= 1:
                ends.extend([(i, t.values[0])] * (2 - len(used)))
            continue
        free = [k for k in (0, 1) if k not in used]
        if len(used) == 1 or not used:
            ends.extend((i, t.values[k]) for k in free)
    return ends
