"""The examples in the docstrings are true: each is run as a doctest."""

import doctest

import pytest

import notate


@pytest.mark.parametrize(
    "item", [notate, notate.read_pgn, notate.convert, notate.to_arrow, notate.load],
    ids=lambda item: getattr(item, "__name__", str(item)),
)
def test_docstring_examples(item):
    finder = doctest.DocTestFinder(recurse=False)
    tests = finder.find(item, getattr(item, "__name__", "notate"), globs={"notate": notate})
    examples = sum(len(t.examples) for t in tests)
    assert examples > 0, "every public function shows an example"
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    for test in tests:
        runner.run(test)
    assert runner.failures == 0


def test_spark_module_examples():
    import notate.spark

    failures, tried = doctest.testmod(notate.spark, optionflags=doctest.ELLIPSIS)
    assert tried > 0 and failures == 0
