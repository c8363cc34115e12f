"""The exact-cover problem object, Knuth's DLX text and ``is_cover``, checked
against the brute force of ``cover_oracle.py`` and by round trips (no search
involved: these need nothing of the Rust core but the package)."""

from __future__ import annotations

import pickle

import cover_oracle
import pytest
from cover_oracle import raw_problems
from hypothesis import given, settings
from hypothesis import strategies as st
from solvers.cover import ExactCover, Sudoku, dlx, is_cover
from solvers.cover.find import first_covers

# ---------------------------------------------------------------- random problems


def build(raw):
    """The package's problem for the oracle's ``raw`` one (colours as 2-tuples)."""
    options, primary, secondary = raw
    given_options = [[(item, colour) for item, colour in option] for option in options]
    return ExactCover(given_options, primary=primary, secondary=secondary, colors=True)


# ---------------------------------------------------------------- the problem


def test_the_defaults_take_items_in_order_of_first_appearance():
    problem = ExactCover([("b", "a"), ("c", "x"), ("a",)], secondary=["x"])
    assert problem.primary == ("b", "a", "c")
    assert problem.secondary == ("x",)
    assert problem.items == ("b", "a", "c", "x")
    assert problem.options == (("b", "a"), ("c", "x"), ("a",))
    assert len(problem) == 3
    assert problem.colors is False


def test_given_primary_items_keep_their_order_and_may_have_no_option():
    problem = ExactCover([(2,), (1, 2)], primary=[1, 2, 3])
    assert problem.primary == (1, 2, 3)
    assert is_cover(problem, [1]) is False  # 3 is never covered


def test_options_and_items_of_any_iterable_and_hashable():
    problem = ExactCover(iter([iter([(0, 0), frozenset({1})]), [None]]))
    assert problem.primary == ((0, 0), frozenset({1}), None)
    assert problem.options == (((0, 0), frozenset({1})), (None,))


def test_colours_are_two_tuples_only_with_colors_on():
    plain = ExactCover([("a", ("x", "red"))])
    assert plain.primary == ("a", ("x", "red"))  # a 2-tuple is an item
    coloured = ExactCover([("a", ("x", "red")), ("b", ("x", "red"))], secondary=["x"], colors=True)
    assert coloured.option(1) == (("b", None), ("x", "red"))
    assert is_cover(coloured, [0, 1])
    # an item that is itself a 2-tuple, with colours on: (item, None)
    pair = ExactCover([(((1, 2), None),)], colors=True)
    assert pair.primary == ((1, 2),)


def test_arrays_number_items_and_colours():
    problem = ExactCover(
        [("a", ("x", "blue")), ("b", ("x", "red"), "y"), ("a", ("y", "blue"))],
        secondary=["x", "y"],
        colors=True,
    )
    n_primary, n_secondary, starts, items, colours = problem.arrays()
    assert (n_primary, n_secondary) == (2, 2)
    assert list(starts) == [0, 2, 5, 7]
    assert list(items) == [0, 2, 1, 2, 3, 0, 3]
    assert list(colours) == [0, 1, 0, 2, 0, 0, 1]  # colours numbered per problem, from 1


@pytest.mark.parametrize(
    ("call", "error", "words"),
    [
        (lambda: ExactCover([]), ValueError, "at least one primary item"),
        (lambda: ExactCover([("x",)], secondary=["x"]), ValueError, "at least one primary item"),
        (
            lambda: ExactCover([("a",), ("x",)], secondary=["x"]),
            ValueError,
            "option 1 .* no primary",
        ),
        (lambda: ExactCover([("a",), ()]), ValueError, "option 1 .* no primary item"),
        (lambda: ExactCover([("a", "b")], primary=["a"]), ValueError, "'b', which is not in"),
        (lambda: ExactCover([("a", "b", "a")]), ValueError, "option 0 holds the item 'a' twice"),
        (
            lambda: ExactCover([("a", ("b", 1))], colors=True),
            ValueError,
            "primary item 'b' the colour 1",
        ),
        (lambda: ExactCover([("a", [1])]), TypeError, "must be hashable"),
        (lambda: ExactCover([("a",)], primary=[[1]]), TypeError, "must be hashable"),
        (
            lambda: ExactCover([("a", ("x", [1]))], secondary=["x"], colors=True),
            TypeError,
            "colour of 'x' in option 0 must be hashable",
        ),
        (lambda: ExactCover(["ab"]), TypeError, "option 0 must be an iterable of items"),
        (lambda: ExactCover([1]), TypeError, "option 0 must be an iterable"),
        (lambda: ExactCover("ab"), TypeError, "options must be an iterable"),
        (lambda: ExactCover([("a",)], primary=["a", "a"]), ValueError, "lists the item 'a' twice"),
        (lambda: ExactCover([("a",)], secondary=["a"], primary=["a"]), ValueError, "both"),
        (lambda: ExactCover([("a",)], colors=1), TypeError, "colors must be True or False"),
    ],
)
def test_bad_problems_are_refused_with_what_was_wrong(call, error, words):
    with pytest.raises(error, match=words):
        call()


@settings(max_examples=100, deadline=None)
@given(raw_problems(colours=False))
def test_the_numbering_in_rust_is_the_loop_s(raw):
    # Without colours the options are numbered in one pass in Rust; with
    # colors=True (and none given) by the package's own loop: the same arrays.
    options, primary, secondary = raw
    named = {item: f"s{i}" for i, item in enumerate(secondary)}  # no 2-tuples
    given = [[named.get(item, item) for item, _ in option] for option in options]
    fast = ExactCover(given, primary=primary, secondary=list(named.values()))
    slow = ExactCover(given, primary=primary, secondary=list(named.values()), colors=True)
    assert fast.arrays() == slow.arrays()
    assert fast.options == slow.options


@pytest.mark.parametrize(
    ("bad", "words"),
    [
        (("a", "zz"), "option 1000 holds the item 'zz', which is not in primary or secondary"),
        (("a", "b", "a"), "option 1000 holds the item 'a' twice"),
        (("x",), r"option 1000 \('x',\) has no primary item"),
        ((), r"option 1000 \(\) has no primary item"),
        (("a", ["b"]), "an item of option 1000 must be hashable"),
    ],
)
def test_a_bad_option_among_many_is_named_by_the_loop(bad, words):
    good = [("a", "b"), ("b", "x")] * 500
    with pytest.raises((ValueError, TypeError), match=words):
        ExactCover([*good, bad, *good], primary=["a", "b"], secondary=["x"])


def test_equal_problems_compare_and_hash_equal_and_pickle():
    one = ExactCover([["a", ("x", "r")], ("b",)], secondary=["x"], colors=True)
    two = ExactCover((("a", ("x", "r")), ["b"]), primary=["a", "b"], secondary=("x",), colors=True)
    assert one == two and hash(one) == hash(two) and one.digest() == two.digest()
    assert one != ExactCover([("a", ("x", "g")), ("b",)], secondary=["x"], colors=True)
    assert one != ExactCover([("b",), ("a", ("x", "r"))], secondary=["x"], colors=True)
    assert one != ExactCover([("a",), ("b",)])
    assert one != "a problem"
    for protocol in range(pickle.HIGHEST_PROTOCOL + 1):
        back = pickle.loads(pickle.dumps(one, protocol))
        assert back == one and hash(back) == hash(one) and back.options == one.options
        assert back.arrays() == one.arrays() and repr(back) == repr(one)
        assert back.to_dlx() == one.to_dlx()


def test_the_repr_rebuilds_a_small_problem_and_sums_up_a_large_one():
    small = ExactCover([("a", ("x", "r"))], primary=["a", "b"], secondary=["x"], colors=True)
    assert eval(repr(small), {"ExactCover": ExactCover}) == small  # noqa: S307
    large = ExactCover([(i, i + 1) for i in range(200)], secondary=[200])
    assert repr(large) == "<ExactCover: 200 options, 200 primary and 1 secondary items>"


# ---------------------------------------------------------------- is_cover


@settings(max_examples=150, deadline=None)
@given(raw_problems(), st.data())
@pytest.mark.slow  # several seconds: the quick run stays under 3 minutes
def test_is_cover_agrees_with_the_oracle(raw, data):
    options, primary, _ = raw
    problem = build(raw)
    chosen = data.draw(st.lists(st.integers(0, max(len(options) - 1, 0)), max_size=4))
    if not options:
        chosen = []
    expected = len(set(chosen)) == len(chosen) and cover_oracle.is_cover(options, primary, chosen)
    assert is_cover(problem, chosen) is expected
    for cover in cover_oracle.all_covers(options, primary):
        assert is_cover(problem, reversed(cover))


def test_is_cover_refuses_bad_indices():
    problem = ExactCover([("a",), ("a",)])
    with pytest.raises(ValueError, match="numbered 0 to 1"):
        is_cover(problem, [2])
    with pytest.raises(ValueError, match="option index -1"):
        is_cover(problem, [-1])
    with pytest.raises(TypeError, match="must be an integer"):
        is_cover(problem, ["0"])
    with pytest.raises(TypeError, match="must be an integer, not a bool"):
        is_cover(problem, [True])
    with pytest.raises(TypeError, match="cover must be an iterable"):
        is_cover(problem, 0)
    with pytest.raises(TypeError, match="problem must be an ExactCover"):
        is_cover([("a",)], [0])
    assert is_cover(problem, [0, 0]) is False  # an option twice covers its items twice


# ---------------------------------------------------------------- DLX text

KNUTH_EXAMPLE = """\
| A small colour example in the style of TAOCP 7.2.2.1.
p q r | x y
p q x y:A
p r x:A y
p x:B
q x:A
r y:B
"""


def test_a_colour_example_reads_and_has_its_one_cover():
    problem = ExactCover.from_dlx(KNUTH_EXAMPLE)
    assert problem.primary == ("p", "q", "r") and problem.secondary == ("x", "y")
    assert problem.option(0) == (("p", None), ("q", None), ("x", None), ("y", "A"))
    raw = ([list(problem.option(k)) for k in range(len(problem))], problem.primary)
    assert cover_oracle.all_covers(*raw) == [(1, 3)]
    assert is_cover(problem, [1, 3])


def test_comments_blank_lines_tabs_and_a_bar_glued_to_a_name_are_read():
    text = "\n  | comment\n\ta  b\t|x\n\n| another\n a x:1 \nb\n"
    problem = ExactCover.from_dlx(text)
    assert problem.items == ("a", "b", "x")
    assert problem.options == (("a", ("x", "1")), ("b",))


@settings(max_examples=100, deadline=None)
@given(raw_problems())
@pytest.mark.slow  # several seconds: the quick run stays under 3 minutes
def test_dlx_text_round_trips(raw):
    options, primary, secondary = raw
    named = {item: f"i{n}" for n, item in enumerate([*primary, *secondary])}
    problem = ExactCover(
        [[(named[item], colour) for item, colour in option] for option in options],
        primary=[named[item] for item in primary],
        secondary=[named[item] for item in secondary],
        colors=True,
    )
    text = problem.to_dlx()
    back = ExactCover.from_dlx(text)
    assert back == problem
    assert back.to_dlx() == text


def test_to_dlx_writes_items_by_their_str_and_names_what_is_no_name():
    # (tests/engine/test_messages.py checks the made names further)
    assert ExactCover([(1, 2), (3,)]).to_dlx() == "1 2 3\n1 2\n3\n"
    assert ExactCover([("a b",)]).to_dlx().endswith("\na_b\na_b\n")
    assert ExactCover([((0, 1),)]).to_dlx().endswith("\n0_1\n0_1\n")
    assert ExactCover([(1, "1")]).to_dlx().endswith("\n1 1~2\n1 1~2\n")
    coloured = ExactCover([("p", ("x", "a:b"))], secondary=["x"], colors=True)
    assert coloured.to_dlx().endswith("\np | x\np x:a_b\n")


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("", "no item line"),
        ("| only\n\n", "no item line"),
        ("| x y\n", "no item line"),
        ("a |x | y\n", "line 1, column 6: the item line holds '|' twice"),
        ("| x\n|x\n", "no item line"),
        (" | c\n|c\n x y\n", None),
        ("a a\n", "line 1, column 3: the item 'a' is listed twice"),
        ("a b:c\n", "line 1, column 4: item name 'b:c' holds ':'"),
        ("a b\na c\n", "line 2, column 3: unknown item 'c'"),
        ("a b\nb a b\n", "line 2, column 5: the item 'b' is twice in this option"),
        ("a b\na b:red\n", "line 2, column 4: the primary item 'b' has a colour"),
        ("a | x\na x:\n", "line 2, column 5: an empty colour name"),
        ("a | x\na x:r|g\n", "line 2, column 6: colour name 'r|g' holds '|'"),
        ("a | x\na :r\n", "line 2, column 3: an empty item name"),
        ("a | x\n\nx\n", "line 3, column 1: this option has no primary item"),
        ("| x\n", "no item line"),
    ],
)
def test_malformed_dlx_text_is_refused_with_line_and_column(text, words):
    if words is None:  # the control: comments, then a valid item line
        assert ExactCover.from_dlx(text).primary == ("x", "y")
        return
    with pytest.raises(ValueError, match=words):
        ExactCover.from_dlx(text)


def test_from_dlx_takes_text_only():
    with pytest.raises(TypeError, match="decode it first"):
        ExactCover.from_dlx(b"a\na\n")


def _parsed(text):
    """The problem of ``text`` by the package's parser alone, or ``None``."""
    try:
        options, primary, secondary, colored, *_ = dlx.parse(text)
        return ExactCover(options, primary=primary, secondary=secondary, colors=colored)
    except ValueError:
        return None


@settings(max_examples=400, deadline=None)
@given(st.text(alphabet=" \t\r\x0b\x0c\x1c\n|:/abxyé\ufeff", max_size=40))
def test_the_one_pass_reader_reads_what_the_parser_reads_and_nothing_else(text):
    # from_dlx reads in one pass in Rust where it can: the same problem, and
    # where the parser refuses the text, the one pass leaves it to the parser
    slow = _parsed(text)
    if dlx.read_numbered(text) is None:
        return
    assert slow is not None
    fast = ExactCover.from_dlx(text)
    assert fast == slow and fast.options == slow.options and repr(fast) == repr(slow)
    assert [fast.option(k) for k in range(len(fast))] == [slow.option(k) for k in range(len(slow))]
    assert fast.colors == slow.colors and fast.to_dlx() == slow.to_dlx()


def test_the_one_pass_reader_takes_the_usual_files():
    text = "| Knuth's example\na b c | x y\na x:red\nb y\nc x:red y\n\n// done\n"
    assert dlx.read_numbered(text) is not None
    assert ExactCover.from_dlx(text) == _parsed(text)


@settings(max_examples=50, deadline=None)
@given(raw_problems(), st.integers(0, 4))
def test_the_first_covers_are_the_first_of_the_listing(raw, k):
    options, primary, secondary = raw
    problem = ExactCover(options, primary=primary, secondary=secondary, colors=True)
    listed = cover_oracle.search_order(options, primary)
    assert first_covers(problem, k) == listed[:k]


def test_a_sudoku_s_solve_remembers_whether_it_is_unique():
    # Three puzzles of side 4: one solution, two, none; solve() is the first
    # of the listing either way, and is_unique() agrees with a fresh count.
    for grid, solutions in (
        ("1...\n..3.\n.4..\n...2", 1),
        ("12..34..2....3.1", 2),
        ("11" + "." * 14, 0),
    ):
        if solutions == 0:
            with pytest.raises(ValueError):
                Sudoku(grid)
            continue
        puzzle = Sudoku(grid)
        listed = list(puzzle.solutions())
        assert len(listed) == solutions == puzzle.count()
        assert puzzle.solve() == listed[0]
        assert puzzle.is_unique() == (solutions == 1) == Sudoku(grid).is_unique()
    stuck = Sudoku("12..\n..3.\n....\n...4".replace("....", "4..."))
    assert stuck.count() == 0 and stuck.solve() is None and not stuck.is_unique()


@settings(max_examples=150, deadline=None)
@given(
    st.lists(
        st.lists(st.sampled_from([0, 1, "a", "b", ("t", 1), 2.5, "x", "y"]), max_size=4),
        max_size=8,
    ),
    st.sampled_from([(), ("x",), ("x", "y"), (0,)]),
)
def test_primary_items_found_in_one_pass_as_option_by_option(options, secondary):
    # ExactCover(options) finds the primary items and numbers the options in
    # one pass in Rust; stated with those primary items given, the problem is
    # the same, and what one way refuses the other refuses with the same words
    def made(**primary):
        try:
            return ExactCover(options, secondary=secondary, **primary)
        except (ValueError, TypeError) as error:
            return str(error)

    found = made()
    seen = [i for option in options for i in option if i not in secondary]
    given_primary = made(primary=list(dict.fromkeys(seen)))
    if isinstance(found, ExactCover):
        assert found == given_primary and found.primary == tuple(dict.fromkeys(seen))
        assert found.options == given_primary.options
    else:
        assert found == given_primary or "primary" in found
