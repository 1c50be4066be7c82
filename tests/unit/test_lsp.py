"""The language server: a real ``python -m ruledsl lsp`` over stdio JSON-RPC, driven by pygls's client.

Plus the name index on every shipped game (every declaration and reference found, at its
word), and the keyword glossary shared with docs/language.md.
"""

from __future__ import annotations

import asyncio
import os
import sys
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest

from tests.extras import require

require("pygls", "lsp")

from lsprotocol import types as t  # noqa: E402
from pygls.exceptions import JsonRpcException  # noqa: E402
from pygls.lsp.client import LanguageClient  # noqa: E402

from ruledsl.lsp.document import Document  # noqa: E402
from ruledsl.lsp.index import NameIndex  # noqa: E402
from ruledsl.lsp.keywords import keyword_meanings, keywords_text  # noqa: E402
from ruledsl.resources import named_games  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
URI = "file:///tmp/quasenbo_lite.game"

# A small game with non-ASCII text: '𝄞' is two UTF-16 units, 'ä', '♠' one each.
GAME = """\
game "Quäsenbö"
players 2 to 3

values suit: spades "♠", hearts "♥"
values rank: 2, 3, 4
card suit: suit
card rank: rank

deck:
    card "{rank}{suit}" for rank in 2 to 4, suit in spades to hearts
    card "Joker"

zone stock: shared, hidden
zone pile: shared, public
zone hand: per player, owner

var passes = 0

define playable(c: card) = c.rank >= 3 or c is "Joker"

setup:
    shuffle stock
    deal 2 from stock to each hand
    go to play

phase play:
    action lay(c: card from hand) when playable(c):
        say "𝄞 {size of hand} left"
        move c to pile
        if hand is empty:
            end game, winner player
    action draw otherwise when stock is not empty:
        move top of stock to hand
        add 1 to passes
    action stuck otherwise when stock is empty:
        end game, draw
"""
LINES = GAME.splitlines()
# Line 28 (index 27) misspells 'hand' after the two-unit '𝄞'; line 24 (index 23) has a syntax error.
BROKEN = GAME.replace("size of hand}", "size of hnad}").replace("    go to play\n", "    go to play play\n")


def at(line: int, word: str, nth: int = 0) -> t.Position:
    """The position (UTF-16) of the nth occurrence of ``word`` on a 0-based line of GAME."""
    text = LINES[line]
    col = -1
    for _ in range(nth + 1):
        col = text.index(word, col + 1)
    return t.Position(line, len(text[:col].encode("utf-16-le")) // 2)


class Session:
    """A ruledsl language server in a subprocess, and the client talking to it."""

    def __init__(self) -> None:
        self.client = LanguageClient("ruledsl-test", "1")
        self.diagnostics: asyncio.Queue[t.PublishDiagnosticsParams] = asyncio.Queue()

        @self.client.feature(t.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
        def published(params: t.PublishDiagnosticsParams) -> None:
            self.diagnostics.put_nowait(params)

    async def start(self, *options: str) -> None:
        await self.client.start_io(sys.executable, "-m", "ruledsl", "lsp", *options, cwd=str(ROOT))
        result = await self.client.initialize_async(
            t.InitializeParams(capabilities=t.ClientCapabilities(), process_id=None, root_uri=None)
        )
        self.capabilities = result.capabilities
        self.client.initialized(t.InitializedParams())

    async def open(self, text: str) -> list[t.Diagnostic]:
        self.client.text_document_did_open(
            t.DidOpenTextDocumentParams(t.TextDocumentItem(uri=URI, language_id="ruledsl", version=1, text=text))
        )
        return await self.published(1)

    async def published(self, version: int) -> list[t.Diagnostic]:
        while True:
            params = await asyncio.wait_for(self.diagnostics.get(), 20)
            if params.version == version:
                return list(params.diagnostics)

    async def stop(self) -> None:
        await asyncio.wait_for(self.client.shutdown_async(None), 10)
        self.client.exit(None)
        await asyncio.wait_for(self.client.stop(), 10)


Body = Callable[[Session, list[t.Diagnostic]], Awaitable[Any]]


def session(text: str = GAME, *options: str) -> Callable[[Body], Any]:
    """Run a test body against a fresh server with ``text`` open; shut the server down after."""

    def run(body: Body) -> Any:
        async def go() -> Any:
            s = Session()
            await s.start(*options)
            try:
                # A request the client cannot send is never answered: fail rather than hang.
                return await asyncio.wait_for(body(s, await s.open(text)), 60)
            finally:
                await s.stop()

        return asyncio.run(go())

    return run


def doc() -> t.TextDocumentIdentifier:
    return t.TextDocumentIdentifier(uri=URI)


class TestDiagnostics:
    def test_a_broken_file_then_fixed(self) -> None:
        async def body(s: Session, opened: list[t.Diagnostic]) -> None:
            assert s.capabilities.hover_provider and s.capabilities.rename_provider
            by_code = {d.code: d for d in opened}
            # The syntax error does not hide the unknown name in another block.
            assert set(by_code) == {"E101", "E201"}, [d.message for d in opened]
            syntax = by_code["E101"]
            assert syntax.range.start == t.Position(23, 15) and syntax.severity == t.DiagnosticSeverity.Error
            unknown = by_code["E201"]
            # Column 25 in characters, 26 in UTF-16 units: '𝄞' is a surrogate pair.
            assert unknown.range == t.Range(t.Position(27, 25), t.Position(27, 29))
            assert unknown.message.startswith("unknown name 'hnad'\nhint: did you mean 'hand'?")
            assert unknown.source == "ruledsl"
            related = unknown.related_information
            assert related and related[0].location.range.start == t.Position(14, 5)  # zone hand

            # A quick fix for the did-you-mean, replacing the word and nothing else.
            context = t.CodeActionContext(diagnostics=[unknown])
            actions = await s.client.text_document_code_action_async(
                t.CodeActionParams(text_document=doc(), range=unknown.range, context=context)
            )
            assert actions and actions[0].title == "Change 'hnad' to 'hand'"
            assert list(actions[0].edit.changes[URI]) == [t.TextEdit(unknown.range, "hand")]

            # Formatting is refused while the file does not parse: no edit.
            formatted = await s.client.text_document_formatting_async(
                t.DocumentFormattingParams(doc(), t.FormattingOptions(tab_size=4, insert_spaces=True))
            )
            assert not formatted

            # Two quick changes: only the latest version is checked, and it is clean.
            for version, text in ((2, BROKEN.replace("go to play play", "go to play")), (3, GAME)):
                s.client.text_document_did_change(
                    t.DidChangeTextDocumentParams(
                        t.VersionedTextDocumentIdentifier(uri=URI, version=version),
                        [t.TextDocumentContentChangeWholeDocument(text=text)],
                    )
                )
            assert await s.published(3) == []
            assert s.diagnostics.empty()  # version 2 was never checked

        # A debounce of a second: however loaded the machine, version 3 arrives before version 2 is due.
        session(BROKEN, "--debounce", "1000")(body)

    def test_a_warning_is_a_warning(self) -> None:
        text = GAME + '\nzone burned: shared, public\n\nwhen cs enter burned:\n    say "burnt"\n'

        async def body(s: Session, opened: list[t.Diagnostic]) -> None:
            assert [(d.code, d.severity) for d in opened] == [("W403", t.DiagnosticSeverity.Warning)]
            assert opened[0].range.start.line == len(LINES) + 3

        session(text)(body)


class TestFeatures:
    def test_hover_completion_and_names(self) -> None:
        async def body(s: Session, opened: list[t.Diagnostic]) -> None:
            c = s.client
            assert opened == []

            async def hover(position: t.Position) -> str:
                answer = await c.text_document_hover_async(t.HoverParams(doc(), position))
                assert answer is not None
                return answer.contents.value

            # A keyword: its line of docs/language.md.
            assert keyword_meanings()["shuffle"] in await hover(at(21, "shuffle"))
            # A declared name: its kind, its declaration as written, its type.
            zone = await hover(at(28, "pile"))
            assert "**zone** `pile`" in zone and "zone pile: shared, public" in zone
            var = await hover(at(33, "passes"))
            assert "var" in var and "type: a number" in var
            # A card in quotes: its attributes, from the deck.
            card = await hover(at(18, "Joker"))
            assert "**card** `Joker`" in card and 'card "Joker"' in card

            async def labels(position: t.Position) -> set[str]:
                answer = await c.text_document_completion_async(t.CompletionParams(doc(), position))
                items = answer.items if isinstance(answer, t.CompletionList) else answer
                return {i.label for i in items}

            # At a statement: statement keywords and names, not declarations.
            here = await labels(t.Position(22, 4))
            assert {"move", "deal", "shuffle", "stock", "playable"} <= here and "zone" not in here
            # After 'zone hand:' only what may follow.
            assert await labels(at(14, "per")) == {"per", "shared"}
            # Inside quotes, card names.
            assert {"2♠", "4♥", "Joker"} <= await labels(t.Position(18, at(18, "Joker").character + 1))

            # Go to definition, references.
            found = await c.text_document_definition_async(t.DefinitionParams(doc(), at(28, "pile")))
            assert found == t.Location(URI, t.Range(at(13, "pile"), t.Position(13, 9)))
            uses = await c.text_document_references_async(
                t.ReferenceParams(
                    context=t.ReferenceContext(include_declaration=True), text_document=doc(), position=at(12, "stock")
                )
            )
            assert sorted(u.range.start.line for u in uses) == [12, 21, 22, 31, 32, 34]

            # Rename: every use, one edit each; a keyword is refused.
            edit = await c.text_document_rename_async(t.RenameParams(doc(), at(33, "passes"), "misses"))
            assert sorted(e.range.start.line for e in edit.changes[URI]) == [16, 33]
            assert {e.new_text for e in edit.changes[URI]} == {"misses"}
            with pytest.raises(Exception, match="keyword"):
                await c.text_document_rename_async(t.RenameParams(doc(), at(16, "passes"), "move"))

            # Document symbols: phases with their actions, definitions, zones.
            symbols = await c.text_document_document_symbol_async(t.DocumentSymbolParams(doc()))
            names = {sym.name: sym for sym in symbols}
            assert {"play", "playable", "stock", "passes", "suit"} <= set(names)
            assert [a.name for a in names["play"].children or ()] == ["lay", "draw", "stuck"]

        session()(body)

    def test_formatting_rewrites_the_layout(self) -> None:
        from ruledsl.format.fmt import format_source

        messy = GAME.replace("var passes = 0", "var   passes=0")

        async def body(s: Session, opened: list[t.Diagnostic]) -> None:
            edits = await s.client.text_document_formatting_async(
                t.DocumentFormattingParams(doc(), t.FormattingOptions(tab_size=4, insert_spaces=True))
            )
            assert len(edits) == 1 and edits[0].new_text == format_source(messy) != messy
            assert "var passes = 0\n" in edits[0].new_text
            assert edits[0].range == t.Range(t.Position(0, 0), t.Position(len(LINES), 0))

        session(messy)(body)


def test_without_the_extra_a_one_line_error(tmp_path: Path) -> None:
    import subprocess

    blocker = tmp_path / "pygls.py"
    blocker.write_text("raise ModuleNotFoundError(\"No module named 'pygls'\", name='pygls')\n")
    env = {"PYTHONPATH": f"{tmp_path}:{ROOT}", "PATH": "/usr/bin:/bin"}
    done = subprocess.run([sys.executable, "-m", "ruledsl", "lsp"], capture_output=True, text=True, env=env, timeout=60)
    assert done.returncode == 2
    assert done.stderr.strip().splitlines() == [
        "ruledsl: error: the language server needs 'pygls': pip install 'ruledsl[lsp]'"
    ]


class TestIndex:
    @pytest.mark.parametrize("name", sorted(named_games()))
    def test_every_name_of_a_shipped_game_resolves(self, name: str) -> None:
        path = named_games()[name]
        doc = Document(str(path), path.read_text(encoding="utf-8"))
        assert doc.diagnostics == () or all(not d.is_error for d in doc.diagnostics)
        index = doc.index
        assert isinstance(index, NameIndex)
        for symbol in index.symbols:
            assert index.declaration_of(symbol) is not None, symbol.name
        for o in index.occurrences:
            assert doc.source.text[o.span.start.offset : o.span.end.offset] == o.symbol.name
            assert index.at(o.span.start.offset) is not None
        uses = [o for o in index.occurrences if not o.is_declaration]
        assert len(uses) > 25  # the smallest, Kuhn poker, uses its names 31 times

    def test_a_syntax_error_keeps_the_rest(self) -> None:
        doc = Document("x.game", GAME.replace("phase play:", "phase play"))
        assert [d.code for d in doc.diagnostics] == ["E103"]  # not E401 (no phase), nor 'play' unknown
        assert doc.index is not None and "stock" in {s.name for s in doc.index.symbols}

    def test_each_broken_block_is_reported_once_and_the_rest_checked(self) -> None:
        text = GAME.replace("shuffle stock", "shuffle stock\x1b").replace("var passes = 0", "var passes = ")
        text = text.replace("move c to pile", "move c to pil")
        doc = Document("x.game", text)
        # 'passes' is declared in the broken line 17: its use on line 34 is not called unknown.
        assert [(d.code, d.line) for d in doc.diagnostics] == [("E101", 17), ("E102", 22), ("E201", 29)]

    def test_completion_after_a_broken_block(self) -> None:
        from ruledsl.lsp.features import completion

        text = GAME.replace("var passes = 0", "var passes = ")
        offered = {i.label for i in completion(Document("x.game", text), text.index("    deal 2") + 4)}
        assert {"deal", "move", "stock"} <= offered and not {"zone", "lay"} & offered

    def test_a_file_too_large_is_one_error(self) -> None:
        doc = Document("x.game", GAME + "#" * 1_100_000)
        assert [d.code for d in doc.diagnostics] == ["E002"]


def test_keywords_are_the_text_of_the_language_docs() -> None:
    text = (ROOT / "docs" / "language.md").read_text(encoding="utf-8")
    quoted = text.split("<!-- keywords: start -->\n", 1)[1].split("<!-- keywords: end -->", 1)[0]
    assert quoted == keywords_text()
    assert len(keyword_meanings()) == len(keywords_text().splitlines())


class TestHostileClient:
    """A client may ask about any URI and send any bytes: answers only for what it opened, framing bounded."""

    @staticmethod
    async def alive(s: Session) -> None:
        """The server still answers about the document it has open."""
        symbols = await asyncio.wait_for(
            s.client.text_document_document_symbol_async(t.DocumentSymbolParams(doc())), 20
        )
        assert symbols

    def test_no_answer_from_the_disk_for_a_document_never_opened(self, tmp_path: Path) -> None:
        fifo = tmp_path / "pipe.game"
        os.mkfifo(fifo)  # reading it would wait for a writer for ever
        plain = tmp_path / "plain.game"
        plain.write_text(GAME, encoding="utf-8")  # a regular file, but not opened: not read either
        uris = [fifo.as_uri(), "file:///dev/zero", "file:///proc/self/environ", "file:///etc/shadow", plain.as_uri()]

        async def body(s: Session, opened: list[t.Diagnostic]) -> None:
            for uri in uris:
                request = t.DocumentSymbolParams(t.TextDocumentIdentifier(uri=uri))
                with pytest.raises(JsonRpcException, match="not open"):
                    await asyncio.wait_for(s.client.text_document_document_symbol_async(request), 20)
                hover = t.HoverParams(t.TextDocumentIdentifier(uri=uri), t.Position(0, 0))
                with pytest.raises(JsonRpcException, match="not open"):
                    await asyncio.wait_for(s.client.text_document_hover_async(hover), 20)
                await self.alive(s)

        session()(body)

    def test_a_message_too_large_or_a_header_without_end_is_skipped(self) -> None:
        async def body(s: Session, opened: list[t.Diagnostic]) -> None:
            server = s.client._server
            assert server is not None and server.stdin is not None
            # A body the server would have to hold whole (a terabyte), then a body that was never sent whole.
            server.stdin.write(b'Content-Length: 1000000000000\r\n\r\n{"jsonrpc": "2.0", "id": 999, "method": "x"')
            await self.alive(s)
            # A header line of 3 MB that never ends with a line break until then.
            server.stdin.write(b"X-Junk: " + b"x" * 3_000_000 + b"\r\n")
            await self.alive(s)
            assert server.returncode is None
            # An open document named with its URI percent-encoded is still the document opened.
            quoted = t.DocumentSymbolParams(t.TextDocumentIdentifier(uri=URI.replace("_", "%5F")))
            assert await asyncio.wait_for(s.client.text_document_document_symbol_async(quoted), 20)

        session()(body)

    def test_an_edit_past_the_size_limit_is_refused_before_it_is_parsed(self) -> None:
        async def body(s: Session, opened: list[t.Diagnostic]) -> None:
            assert opened == []
            # 20 MB of comments, 2 MB an edit (each message below the framing bound), typed faster than the debounce.
            block = ("# " + "x" * 98 + "\n") * 20_000
            for version in range(2, 12):
                change = t.TextDocumentContentChangePartial(
                    range=t.Range(t.Position(0, 0), t.Position(0, 0)), text=block
                )
                s.client.text_document_did_change(
                    t.DidChangeTextDocumentParams(t.VersionedTextDocumentIdentifier(uri=URI, version=version), [change])
                )
                await asyncio.sleep(0.05)
            [too_large] = await s.published(11)
            assert too_large.code == "E002" and "too large" in too_large.message
            request = t.DocumentSymbolParams(doc())
            assert await asyncio.wait_for(s.client.text_document_document_symbol_async(request), 20) == []

        session()(body)
