"""Where the tests find the repository's vectors (a copy of ../shared/vectors/)."""

from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[3]


@pytest.fixture
def egd_vectors() -> Path:
    return REPO / "vectors" / "egd"
