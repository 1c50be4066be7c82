"""docs/errors.md is checked against the real output: every example, and every code ruledsl can emit.

An entry is a heading ``### CODE: title``, then one or more examples. An example is an
optional ```game block (the rule file, written as ``t.game`` unless the Run line names
another file), then how to run it: a line ``Run: `ruledsl ...` `` (``check FILE``,
``check --simulate N [--seed S] [--time-budget S] FILE`` or ``play FILE [--players N] [--option K=V]...``;
``ruledsl check t.game`` when there is no Run line) or a ```python block, then the
diagnostics it must produce, in order, one line each: ``Produces: `path:L:C: severity[CODE]:
message` ``, each maybe followed by ``Hint: `...` ``.
"""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest
from attrs import define, field

import ruledsl
from ruledsl.loading import check_file, load_game
from ruledsl.text.errors import Diagnostic, RuleDslError, sort_diagnostics
from ruledsl.tools.validate import validate

ROOT = Path(__file__).resolve().parents[2]
DOC = ROOT / "docs" / "errors.md"
SOURCES = ROOT / "ruledsl"

_HEADING = re.compile(r"^### ([EWR]\d{3})\b")
_LINE = re.compile(r"^(Run|Produces|Hint): `(.*)`\s*$")
_HEADER = re.compile(
    r"^(?P<path>.+?):(?P<line>\d+):(?P<col>\d+): (?P<sev>error|warning)\[(?P<code>[EWR]\d{3})\]: (?P<msg>.*)$"
)
_EMITTED = re.compile(r"""["']([EWR]\d{3})["']""")


@define
class Produced:
    header: str
    hint: str | None = None


@define
class Example:
    code: str  # the entry's code
    number: int  # 1, 2... within the entry
    line: int  # where it starts in the doc
    game: str | None = None
    run: str | None = None
    python: str | None = None
    produces: list[Produced] = field(factory=list)

    @property
    def id(self) -> str:
        return f"{self.code}-{self.number}"


def parse_doc(text: str) -> dict[str, list[Example]]:
    """Return the examples of every entry, by code, in the order of the doc."""
    entries: dict[str, list[Example]] = {}
    code: str | None = None
    current: Example | None = None
    lines = text.split("\n")
    i = 0

    def new_example() -> Example:
        assert code is not None, f"docs/errors.md:{i + 1}: an example outside any entry"
        ex = Example(code, len(entries[code]) + 1, i + 1)
        entries[code].append(ex)
        return ex

    while i < len(lines):
        line = lines[i]
        heading = _HEADING.match(line)
        if heading:
            code = heading.group(1)
            assert code not in entries, f"docs/errors.md:{i + 1}: a second entry for {code}"
            entries[code] = []
            current = None
        elif line.startswith("## ") or line.startswith("# "):
            code, current = None, None
        elif line.startswith("```") and code is None:
            i = lines.index("```", i + 1)  # a block outside the entries (the page's "Mini" game): test_doc_blocks.py
        elif line.startswith("```game") or line.startswith("```python"):
            kind = line[3:].strip()
            end = lines.index("```", i + 1)
            body = "\n".join(lines[i + 1 : end]) + "\n"
            if kind == "game":
                if current is None or current.produces or current.game is not None:
                    current = new_example()
                current.game = body
            else:
                if current is None or current.produces or current.run or current.python:
                    current = new_example()
                current.python = body
            i = end
        else:
            m = _LINE.match(line)
            if m:
                what, value = m.groups()
                if what == "Run":
                    if current is None or current.produces or current.run or current.python:
                        current = new_example()
                    current.run = value
                elif what == "Produces":
                    assert current is not None, f"docs/errors.md:{i + 1}: 'Produces' without an example"
                    current.produces.append(Produced(value))
                else:
                    assert current is not None and current.produces, (
                        f"docs/errors.md:{i + 1}: 'Hint' without 'Produces'"
                    )
                    current.produces[-1].hint = value
        i += 1
    return entries


ENTRIES = parse_doc(DOC.read_text(encoding="utf-8"))
EXAMPLES = [ex for examples in ENTRIES.values() for ex in examples]


def emitted_codes() -> dict[str, list[str]]:
    """Every code written as a string literal in ruledsl's sources, with where."""
    found: dict[str, list[str]] = {}
    for path in sorted(SOURCES.rglob("*.py")):
        for number, text in enumerate(path.read_text(encoding="utf-8").split("\n"), start=1):
            for code in _EMITTED.findall(text):
                found.setdefault(code, []).append(f"{path.relative_to(ROOT)}:{number}")
    return found


# ============================================================================ running an example


def run(example: Example, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> list[Diagnostic]:
    """Run an example in an empty directory; return every diagnostic it produced, in order."""
    monkeypatch.chdir(tmp_path)
    argv = shlex.split(example.run) if example.run else ["ruledsl", "check", "t.game"]
    assert argv[:1] == ["ruledsl"] and len(argv) >= 3, example.run
    command, args = argv[1], argv[2:]
    options: dict[str, str] = {}
    flags: dict[str, str] = {}
    files = []
    while args:
        arg = args.pop(0)
        if arg == "--option":
            name, _, value = args.pop(0).partition("=")
            options[name] = value
        elif arg.startswith("--"):
            flags[arg] = args.pop(0)
        else:
            files.append(arg)
    assert len(files) == 1, example.run
    file = files[0]
    if example.game is not None:
        (tmp_path / ("t.game" if example.python else file)).write_text(example.game, encoding="utf-8")
    try:
        if example.python is not None:
            exec(compile(example.python, f"<{example.id}>", "exec"), {"ruledsl": ruledsl, "Path": Path})  # noqa: S102
            return []
        if command == "check" and "--simulate" in flags:
            checked = check_file(file)
            budget = flags.pop("--time-budget", None)
            report = validate(
                file,
                games=int(flags.pop("--simulate")),
                seed=int(flags.pop("--seed", "0")),
                time_budget=float(budget) if budget is not None else None,
            )
            assert not flags and not options, example.run
            return list(sort_diagnostics([*checked.warnings, *report.to_diagnostics()]))
        if command == "check":
            assert not flags and not options, example.run
            return list(check_file(file).warnings)
        if command == "play":
            players = flags.pop("--players", None)
            seed = int(flags.pop("--seed", "0"))
            assert not flags, example.run
            game = load_game(file, players=int(players) if players else None, options=options)
            game.new_initial_state(seed=seed)
            return []
    except RuleDslError as exc:
        return list(exc.diagnostics)
    raise AssertionError(f"docs/errors.md:{example.line}: cannot run {example.run!r}")


# ============================================================================ the tests


def test_the_doc_is_read() -> None:
    # Guard for the tests below: the parser finds entries, examples and expectations.
    assert len(ENTRIES) >= 50
    assert {"E001", "E101", "E201", "E301", "E401", "E601", "R501", "W401"} <= set(ENTRIES)
    assert all(ex.produces for ex in EXAMPLES)


def test_every_code_ruledsl_emits_has_an_entry() -> None:
    missing = {code: where for code, where in emitted_codes().items() if code not in ENTRIES}
    assert missing == {}


def test_every_entry_is_a_code_ruledsl_emits() -> None:
    assert sorted(set(ENTRIES) - set(emitted_codes())) == []


def test_entries_are_in_order_and_each_has_an_example() -> None:
    # By hundreds (E4xx then W4xx: structure errors, then structure warnings), then by number.
    codes = list(ENTRIES)
    assert codes == sorted(codes, key=lambda c: (c[1], "EWR".index(c[0]), c[1:]))
    assert [code for code, examples in ENTRIES.items() if not examples] == []


def test_every_example_produces_its_own_code() -> None:
    wrong = []
    for ex in EXAMPLES:
        codes = [_HEADER.match(p.header).group("code") if _HEADER.match(p.header) else "?" for p in ex.produces]
        if ex.code not in codes:
            wrong.append((ex.id, codes))
    assert wrong == []


def test_produces_lines_are_well_formed() -> None:
    bad = [(ex.id, p.header) for ex in EXAMPLES for p in ex.produces if not _HEADER.match(p.header)]
    assert bad == []


@pytest.mark.parametrize("example", EXAMPLES, ids=lambda ex: ex.id)
def test_example_produces_exactly_what_the_doc_says(
    example: Example, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    produced = run(example, tmp_path, monkeypatch)
    assert [d.header() for d in produced] == [p.header for p in example.produces]
    for d, expected in zip(produced, example.produces, strict=True):
        if expected.hint is not None:
            assert d.hint == expected.hint, d.header()
        # The position is inside the example's file (or at 1:1 for a file-wide problem).
        if d.source is not None and d.source.text:
            assert 1 <= d.line <= d.source.line_count + 1
            assert 1 <= d.column <= len(d.source.line_text(d.line)) + 1


def test_doc_parser_reads_the_format() -> None:
    text = "\n".join(
        [
            "# Title",
            "### E999: a test entry",
            "```game",
            'game "g"',
            "```",
            "Produces: `t.game:1:1: error[E999]: one`",
            "Hint: `do this`",
            "Produces: `t.game:2:1: warning[W999]: two`",
            "Run: `ruledsl check x.game`",
            "Produces: `x.game:1:1: error[E999]: three`",
            "```python",
            "pass",
            "```",
            "Produces: `<input>:1:1: error[E999]: four`",
            "## Next part",
        ]
    )
    (first, second, third) = parse_doc(text)["E999"]
    assert (first.game, first.run, [p.header for p in first.produces]) == (
        'game "g"\n',
        None,
        ["t.game:1:1: error[E999]: one", "t.game:2:1: warning[W999]: two"],
    )
    assert first.produces[0].hint == "do this" and first.produces[1].hint is None
    assert (second.game, second.run, len(second.produces)) == (None, "ruledsl check x.game", 1)
    assert (third.python, third.produces[0].header) == ("pass\n", "<input>:1:1: error[E999]: four")
