"""Double-six tiles: frozen values written `a-b` with a <= b (`0-0` ... `6-6`)."""

from __future__ import annotations

from dataclasses import dataclass

from engine.errors import TileError

MAX_PIP = 6


@dataclass(frozen=True, eq=False, slots=True)
class Tile:
    """One tile; `Tile.parse("5-3") == Tile(3, 5)`, `str(Tile(3, 5)) == "3-5"`."""

    a: int
    b: int

    def __post_init__(self) -> None:
        if not (0 <= self.a <= self.b <= MAX_PIP):
            raise TileError(f"not a double-six tile: ({self.a}, {self.b}); write a-b with 0 <= a <= b <= 6")

    @classmethod
    def parse(cls, text: str) -> Tile:
        """Parse `a-b` or `b-a`. Raises `TileError` (a `ValueError`) on anything else."""
        tile = _BY_TEXT.get(text) if isinstance(text, str) else None
        if tile is None:
            raise TileError(f"unknown tile {text!r} (tiles are a-b with 0 <= a, b <= 6)")
        return tile

    def __str__(self) -> str:
        return f"{self.a}-{self.b}"

    # Hand-written: tiles are hashed and compared in every rule check.
    def __hash__(self) -> int:
        return self.a * 7 + self.b

    def __eq__(self, other) -> bool:
        if self is other:
            return True
        if other.__class__ is not Tile:
            return NotImplemented
        return self.a == other.a and self.b == other.b

    def __lt__(self, other: Tile) -> bool:
        return (self.a, self.b) < (other.a, other.b)

    def __le__(self, other: Tile) -> bool:
        return (self.a, self.b) <= (other.a, other.b)

    def __gt__(self, other: Tile) -> bool:
        return (self.a, self.b) > (other.a, other.b)

    def __ge__(self, other: Tile) -> bool:
        return (self.a, self.b) >= (other.a, other.b)

    def __repr__(self) -> str:
        return f"Tile({self.a}, {self.b})"

    @property
    def pips(self) -> int:
        return self.a + self.b

    @property
    def is_double(self) -> bool:
        return self.a == self.b

    @property
    def values(self) -> tuple[int, int]:
        return (self.a, self.b)

    def has(self, value: int) -> bool:
        return self.a == value or self.b == value

    def other(self, value: int) -> int:
        """The value on the half that does not show `value` (the tile must show it)."""
        return self.b if self.a == value else self.a


ALL_TILES: tuple[Tile, ...] = tuple(Tile(a, b) for a in range(MAX_PIP + 1) for b in range(a, MAX_PIP + 1))
_BY_TEXT: dict[str, Tile] = {}
for _t in ALL_TILES:
    _BY_TEXT[f"{_t.a}-{_t.b}"] = _t
    _BY_TEXT[f"{_t.b}-{_t.a}"] = _t
del _t

# Tiles showing each value (7 per value; the double counts once).
TILES_WITH: tuple[frozenset[Tile], ...] = tuple(
    frozenset(t for t in ALL_TILES if t.has(v)) for v in range(MAX_PIP + 1)
)


def parse_tiles(texts) -> tuple[Tile, ...]:
    """Parse a list of tile strings. Raises `TileError`."""
    if not isinstance(texts, list):
        raise TileError(f"expected a list of tiles, got {texts!r}")
    return tuple(Tile.parse(t) for t in texts)
