"""Several rendered deals played one after another as one camera's view of a club table.

Each deal's video ends with the hands face up; the table then stays in view for `hold_s` (the
recount is read), and the next video starts on a cleared table (the next deal's hands face down,
no layout), shown still for `lead_s` first, as while the tiles are shuffled and dealt. Times run on across the deals, so a reader of the renderer's truth indexes all of
them as one video (`truths`). Looping starts the list again: a new deal, never a finished one
replayed onto the next.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

import cv2

from vision.live.sources import IMAGE_SUFFIXES, SourceEnded, SourceError


@dataclass(frozen=True)
class Clip:
    """One deal's frames and (where rendered) per-frame truth files, with the last one held."""

    frames: tuple[Path, ...]
    truths: tuple[Path, ...] | None


def clip(frames: Path, truth: Path | None, fps: float, hold_s: float, lead_s: float = 0.0) -> Clip:
    """A video folder's frames in order, its first frame shown for `lead_s` before them and its
    last repeated for `hold_s` (raises SourceError for a folder without images)."""
    files = sorted(p for p in Path(frames).iterdir() if p.suffix.lower() in IMAGE_SUFFIXES)
    if not files:
        raise SourceError(f"{frames} holds no images")
    lead, extra = round(lead_s * fps), round(hold_s * fps)
    truths = None
    if truth is not None and Path(truth).is_dir():
        found = sorted(Path(truth).glob("*.json"))
        if len(found) == len(files):
            truths = tuple([found[0]] * lead + found + [found[-1]] * extra)
    return Clip(tuple([files[0]] * lead + files + [files[-1]] * extra), truths)


class PlaylistSource:
    """The clips' frames in order at `fps` (FrameSource), the clock running on across clips."""

    live = False

    def __init__(self, clips: list[Clip], fps: float = 10.0, *, loop: bool = True,
                 name: str = "demo") -> None:
        self.files = [f for c in clips for f in c.frames]
        self.fps = fps
        self.loop = loop
        self.name = name
        self._n = 0

    def open(self) -> None:
        if not self.files:
            raise SourceError(f"{self.name}: no frames to play")

    def read(self):
        if self._n >= len(self.files) and not self.loop:
            raise SourceEnded(self.name)
        path = self.files[self._n % len(self.files)]
        t = self._n / self.fps
        self._n += 1
        frame = cv2.imread(str(path))
        if frame is None:
            raise SourceError(f"cannot read {path}")
        return frame, t

    def close(self) -> None:
        pass


def truths(clips: list[Clip]) -> list[dict] | None:
    """Every frame's truth across the clips, in the source's order (None: a clip has none)."""
    if any(c.truths is None for c in clips):
        return None
    cache: dict[Path, dict] = {}
    out = []
    for c in clips:
        for p in c.truths or ():
            if p not in cache:
                cache[p] = json.loads(p.read_text())
            out.append(cache[p])
    return out
