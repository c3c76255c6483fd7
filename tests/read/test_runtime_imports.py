"""The runtime path (read, recount, the reader's modules) never imports torch or ultralytics."""

from __future__ import annotations

import subprocess
import sys


def test_read_path_imports_no_torch(rendered):
    image = sorted((rendered / "images" / "train").glob("*.jpg"))[0]
    code = (
        "import sys\n"
        "from dominocam.cli import main\n"
        f"rc = main(['read', '--truth-boxes', '--json', {str(image)!r}])\n"
        "import vision.read.reader, vision.read.picture, vision.read.recount, vision.read.halfcnn\n"
        "import dominocam.commands.read, dominocam.commands.recount, dominocam.commands.eval\n"
        "import vision.detect\n"
        "bad = [m for m in sys.modules if m.split('.')[0] in ('torch', 'ultralytics', 'torchvision')]\n"
        "assert rc == 0, rc\n"
        "assert not bad, bad\n"
        "print('clean')\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip().endswith("clean")
