"""Every rule ID of RULES.md that the engine implements is cited by a scripted test's name.

RULES.md (the digest of the three Russian documents, with the IDs code and tests cite) is in the
repository root, so these checks mean the same on a clean clone. Where the shared folder beside the
checkout is there (`../shared`, or `DOMINOCAM_SHARED`), its RULES.md must equal the repository's:
a change made there is noticed here.
"""

import os
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).parents[2]
TESTS = Path(__file__).parent
RULES = ROOT / "RULES.md"
SHARED_RULES = Path(os.environ.get("DOMINOCAM_SHARED", ROOT.parent / "shared")) / "RULES.md"
# Code that cites rules (tests are left out: their names are checked below, their comments may
# name rules the digest leaves out on purpose).
CODE = ("engine", "vision", "webui", "dominocam", "lab", "benchmarks")

RULE_ID = r"\b((?:BYK|SPT|BLZ|BLB|DRK|SEV|SPI|BAL)-(?:\d+(?:\.\d+)?|T))\b"
# BYK-2.x (but BYK-2.5 scoring) and BAL-T are the tournament's; BYK-1.7 (doubles crosswise, bends)
# is geometry, drawn by the renderer and read by vision.
NOT_ENGINE = re.compile(r"^(BYK-2\.(?!5)|BAL-T|BYK-1\.7$)")


def all_rule_ids() -> set[str]:
    text = RULES.read_text(encoding="utf-8")
    ids = set(re.findall(RULE_ID, text))
    for _prefix, b in re.findall(r"\b(BAL-\d+)/(\d+)\b", text):  # "BAL-5/11", "BAL-15/16"
        ids.add(f"BAL-{b}")
    return ids


def engine_rule_ids() -> set[str]:
    return {i for i in all_rule_ids() if not NOT_ENGINE.match(i)}


def _test_names() -> str:
    names = []
    for path in TESTS.glob("test_*.py"):
        names += re.findall(r"^def (test_\w+)", path.read_text(encoding="utf-8"), flags=re.M)
    return " ".join(names)


def _cited_in_code() -> dict[str, str]:
    cited: dict[str, str] = {}
    for top in CODE:
        for path in sorted((ROOT / top).rglob("*.py")):
            text = path.read_text(encoding="utf-8")
            # "BYK-2.x" names a whole section, not one rule
            for rule in re.findall(RULE_ID + r"(?!\.x)", text):
                cited.setdefault(rule, str(path.relative_to(ROOT)))
    return cited


def test_rules_md_holds_the_rule_ids_of_every_variant():
    ids = all_rule_ids()
    for prefix in ("BYK", "SPT", "BLZ", "BLB", "DRK", "SEV", "SPI", "BAL"):
        assert any(i.startswith(prefix + "-") for i in ids), prefix
    assert {"BYK-1.5", "BYK-1.11", "SPT-11", "BAL-15", "BAL-16", "BAL-T"} <= ids
    assert len(engine_rule_ids()) >= 40


def test_every_rule_id_cited_in_code_is_in_rules_md():
    ids = all_rule_ids()
    unknown = {rule: where for rule, where in _cited_in_code().items() if rule not in ids}
    assert unknown == {}


def test_every_engine_rule_id_is_cited_by_a_test_name():
    names = _test_names()
    missing = []
    for rule in sorted(engine_rule_ids()):
        slug = rule.lower().replace("-", "_").replace(".", "_")
        if not re.search(rf"{slug}(?!\d)", names):
            missing.append(rule)
    assert missing == []


def test_the_repository_copy_of_rules_md_equals_the_shared_one():
    if not SHARED_RULES.exists():
        pytest.skip(f"no shared RULES.md at {SHARED_RULES} to compare with (a clean clone)")
    assert RULES.read_text(encoding="utf-8") == SHARED_RULES.read_text(encoding="utf-8")
