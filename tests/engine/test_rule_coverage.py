"""Every rule ID of RULES.md that the engine implements is cited by a scripted test's name."""

import os
import re
from pathlib import Path

TESTS = Path(__file__).parent
RULES = Path(os.environ.get("DOMINOCAM_SHARED", Path(__file__).parents[3] / "shared")) / "RULES.md"
# BYK-2.x (but BYK-2.5 scoring) and BAL-T are the tournament's; BYK-1.7 (doubles crosswise, bends)
# is geometry, drawn by the renderer and read by vision; BYK-1.2 and BYK-1.4 (shuffling, hiding
# one's tiles) happen off the record.
NOT_ENGINE = re.compile(r"^(BYK-2\.(?!5)|BAL-T|BYK-1\.[247]$)")


# A copy of the IDs, for a checkout without ../shared (kept equal to RULES.md by the test below).
KNOWN = {
    "BYK-1.1", "BYK-1.3", "BYK-1.5", "BYK-1.6", "BYK-1.8", "BYK-1.9", "BYK-1.10", "BYK-1.11", "BYK-1.12",
    "BYK-2.5", "SPT-8", "SPT-9", "SPT-11", "BLZ-1", "BLZ-2", "BLZ-3", "BLB-1", "BLB-2", "BLB-3",
    "DRK-1", "DRK-2", "DRK-3", "SEV-1", "SEV-2", "SEV-3", "SPI-1", "SPI-2", "SPI-4",
    "BAL-1", "BAL-3", "BAL-4", "BAL-5", "BAL-6", "BAL-7", "BAL-8", "BAL-9", "BAL-10", "BAL-11",
    "BAL-12", "BAL-13", "BAL-14", "BAL-15", "BAL-16", "BAL-17",
}


def rule_ids() -> set[str]:
    if not RULES.exists():
        return KNOWN
    text = RULES.read_text(encoding="utf-8")
    ids = set(re.findall(r"\b((?:BYK|SPT|BLZ|BLB|DRK|SEV|SPI|BAL)-(?:\d+(?:\.\d+)?|T))\b", text))
    for _prefix, b in re.findall(r"\b(BAL-\d+)/(\d+)\b", text):  # "BAL-5/11", "BAL-15/16"
        ids.add(f"BAL-{b}")
    return {i for i in ids if not NOT_ENGINE.match(i)}


def _test_names() -> str:
    names = []
    for path in TESTS.glob("test_*.py"):
        names += re.findall(r"^def (test_\w+)", path.read_text(encoding="utf-8"), flags=re.M)
    return " ".join(names)


def test_the_copy_of_the_rule_ids_matches_rules_md():
    assert rule_ids() == KNOWN


def test_every_engine_rule_id_is_cited_by_a_test_name():
    names = _test_names()
    missing = []
    for rule in sorted(rule_ids()):
        slug = rule.lower().replace("-", "_").replace(".", "_")
        if not re.search(rf"{slug}(?!\d)", names):
            missing.append(rule)
    assert missing == []
