"""One line per set from the JSON lines `dominocam eval` writes under each DIR (live results
skipped): python -m lab.diagnose.summarise DIR..."""

import json
import pathlib
import sys


def main(argv: list[str]) -> None:
    for d in argv:
        for f in sorted(pathlib.Path(d).glob("*.jsonl")):
            if f.stem.startswith("live"):
                continue
            for line in f.read_text().splitlines():
                r = json.loads(line)
                print(f"{f.parent.name}/{f.stem:9s} {str(r.get('data', '?'))[-14:]:>14s}@{r.get('scale', 1)} "
                      f"recall {r['recall']} exact {r.get('exact_tiles')} {r.get('exact_tiles_count')} "
                      f"half {r.get('per_half')} unread {r.get('halves_unread')} "
                      f"vis {r.get('exact_tiles_fully_visible')} layout {r.get('layout_exact')} "
                      f"false {r.get('false_tiles')}")


if __name__ == "__main__":
    main(sys.argv[1:])
