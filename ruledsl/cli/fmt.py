"""The fmt command: rewrite rule files in the canonical layout, or say which would change (--check, --diff)."""

from __future__ import annotations

import argparse
import sys

from ruledsl.cli.command import Command
from ruledsl.cli.exits import EXIT_INTERNAL, EXIT_INVALID, EXIT_OK, EXIT_REFORMAT, Usage, print_diagnostics


def add_arguments(p: argparse.ArgumentParser) -> None:
    """Declare the files to format, and --check or --diff to write nothing."""
    p.add_argument(
        "files", nargs="+", metavar="FILE", help="rule files (with --check or --diff, also bundled game names)"
    )
    p.add_argument(
        "--check",
        action="store_true",
        help="write nothing; list the files that would be reformatted, and exit 1 if there is any",
    )
    p.add_argument(
        "--diff",
        action="store_true",
        help="write nothing; print what would change as a unified diff, and exit 1 if anything would",
    )


def run(args: argparse.Namespace) -> int:
    """Format each file, or with --check or --diff tell how it would change; return the worst exit code."""
    from pathlib import Path

    from ruledsl.format.fmt import format_text
    from ruledsl.loading import decode_source, read_rule_bytes, resolve_path, shown_path
    from ruledsl.resources import named_games
    from ruledsl.text.errors import RuleDslError

    write = not (args.check or args.diff)
    names = list(dict.fromkeys(args.files))
    if write:
        bundled = [name for name in names if not Path(name).is_file() and name in named_games()]
        if bundled:
            name = bundled[0]
            raise Usage(
                f"'{name}' names a bundled game, not a file: fmt rewrites files in place, so give the file's path "
                f"({shown_path(name, resolve_path(name))}), or use --check or --diff, which write nothing"
            )
    status = EXIT_OK
    changed: list[str] = []
    unchanged = failed = 0
    for name in names:
        try:
            path = resolve_path(name)
            original = read_rule_bytes(path, shown_path(name, path))  # read once: what is compared is what was read
            source = decode_source(original, shown_path(name, path))
            formatted = format_text(source)  # as check reads it: one byte-order mark dropped, no more
        except RuleDslError as exc:
            print_diagnostics(exc.diagnostics, sys.stderr)
            failed += 1
            status = max(status, EXIT_INVALID)
            continue
        if formatted.encode("utf-8") == original:
            unchanged += 1
            continue
        if not _same_rules(source.text, formatted, source.path):
            print(
                f"ruledsl: internal error: formatting '{source.path}' would change its rules, so it is left as it is "
                "(please report it, with the file)",
                file=sys.stderr,
            )
            failed += 1
            status = max(status, EXIT_INTERNAL)
            continue
        if args.diff:
            before = original.decode("utf-8", "replace").splitlines(keepends=True)
            after = formatted.splitlines(keepends=True)
            sys.stdout.writelines(_diff_lines(before, after, source.path))
        if write:
            try:
                path.write_bytes(formatted.encode("utf-8"))
            except OSError as exc:
                print(f"ruledsl: error: cannot write '{source.path}': {exc.strerror or exc}", file=sys.stderr)
                failed += 1
                status = max(status, EXIT_INVALID)
                continue
            print(f"reformatted {source.path}", file=sys.stderr)
        else:
            print(f"would reformat {source.path}", file=sys.stderr)
        changed.append(source.path)
    print(_fmt_summary(len(changed), unchanged, failed, write), file=sys.stderr)
    if changed and not write:
        status = max(status, EXIT_REFORMAT)
    return status


def _same_rules(text: str, formatted: str, path: str) -> bool:
    """Whether the formatted text of a rule file parses to the rules of its text (a guard against fmt's bugs)."""
    from ruledsl.format.unparse import unparse
    from ruledsl.syntax.parser import parse
    from ruledsl.text.errors import RuleDslError

    try:
        return unparse(parse(formatted, path)) == unparse(parse(text, path))
    except RuleDslError:
        return False


def _diff_lines(before: list[str], after: list[str], name: str) -> list[str]:
    """A unified diff of a file's text, each line ending with a newline (even the file's last)."""
    import difflib

    lines = list(difflib.unified_diff(before, after, name, name))
    return [line if line.endswith("\n") else line + "\n\\ No newline at end of file\n" for line in lines]


def _fmt_summary(changed: int, unchanged: int, failed: int, write: bool) -> str:
    parts = []
    if changed:
        parts.append(f"{_files(changed)} {'reformatted' if write else 'would be reformatted'}")
    if unchanged:
        parts.append(f"{_files(unchanged)} {'left unchanged' if write else 'already formatted'}")
    if failed:
        parts.append(f"{_files(failed)} could not be formatted (see above)")
    return ", ".join(parts) if parts else "no file"


def _files(k: int) -> str:
    return f"{k} file{'s' if k != 1 else ''}"


COMMAND = Command(
    "fmt",
    help="write rule files in the canonical layout",
    description="Rewrite rule files in place in the canonical layout (comments kept); say which were reformatted.",
    add_arguments=add_arguments,
    run=run,
)
