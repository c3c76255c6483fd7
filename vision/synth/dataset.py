"""Write a rendered data set: images, YOLO-OBB labels, truth JSON and data.yaml (CONTRACTS.md)."""

from __future__ import annotations

import json
import logging
import math
import multiprocessing
from functools import partial
from pathlib import Path

import cv2
import numpy as np
from tqdm import tqdm

from vision.synth.camera import encode_jpeg
from vision.synth.looks import FACTORS
from vision.synth.looks import look as named_look
from vision.synth.scene import render_scene

log = logging.getLogger(__name__)
CLASS_NAMES = ["tile_up", "tile_down"]


def image_rng(seed: int, index: int) -> np.random.Generator:
    """Each image has its own stream, so any image can be rebuilt alone and order does not matter."""
    return np.random.default_rng([int(seed), int(index), 0x5EED])


def default_val_count(n: int) -> int:
    return 0 if n < 2 else min(200, max(1, n // 8))


def write_data_yaml(out: Path) -> None:
    text = (f"path: {out.resolve()}\ntrain: images/train\nval: images/val\n"
            f"names:\n" + "".join(f"  {i}: {n}\n" for i, n in enumerate(CLASS_NAMES)))
    (out / "data.yaml").write_text(text)


def write_images(out: Path, n: int, seed: int, size: tuple[int, int], n_val: int | None = None,
                 progress: bool = True, kinds: list[str] | None = None, processes: int = 1,
                 look: str | None = None, variants: bool = False) -> dict:
    """Render `n` stills; the last `n_val` go to the validation split. Returns counts.
    `kinds` restricts the scene kinds (see `scene.KINDS`), picked in turn. With `processes` > 1
    the images are rendered in that many processes; the files are the same bytes either way.
    `look` names a factor of `vision.synth.looks` that every image has; `variants` draws each
    scene's set make at random (the six's arrangement, the divider, pip size and kind)."""
    n_val = default_val_count(n) if n_val is None else n_val
    for split in ("train", "val"):
        (out / "images" / split).mkdir(parents=True, exist_ok=True)
        (out / "labels" / split).mkdir(parents=True, exist_ok=True)
    (out / "truth").mkdir(parents=True, exist_ok=True)
    job = partial(_write_one, out, seed, size, n - n_val, kinds, look, variants)
    bar = partial(tqdm, total=n, desc="images", unit="img", disable=not progress)
    if processes > 1:
        with multiprocessing.get_context("spawn").Pool(processes) as pool:
            counts = list(bar(pool.imap(job, range(n), chunksize=8)))
    else:
        counts = [job(i) for i in bar(range(n))]
    n_tiles, n_labels = sum(c[0] for c in counts), sum(c[1] for c in counts)
    write_data_yaml(out)
    log.info("wrote %d images (%d val) with %d labelled tiles to %s", n, n_val, n_labels, out)
    return {"images": n, "val": n_val, "tiles": n_tiles, "labels": n_labels}


def _write_one(out: Path, seed: int, size: tuple[int, int], n_train: int, kinds: list[str] | None,
               look: str | None, variants: bool, i: int) -> tuple[int, int]:
    """Render and write image `i` (train split below `n_train`, else val); (tiles, labels)."""
    split = "val" if i >= n_train else "train"
    name = f"s{seed}_{i:06d}"
    side = np.random.default_rng([int(seed), int(i), 0x100C]) if variants else None
    r = render_scene(image_rng(seed, i), size, kind=kinds[i % len(kinds)] if kinds else None,
                     look=named_look(look) if look else None, variant_rng=side)
    (out / "images" / split / f"{name}.jpg").write_bytes(encode_jpeg(r.image, r.jpeg_quality))
    lines = r.yolo_lines()
    (out / "labels" / split / f"{name}.txt").write_text("".join(line + "\n" for line in lines))
    truth = r.truth(f"images/{split}/{name}.jpg")
    (out / "truth" / f"{name}.json").write_text(json.dumps(truth, separators=(",", ":")))
    return len(r.tiles), len(lines)


def contact_sheet(path: Path, seed: int, count: int = 24, cols: int = 6, size: tuple[int, int] = (640, 480),
                  thumb: int = 256) -> None:
    """A grid of `count` random renders (after JPEG), for seeing the variety at a glance."""
    thumbs = []
    for i in tqdm(range(count), desc="contact sheet", unit="img"):
        r = render_scene(image_rng(seed, 10_000 + i), size)
        img = cv2.imdecode(np.frombuffer(encode_jpeg(r.image, r.jpeg_quality), np.uint8), cv2.IMREAD_COLOR)
        th = int(thumb * size[1] / size[0])
        small = cv2.resize(img, (thumb, th), interpolation=cv2.INTER_AREA)
        cv2.putText(small, r.kind, (4, th - 6), cv2.FONT_HERSHEY_SIMPLEX, 0.4, (0, 0, 0), 3, cv2.LINE_AA)
        cv2.putText(small, r.kind, (4, th - 6), cv2.FONT_HERSHEY_SIMPLEX, 0.4, (255, 255, 255), 1, cv2.LINE_AA)
        thumbs.append(small)
    rows = math.ceil(count / cols)
    blank = np.zeros_like(thumbs[0])
    grid = [np.hstack([thumbs[r * cols + c] if r * cols + c < count else blank for c in range(cols)]) for r in range(rows)]
    path.parent.mkdir(parents=True, exist_ok=True)
    cv2.imwrite(str(path), np.vstack(grid), [cv2.IMWRITE_PNG_COMPRESSION, 9])


def looks_sheet(path: Path, seed: int, cols: int = 5, size: tuple[int, int] = (1280, 960)) -> None:
    """One scene under every look of `vision.synth.looks` (the same tiles, one factor changed
    each), a 1:1 crop round the image's centre labelled with the look's name."""
    crops = []
    for name, lk in tqdm(FACTORS.items(), desc="looks", unit="look"):
        r = render_scene(image_rng(seed, 30_000), size, kind="chain", look=lk)
        img = cv2.imdecode(np.frombuffer(encode_jpeg(r.image, r.jpeg_quality), np.uint8), cv2.IMREAD_COLOR)
        h, w = img.shape[:2]
        crops.append(_label(img[h // 2 - 150:h // 2 + 150, w // 2 - 200:w // 2 + 200], name))
    blank = np.zeros_like(crops[0])
    crops += [blank] * (-len(crops) % cols)
    rows = [np.hstack(crops[i:i + cols]) for i in range(0, len(crops), cols)]
    path.parent.mkdir(parents=True, exist_ok=True)
    cv2.imwrite(str(path), np.vstack(rows), [cv2.IMWRITE_PNG_COMPRESSION, 9, cv2.IMWRITE_JPEG_QUALITY, 85])


def _label(img: np.ndarray, text: str) -> np.ndarray:
    img = img.copy()
    cv2.putText(img, text, (6, 20), cv2.FONT_HERSHEY_SIMPLEX, 0.55, (0, 0, 0), 3, cv2.LINE_AA)
    cv2.putText(img, text, (6, 20), cv2.FONT_HERSHEY_SIMPLEX, 0.55, (255, 255, 255), 1, cv2.LINE_AA)
    return img


def real_vs_render(real_dir: Path, path: Path, seed: int = 0, photos: tuple[str, ...] = ("1_05.jpg", "1_20.jpg")) -> None:
    """Real photos next to renders of the same scale (tile long side ~54 px at 768x1020), whole
    frames on top and 1:1 crops below. Only for judging realism: never train on the real photos."""
    panel_w = 400
    tops, crops = [], []
    for name in photos:
        img = cv2.imread(str(real_dir / name))
        if img is None:
            raise FileNotFoundError(f"no photo {real_dir / name}; pass the folder of the real photos with --real")
        img = cv2.resize(img, (img.shape[1] // 2, img.shape[0] // 2), interpolation=cv2.INTER_AREA)
        tops.append(_label(cv2.resize(img, (panel_w, panel_w * img.shape[0] // img.shape[1]), interpolation=cv2.INTER_AREA), f"real {name}"))
        h, w = img.shape[:2]
        crops.append(_label(img[h // 2 - 200:h // 2 + 200, w // 2 - 200:w // 2 + 200], "real, 1:1"))
    size = (768, 1020)
    for i, kind in enumerate(("board", "board")):
        rng = image_rng(seed, 20_000 + i)
        r = render_scene(rng, size, kind=kind, length=54.0, surface="wood", max_tilt_deg=8.0, style_kind="white")
        img = cv2.imdecode(np.frombuffer(encode_jpeg(r.image, 90), np.uint8), cv2.IMREAD_COLOR)
        tops.append(_label(cv2.resize(img, (panel_w, panel_w * size[1] // size[0]), interpolation=cv2.INTER_AREA), f"render ({kind})"))
        crops.append(_label(img[size[1] // 2 - 200:size[1] // 2 + 200, size[0] // 2 - 200:size[0] // 2 + 200], "render, 1:1"))
    top_h = min(t.shape[0] for t in tops)
    sheet = np.vstack([np.hstack([t[:top_h] for t in tops]), np.hstack(crops)])
    path.parent.mkdir(parents=True, exist_ok=True)
    cv2.imwrite(str(path), sheet, [cv2.IMWRITE_PNG_COMPRESSION, 9])
