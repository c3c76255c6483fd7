"""`dominocam read` through the trained detector (models/tiles-obb.onnx), once it exists."""

from __future__ import annotations

import json

import numpy as np
import pytest

from dominocam.cli import main
from tests.read.conftest import truths
from vision.detect import DEFAULT_MODEL


@pytest.mark.skipif(not DEFAULT_MODEL.is_file(), reason=f"no trained detector yet at {DEFAULT_MODEL}")
def test_read_with_the_detector_finds_and_reads_rendered_tiles(rendered, capsys):
    by_name = {t["image"].split("/")[-1]: t for t in truths(rendered)}
    images = sorted((rendered / "images" / "train").glob("*.jpg"))[:8]
    assert main(["read", "--json", *map(str, images)]) == 0
    rows = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    found = labelled = right = read = 0
    for row in rows:
        truth = by_name[row["image"].split("/")[-1]]
        centres = np.array([np.mean(t["halves"], axis=0) for t in row["tiles"]]).reshape(-1, 2)
        for tt in truth["tiles"]:
            if not tt["labelled"]:
                continue
            labelled += 1
            c = np.mean(tt["halves"], axis=0)
            if not len(centres):
                continue
            i = int(np.argmin(np.hypot(*(centres - c).T)))
            if np.hypot(*(centres[i] - c)) > 0.3 * tt["length_px"]:
                continue
            found += 1
            got = row["tiles"][i]
            if tt["face"] == "up" and got["values"] is not None and tt["length_px"] >= 45:
                read += 1
                right += sorted(got["values"]) == sorted(tt["values"])
    assert labelled > 50
    # the detector's own recall is measured in tests/detect and models/README.md; here the path
    # must find tiles at all and the reader must read what it finds
    assert found / labelled >= 0.25, f"detector found {found}/{labelled} labelled tiles"
    assert read >= 10 and right / read >= 0.8, f"{right}/{read} detected tiles read right"
