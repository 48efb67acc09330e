"""Where the tests find the repository's vectors (a copy of ../shared/vectors/), and its
generated games."""

import subprocess
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[3]


@pytest.fixture
def egd_vectors() -> Path:
    return REPO / "vectors" / "egd"


def generated_pgn(*seeds_and_counts: int) -> bytes:
    """Games of the repository's seeded generator (crates/notate-testdata, built with cargo):
    `generated_pgn(21, 300, 22, 300)` is `notate-testdata 21 300 22 300`."""
    return subprocess.run(
        ["cargo", "run", "-q", "--release", "-p", "notate-testdata", "--", *map(str, seeds_and_counts)],
        cwd=REPO,
        check=True,
        capture_output=True,
    ).stdout
