"""The equal-budget comparison (``functok.commands.compare.budgets``): the prefix property the single training
per variant rests on, the truncation, the interpolation, the redundancy ceiling and the variants
table. Small corpora and budgets (300 to 1,000 entries), so each training takes milliseconds."""

from __future__ import annotations

import json
from collections import Counter

import pytest

pytest.importorskip("tokenizers")

import functok  # noqa: E402
from functok.commands.compare import budgets, budgets_report  # noqa: E402
from functok.commands.compare.budgets import (BUDGET_VARIANTS, ceiling, ceiling_base, equal_compression, held_out_tokens,  # noqa: E402
                             parse_budgets, reference_budget, train_at_budget, truncate)


def _topics() -> list[str]:
    from pydoc_data.topics import topics

    return [topics[k] for k in sorted(topics)]


@pytest.fixture(scope="module")
def texts() -> tuple[list[str], list[str]]:
    docs = _topics()[:60]
    return [d for k, d in enumerate(docs) if k % 10], [d for k, d in enumerate(docs) if not k % 10]


def _counts(texts: list[str], key: str) -> Counter:
    variant = next(v for v in BUDGET_VARIANTS if v.key == key)
    pretokenize = variant.pretokenize("paper")
    out: Counter = Counter()
    for text in texts:
        out.update(pretokenize(text))
    return out


# --- The prefix property and the truncation -------------------------------------------------


@pytest.mark.parametrize("key", ["baseline", "paper_split", "paper_fused"])
def test_truncated_training_is_the_smaller_training(texts, key):
    """Training at 400 and 600 separately gives what training at 1,000 and truncating gives:
    the same vocabulary (ids included), the same merges and the same held-out counts. If the
    trainer's merges stopped being a prefix of a larger run's, or truncate cut in the wrong
    place, this fails."""
    train, held = _counts(texts[0], key), _counts(texts[1], key)
    assert budgets.alphabet_size(train) < 400 - 256  # the alphabet fits: the prefix case
    big = train_at_budget(train, 1000)
    assert budgets.size(big) == 1000
    for budget in (400, 600):
        alone = train_at_budget(train, budget)
        cut = truncate(big, budget)
        assert cut["model"]["vocab"] == alone["model"]["vocab"]
        assert [list(m) for m in budgets.merges_of(cut)] == [list(m) for m in budgets.merges_of(alone)]
        assert len(cut["model"]["vocab"]) == budget - 256
        assert held_out_tokens(cut, held) == held_out_tokens(alone, held)
    assert truncate(big, 1000)["model"]["vocab"] == big["model"]["vocab"]


def test_truncate_cuts_at_the_first_merge_beyond():
    """A hand-made training: the merges whose result lies beyond the budget go, and so does every
    merge after the first of them, even one that only remakes an entry kept."""
    trained = {"model": {"type": "BPE", "vocab": {"a": 0, "b": 1, "ab": 2, "abb": 3, "ba": 4},
                         "merges": [["a", "b"], ["ab", "b"], ["b", "a"], ["a", "b"]]}}
    cut = truncate(trained, 256 + 3)
    assert cut["model"]["vocab"] == {"a": 0, "b": 1, "ab": 2}
    assert cut["model"]["merges"] == [["a", "b"]]
    assert truncate(trained, 256 + 6) is None  # the training has 5 entries: its merges ran out
    assert trained["model"]["merges"] == [["a", "b"], ["ab", "b"], ["b", "a"], ["a", "b"]]  # untouched


def test_same_tokenizer_as_functok_train(texts):
    """train_at_budget on the codec's pre-tokens is Tokenizer.train: same entries, same ids."""
    train = texts[0]
    tok = functok.Tokenizer.train(iter(train), vocab_size=700, splitter="paper", profile="paper", fuse="none",
                                  show_progress=False)
    ours = train_at_budget(_counts(train, "paper_split"), 700)
    from functok.tokenizer.tokenizer_file import with_byte_tokens

    assert with_byte_tokens(ours, [])["model"]["vocab"] == tok.get_vocab()
    assert tok.vocab_size == 700


def test_the_frequent_row_is_the_tokenizer_train_makes(texts):
    """The compact, frequent row cuts a larger split training and adds fusion merges: the same
    entries and ids as Tokenizer.train(fuse="frequent") at that budget."""
    from functok.tokenizer.fusion import ChainCounter
    from functok.tokenizer.tokenizer_file import with_byte_tokens

    train = texts[0]
    tok = functok.Tokenizer.train(iter(train), vocab_size=700, splitter="paper", profile="compact",
                                  fuse="frequent", show_progress=False)
    chains = ChainCounter()
    split = Counter()
    pretokenize = next(v for v in BUDGET_VARIANTS if v.key == "compact_split").pretokenize("paper")
    for text in train:
        found = pretokenize(text)
        split.update(found)
        chains.update(found)
    row_model = budgets.model_at(train_at_budget(split, 900), 700, split, chains.chains)
    assert with_byte_tokens(row_model, [])["model"]["vocab"] == tok.get_vocab()


def test_alphabet_that_does_not_fit_is_trained_alone(texts):
    """Below the alphabet's size the kept alphabet changes the training, so there is no prefix:
    measure_variant trains that budget on its own, as Tokenizer.train would."""
    train, held = _counts(texts[0], "baseline"), _counts(texts[1], "baseline")
    alphabet = budgets.alphabet_size(train)
    small = 256 + alphabet - 10
    row = budgets.measure_variant(train, held, [small, 800])
    assert row["trainings"] == 2
    alone = train_at_budget(train, small)
    assert budgets.size(alone) == small
    assert row["held_out_tokens"][0] == held_out_tokens(alone, held)
    assert row["held_out_tokens"][1] == held_out_tokens(train_at_budget(train, 800), held)


def test_merges_that_run_out():
    """A corpus too small for the budget: no count there ("ran out"), and the tokenizer at
    exhaustion is one more point, at its real size."""
    train = Counter({"hello": 5, "world": 3})
    row = budgets.measure_variant(train, Counter({"hello": 1}), [270, 400])
    assert row["held_out_tokens"][1] is None
    assert row["held_out_tokens"][0] == 1  # 7 letters + 7 merges: hello is one token at 270
    assert row["exhaustion"]["budget"] < 400 and row["exhaustion"]["held_out_tokens"] == 1


# --- Vocabulary at equal compression --------------------------------------------------------


def test_equal_compression_interpolates_in_log_budget():
    points = [(1000, 100), (4000, 80), (16000, 70)]
    # 90 is halfway from 100 to 80: halfway in log(budget) from 1,000 to 4,000 is 2,000
    r = equal_compression(points, 90, 2000)
    assert r["reached"] == "interpolated" and r["budget"] == pytest.approx(2000) and r["delta_pct"] == pytest.approx(0)
    r = equal_compression(points, 90, 1000)
    assert r["delta_pct"] == pytest.approx(100)
    # 75: halfway between 4,000 and 16,000 -> 8,000; against 4,000: +100%
    assert equal_compression(points, 75, 4000)["budget"] == pytest.approx(8000)
    # a quarter of the way from 100 to 80 (95): 1000 * 4 ** 0.25
    assert equal_compression(points, 95, 1000)["budget"] == pytest.approx(1000 * 4 ** 0.25, abs=0.05)  # budgets are rounded to 0.1
    # exactly at a point
    r = equal_compression(points, 80, 4000)
    assert r["budget"] == pytest.approx(4000) and r["delta_pct"] == pytest.approx(0)
    assert equal_compression(points, 100, 1000) == {"reached": "interpolated", "budget": 1000, "delta_pct": 0.0}


def test_equal_compression_not_reached_and_bounds():
    points = [(1000, 100), (4000, 80)]
    assert equal_compression(points, 79, 4000) == {"reached": "not reached", "budget": None, "delta_pct": None}
    assert equal_compression([], 79, 4000)["reached"] == "not reached"
    r = equal_compression(points, 120, 4000)  # better than the target at the smallest point
    assert r == {"reached": "at most", "budget": 1000, "delta_pct": -75.0}
    # the first crossing counts, in budget order whatever the order given
    assert equal_compression([(4000, 80), (1000, 100)], 90, 2000)["budget"] == pytest.approx(2000)


def test_reference_budget():
    assert reference_budget([8000, 16000, 32000, 64000], [4, 3, 2, 1]) == 32000
    assert reference_budget([8000, 16000, 32000, 64000], [4, None, None, None]) == 8000  # ran out
    assert reference_budget([300, 400, 600], [4, 3, 2]) == 600  # 32k is not a budget
    assert reference_budget([300, 400], [None, None]) is None


def test_parse_budgets():
    assert parse_budgets("8000,16000, 32k,64_000,8000") == (8000, 16000, 32000, 64000)
    for bad in ("", "8000,x", "256", "100"):
        with pytest.raises(ValueError):
            parse_budgets(bad)


@pytest.mark.parametrize("text", ["16777217", "5000000000", "99999999999999999999", "8000,20000k"])
def test_a_budget_over_the_maximum_is_refused_naming_it(text):
    """Before: 5000000000 aborted the interpreter (SIGABRT) after the measurement, 20 digits
    were an OverflowError traceback."""
    assert parse_budgets("257,16777216") == (257, 2**24)
    with pytest.raises(ValueError, match=r"is over the maximum budget, 16,777,216 \(2\*\*24"):
        parse_budgets(text)


def test_compare_refuses_a_budget_over_the_maximum_at_once(tmp_path):
    """In a child process: a regression would abort the interpreter, not only fail."""
    import os
    import subprocess
    import sys
    from pathlib import Path

    corpus = tmp_path / "c.txt"
    corpus.write_text("Hello world.\n\nHELLO again.\n", encoding="utf-8")
    repo = Path(__file__).resolve().parents[2]
    for budgets_arg in ("5000000000", "99999999999999999999"):
        result = subprocess.run([sys.executable, "-m", "functok", "compare", "--no-progress", "--corpus",
                                 str(corpus), "--out", str(tmp_path / "o"), "--budgets", budgets_arg],
                                capture_output=True, text=True, timeout=300,
                                env=dict(os.environ, PYTHONPATH=str(repo / "python")))
        assert result.returncode == 2 and "Traceback" not in result.stderr
        assert result.stderr.strip().splitlines()[-1] == (
            f"functok compare: error: argument --budgets: {int(budgets_arg):,} is over the maximum budget, "
            "16,777,216 (2**24, the largest vocab_size Tokenizer.train takes: the trainer reserves memory "
            "for every entry)")
        assert not (tmp_path / "o").exists()


# --- The redundancy ceiling ---------------------------------------------------------------


def test_ceiling_on_a_hand_made_vocabulary():
    entries = ["the", "The", "THE", "e", "é", "Café", "Zz", "ab", " x", " X", "ǅ"]
    assert ceiling_base("THE") == "the" and ceiling_base("é") == "e" and ceiling_base(" X") == " x"
    r = ceiling(entries, 256 + len(entries))
    # carry case or a mark: The, THE, é, Café, Zz, " X" (not ǅ, a titlecase digraph the codec
    # leaves literal: its base is itself); with their base as an entry: The, THE, é, " X"
    assert ceiling_base("ǅ") == "ǅ"
    assert r["variant_entries"] == 6 and r["with_base"] == 4
    assert r["trained_entries"] == 11 and r["budget"] == 267
    assert r["ceiling_pct"] == pytest.approx(4 / 267 * 100, abs=1e-4)
    assert r["ceiling_of_trained_pct"] == pytest.approx(4 / 11 * 100, abs=1e-4)


# --- The variants table ---------------------------------------------------------------------


def test_variants_table():
    keys = [v.key for v in BUDGET_VARIANTS]
    assert keys[0] == "baseline" and len(set(keys)) == len(keys)
    by = {v.key: v for v in BUDGET_VARIANTS}
    assert by["baseline"].profile is None and by["baseline"].split_operators is None
    assert by["paper_split"].split_operators is True and by["paper_fused"].split_operators is False
    assert by["compact_split"].profile == by["compact_fused"].profile == "compact"
    text = "Hello HELLO  hello, Café!"
    assert by["paper_split"].pretokenize("paper")(text) == functok.pretokens(text, splitter="paper")
    assert by["paper_fused"].pretokenize("paper")(text) == functok.pretokens(text, splitter="paper",
                                                                               split_operators=False)
    assert by["baseline"].pretokenize("paper")(text) == functok.split(text, splitter="paper")
    assert len({v.colour for v in BUDGET_VARIANTS}) == len(BUDGET_VARIANTS)  # one line each in the chart


def test_compact_rows_follow_functok_profiles(monkeypatch):
    has_compact = "compact" in (getattr(functok, "PROFILES", None) or ())
    assert ("compact_split" in [v.key for v in budgets.available_variants()]) == has_compact
    monkeypatch.setattr(functok, "PROFILES", ("paper", "compact"), raising=False)
    assert [v.key for v in budgets.available_variants()] == [v.key for v in BUDGET_VARIANTS]
    monkeypatch.setattr(functok, "PROFILES", ("paper",), raising=False)
    assert [v.key for v in budgets.available_variants()] == ["baseline", "paper_split", "paper_fused"]


# --- One corpus -----------------------------------------------------------------------------


def test_equal_budget_section(texts):
    section = budgets.equal_budget(*texts, splitter="paper", budgets=[600, 400, 300])
    assert section["budgets"] == [300, 400, 600]
    assert section["reference_budget"] == 600
    base = section["variants"]["baseline"]
    assert section["reference_tokens"] == base["held_out_tokens"][2]
    assert base["delta_tokens_pct"] == [0.0, 0.0, 0.0]
    assert base["equal_compression"]["delta_pct"] == 0.0
    for key, row in section["variants"].items():
        assert len(row["held_out_tokens"]) == 3 and len(row["delta_tokens_pct"]) == 3
        assert row["delta_tokens_at_reference_pct"] == row["delta_tokens_pct"][2]
        assert row["held_out_tokens"] == sorted(row["held_out_tokens"], reverse=True)  # more room, fewer tokens
    split = section["variants"]["paper_split"]
    assert split["delta_tokens_pct"][2] > 0  # the paper's mode makes sequences longer
    assert [c["budget"] for c in section["ceiling"]] == [300, 400, 600]
    assert all(c["with_base"] <= c["variant_entries"] <= c["trained_entries"] for c in section["ceiling"])
    json.dumps(section)  # report.json holds it as it is


def test_table_and_markdown(texts):
    section = budgets.equal_budget(*texts, splitter="paper", budgets=[300, 400, 600, 100_000])
    lines = budgets_report.table_lines(section)
    assert lines[0].split()[:3] == ["at", "equal", "budget"] and "100,000" in lines[0]
    base = section["variants"]["baseline"]
    assert base["held_out_tokens"][-1] is None and base["exhaustion"]["budget"] < 100_000
    assert f"{base['held_out_tokens'][0]:,}" in lines[1] and "ran out" in lines[1] and "600 (ref.)" in lines[1]
    assert any(line.lstrip().startswith("paper, split") for line in lines)
    assert any("ceiling" in line for line in lines)
    md = "\n".join(budgets_report.markdown_lines(section, "chart.svg"))
    assert "| pre-tokens | 300 | 400 | 600 | 100,000 |" in md and "![held-out tokens" in md
    chart = budgets_report.chart_lines(section)
    assert [label for label, _, _ in chart] == [r["label"] for r in section["variants"].values()]
    assert chart[0][2][-1] == (base["exhaustion"]["budget"], base["exhaustion"]["held_out_tokens"])


# --- functok compare end to end -------------------------------------------------------------


@pytest.fixture(scope="module")
def compared(tmp_path_factory):
    """`functok compare --corpus tiny --budgets 300,400,600` on 30 help topics: stdout, the
    report folder, report.json."""
    import contextlib
    import io

    from functok.cli import main

    root = tmp_path_factory.mktemp("budgets")
    corpus = root / "tiny"
    corpus.mkdir()
    (corpus / "topics.txt").write_text("\n\n".join(_topics()[:30]), encoding="utf-8")
    out = root / "out"
    stdout = io.StringIO()
    with contextlib.redirect_stdout(stdout):
        code = main(["compare", "--no-progress", "--quiet", "--vocab-size", "400", "--corpus", str(corpus),
                     "--out", str(out), "--budgets", "300,400,600"])
    assert code == 0
    return stdout.getvalue(), out, json.loads((out / "report.json").read_text(encoding="utf-8"))


def test_compare_prints_the_equal_budget_table(compared):
    printed, _, data = compared
    lines = printed.splitlines()
    head = next(k for k, line in enumerate(lines) if line.strip().startswith("at equal budget"))
    assert lines[head].split()[3:] == ["300", "400", "600", "equal", "compr."]
    assert head > next(k for k, line in enumerate(lines) if "round trip of held-out documents" in line)  # after the paper's tables
    section = data["corpora"][0]["equal_budget"]
    base = section["variants"]["baseline"]["held_out_tokens"]
    assert lines[head + 1].split()[-5:] == [f"{n:,}" for n in base] + ["600", "(ref.)"]
    labels = [r["label"] for r in section["variants"].values()]
    for k, label in enumerate(labels):
        assert lines[head + 1 + k].strip().startswith(label)
    assert lines[head + 1 + len(labels)].strip().startswith("ceiling")
    assert "held-out-tokens-tiny.svg" in printed.splitlines()[-1]


def test_report_json_fields(compared):
    _, _, data = compared
    protocol = data["protocol"]["equal_budget"]
    assert protocol["budgets"] == [300, 400, 600] and protocol["reference_budget"] == 32000
    assert {"tokenizer", "truncation", "held_out_tokens", "equal_compression", "ceiling"} <= set(protocol)
    section = data["corpora"][0]["equal_budget"]
    assert set(section) == {"budgets", "reference_budget", "reference_tokens", "variants", "ceiling", "seconds"}
    assert section["budgets"] == [300, 400, 600] and section["reference_budget"] == 600
    assert list(section["variants"]) == [v.key for v in budgets.available_variants()]
    for row in section["variants"].values():
        assert {"label", "profile", "fuse", "split_operators", "distinct_pretokens", "held_out_pretokens",
                "alphabet", "trainings", "held_out_tokens", "delta_tokens_pct", "delta_tokens_at_reference_pct",
                "equal_compression", "exhaustion", "seconds"} <= set(row)
        assert set(row["equal_compression"]) == {"reached", "budget", "delta_pct"}
    # the counts are the exhaustion table's: the same held-out documents and pre-tokens
    ex = data["corpora"][0]["exhaustion"]
    assert section["variants"]["paper_split"]["distinct_pretokens"] == ex["functionalizer"]["distinct_pretokens"]
    assert section["variants"]["paper_fused"]["distinct_pretokens"] == ex["joined"]["distinct_pretokens"]
    assert len(section["ceiling"]) == 3 and section["ceiling"][2]["budget"] == 600


def test_report_md_and_chart(compared):
    from xml.etree import ElementTree

    _, out, data = compared
    md = (out / "report.md").read_text(encoding="utf-8")
    assert "### Held-out tokens at equal budgets" in md and "| pre-tokens | 300 | 400 | 600 |" in md
    assert "![held-out tokens against vocabulary size](held-out-tokens-tiny.svg)" in md
    svg = (out / "held-out-tokens-tiny.svg").read_text(encoding="utf-8")
    ElementTree.fromstring(svg)  # well-formed
    assert svg.count("<polyline") == len(data["corpora"][0]["equal_budget"]["variants"])  # one line per variant
    assert "stroke-dasharray" in svg  # the baseline's count at the reference budget


def test_budgets_none_and_bad_budgets(tmp_path, capsys):
    from functok.cli import main

    corpus = tmp_path / "c.txt"
    corpus.write_text("Hello world.\n\nHELLO again.\n\nhello world, hello.\n", encoding="utf-8")
    assert main(["compare", "--no-progress", "--quiet", "--corpus", str(corpus), "--out", str(tmp_path / "o"),
                 "--held-out-every", "2", "--budgets", "none"]) == 0
    data = json.loads((tmp_path / "o" / "report.json").read_text(encoding="utf-8"))
    assert "equal_budget" not in data["corpora"][0] and data["protocol"]["equal_budget"] is None
    assert not (tmp_path / "o" / "held-out-tokens-c.txt.svg").exists()
    assert "at equal budget" not in capsys.readouterr().out
    with pytest.raises(SystemExit) as exit:
        main(["compare", "--corpus", str(corpus), "--budgets", "200,400"])
    assert exit.value.code == 2 and "at least 257" in capsys.readouterr().err


def test_each_row_passes_its_profile_and_fuse_rule(monkeypatch):
    """Every codec row calls pretokens(profile=..., fuse=...) with its own pair."""
    seen = []

    def fake_pretokens(text, **options):
        seen.append(options)
        return [text]

    monkeypatch.setattr(budgets, "codec_pretokens", fake_pretokens)
    for variant in BUDGET_VARIANTS[1:]:
        variant.pretokenize("paper")("Hello")
    assert seen == [{"splitter": "paper", "fuse": v.fuse, "profile": v.profile} for v in BUDGET_VARIANTS[1:]]
    assert [(v.profile, v.fuse) for v in BUDGET_VARIANTS[1:]] == [
        ("paper", "none"), ("paper", "all"), ("compact", "none"), ("compact", "all"), ("compact", "frequent")]
