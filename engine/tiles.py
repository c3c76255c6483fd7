"""Double-six tiles: frozen values written `a-b` with a <= b (`0-0` ... `6-6`)."""

from __future__ import annotations

from collections import namedtuple

from engine.errors import TileError

MAX_PIP = 6


class Tile(namedtuple("_TileBase", "a b")):
    """One tile, immutable; `Tile.parse("5-3") == Tile(3, 5)`, `str(Tile(3, 5)) == "3-5"`.

    A named tuple underneath: hashing and comparing happen in C, which the rule checks do on
    every event.
    """

    __slots__ = ()

    def __new__(cls, a: int, b: int) -> Tile:
        if not (isinstance(a, int) and isinstance(b, int) and 0 <= a <= b <= MAX_PIP):
            raise TileError(f"not a double-six tile: ({a!r}, {b!r}); write a-b with 0 <= a <= b <= 6")
        return super().__new__(cls, a, b)

    @classmethod
    def parse(cls, text: str) -> Tile:
        """Parse `a-b` or `b-a`. Raises `TileError` (a `ValueError`) on anything else."""
        try:
            return _BY_TEXT[text]
        except (KeyError, TypeError):
            raise TileError(f"unknown tile {text!r} (tiles are a-b with 0 <= a, b <= 6)") from None

    def __str__(self) -> str:
        return f"{self.a}-{self.b}"

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
