"""Why a recount scene's hand is wrong (detector's boxes, or --truth-boxes): per failed hand, its
tiles missed, unread, misread, and the reader's group(s) for it with the tiles they hold besides.
python -m lab.diagnose.hands_why [--truth-boxes] SET [SET...]"""
import sys
from pathlib import Path

from lab.read.evaluate import Scores, load_frame, load_truth, score_image
from vision.detect import DEFAULT_MODEL, TileDetector
from vision.read.hands import SEATS
from vision.read.reader import read_frame
from vision.read.recount import no_ones
from vision.read.truthdet import BoxNoise, detections_from_corners


def main(argv: list[str]) -> None:
    truth_boxes = "--truth-boxes" in argv
    detector = None
    if not truth_boxes:
        detector = TileDetector(DEFAULT_MODEL)
    for root in [a for a in argv if not a.startswith("--")]:
        for n, ti in enumerate(load_truth(Path(root))):
            hands = {seat: [j for j, t in enumerate(ti.tiles) if t.owner == seat] for seat in SEATS}
            hands = {s: h for s, h in hands.items() if h}
            if not hands or any(not ti.tiles[j].counts or ti.tiles[j].face != "up" for h in hands.values() for j in h):
                continue
            frame = load_frame(ti)
            keep = [t for t in ti.tiles if t.counts]
            dets = detector.detect(frame) if detector else detections_from_corners(
                [t.corners for t in keep], [t.face for t in keep], BoxNoise(), seed=n)
            reading = read_frame(frame, dets)
            m = score_image(Scores(), ti, reading)
            inv = {j: i for i, j in m.items()}
            # the heap and the backs apart from the hands shown are no one's hand (`dominocam recount`)
            heap = set().union(*no_ones(reading, sum(t.owner == "boneyard" for t in ti.tiles)))
            seat_of = {i: s for s, ix in reading.layout.hands.items() for i in ix if i not in heap}
            owner = {i: ti.tiles[j].owner for i, j in m.items()}
            for seat, hand in hands.items():
                found = [inv.get(j) for j in hand]
                why = []
                missed = [ti.tiles[j].values for j in hand if j not in inv]
                if missed:
                    why.append(f"missed {missed}")
                for j in hand:
                    if j in inv:
                        r = reading.tiles[inv[j]]
                        tv = sorted(ti.tiles[j].values)
                        if r.face != "up" or r.values is None:
                            why.append(f"unread {tv}->{r.half_values}")
                        elif sorted(r.values) != tv:
                            why.append(f"misread {tv}->{list(r.values)}")
                groups = {seat_of.get(i) for i in found if i is not None}
                if None in groups:
                    why.append(f"{sum(seat_of.get(i) is None for i in found if i is not None)} tiles in no hand "
                               f"(layout/pieces: {sum(i in reading.layout.tiles for i in found if i is not None)})")
                named = sorted(g for g in groups if g)
                if len(named) > 1:
                    why.append(f"split over {named}")
                for g in named:
                    extra = [owner.get(i, "false box") for i in reading.layout.hands[g] if i not in found and i not in heap]
                    if extra:
                        why.append(f"group {g} also holds {extra}")
                if why:
                    print(Path(root).name, ti.name, seat, len(hand), "; ".join(why), flush=True)


if __name__ == "__main__":
    main(sys.argv[1:])
