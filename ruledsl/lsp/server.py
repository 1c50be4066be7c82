"""The language server over stdio: pygls wiring of the features, and diagnostics debounced as the user types."""

from __future__ import annotations

import asyncio
import sys
from typing import Any, BinaryIO, cast
from urllib.parse import unquote

from lsprotocol import types as t
from pygls.exceptions import JsonRpcException
from pygls.lsp.server import LanguageServer
from pygls.uris import to_fs_path

from ruledsl import __version__
from ruledsl.lsp import features
from ruledsl.lsp.document import Document
from ruledsl.lsp.framing import BoundedInput

#: How long the text must stay unchanged before it is checked again: typing is not slowed by checks.
DEFAULT_DEBOUNCE = 0.15


class RuleServer(LanguageServer):
    """The ruledsl language server: one analysed Document per open rule file, the latest version's."""

    def __init__(self, debounce: float = DEFAULT_DEBOUNCE) -> None:
        super().__init__("ruledsl", __version__)
        self.debounce = debounce
        self.analysed: dict[str, Document] = {}
        self.pending: dict[str, asyncio.Task[None]] = {}

    def document(self, uri: str) -> Document:
        """Return the analysis of the document's current text (made now if the text changed since).

        Only a document the client opened: for any other URI pygls would read the disk (a FIFO
        blocks the server, ``/dev/zero`` never ends, ``/proc/self/environ`` tells secrets), so
        the request fails without reading anything.
        """
        if unquote(uri) not in self.workspace.text_documents:  # pygls keeps them by their unquoted URI
            raise JsonRpcException(
                f"'{uri}' is not open: the ruledsl server answers only about documents the editor opened",
                code=t.LSPErrorCodes.RequestFailed.value,
            )
        text = self.workspace.get_text_document(uri)
        known = self.analysed.get(uri)
        if known is None or known.text != text.source.removeprefix("\ufeff"):
            known = self.analysed[uri] = Document(_path(uri), text.source)
        return known

    def publish(self, uri: str) -> None:
        """Check the document's latest text and publish its diagnostics, with the version they are about."""
        version = self.workspace.get_text_document(uri).version
        doc = self.document(uri)
        self.text_document_publish_diagnostics(
            t.PublishDiagnosticsParams(uri=uri, version=version, diagnostics=features.lsp_diagnostics(doc, uri))
        )

    def schedule(self, uri: str) -> None:
        """Publish once the text has stayed unchanged for the debounce time: a newer change cancels an older one."""
        waiting = self.pending.pop(uri, None)
        if waiting is not None:
            waiting.cancel()
        self.pending[uri] = asyncio.ensure_future(self._publish_later(uri))

    async def _publish_later(self, uri: str) -> None:
        await asyncio.sleep(self.debounce)
        self.pending.pop(uri, None)
        if uri in self.workspace.text_documents:
            self.publish(uri)


def _path(uri: str) -> str:
    return to_fs_path(uri) or uri


def build_server(debounce: float = DEFAULT_DEBOUNCE) -> RuleServer:
    """Make the server and register its features."""
    server = RuleServer(debounce)

    @server.feature(t.TEXT_DOCUMENT_DID_OPEN)
    def did_open(ls: RuleServer, params: t.DidOpenTextDocumentParams) -> None:
        ls.publish(params.text_document.uri)

    @server.feature(t.TEXT_DOCUMENT_DID_CHANGE)
    def did_change(ls: RuleServer, params: t.DidChangeTextDocumentParams) -> None:
        ls.schedule(params.text_document.uri)

    @server.feature(t.TEXT_DOCUMENT_DID_CLOSE)
    def did_close(ls: RuleServer, params: t.DidCloseTextDocumentParams) -> None:
        uri = params.text_document.uri
        waiting = ls.pending.pop(uri, None)
        if waiting is not None:
            waiting.cancel()
        ls.analysed.pop(uri, None)
        ls.text_document_publish_diagnostics(t.PublishDiagnosticsParams(uri=uri, diagnostics=[]))

    @server.feature(t.TEXT_DOCUMENT_HOVER)
    def hover(ls: RuleServer, params: t.HoverParams) -> t.Hover | None:
        doc = ls.document(params.text_document.uri)
        return features.hover(doc, features.offset_of(doc, params.position))

    @server.feature(t.TEXT_DOCUMENT_COMPLETION, t.CompletionOptions(trigger_characters=['"', "."]))
    def completion(ls: RuleServer, params: t.CompletionParams) -> t.CompletionList:
        doc = ls.document(params.text_document.uri)
        items = features.completion(doc, features.offset_of(doc, params.position))
        return t.CompletionList(is_incomplete=False, items=items)

    @server.feature(t.TEXT_DOCUMENT_DEFINITION)
    def definition(ls: RuleServer, params: t.DefinitionParams) -> t.Location | None:
        uri = params.text_document.uri
        doc = ls.document(uri)
        return features.definition(doc, uri, features.offset_of(doc, params.position))

    @server.feature(t.TEXT_DOCUMENT_REFERENCES)
    def references(ls: RuleServer, params: t.ReferenceParams) -> list[t.Location]:
        uri = params.text_document.uri
        doc = ls.document(uri)
        offset = features.offset_of(doc, params.position)
        return features.references(doc, uri, offset, params.context.include_declaration)

    @server.feature(t.TEXT_DOCUMENT_RENAME)
    def rename(ls: RuleServer, params: t.RenameParams) -> t.WorkspaceEdit | None:
        uri = params.text_document.uri
        doc = ls.document(uri)
        try:
            return features.rename(doc, uri, features.offset_of(doc, params.position), params.new_name)
        except features.RenameRefused as exc:
            raise JsonRpcException(str(exc), code=t.LSPErrorCodes.RequestFailed.value) from None

    @server.feature(t.TEXT_DOCUMENT_DOCUMENT_SYMBOL)
    def document_symbol(ls: RuleServer, params: t.DocumentSymbolParams) -> list[t.DocumentSymbol]:
        return features.document_symbols(ls.document(params.text_document.uri))

    @server.feature(t.TEXT_DOCUMENT_FORMATTING)
    def formatting(ls: RuleServer, params: t.DocumentFormattingParams) -> list[t.TextEdit] | None:
        return features.formatting(ls.document(params.text_document.uri))

    @server.feature(t.TEXT_DOCUMENT_CODE_ACTION, t.CodeActionOptions(code_action_kinds=[t.CodeActionKind.QuickFix]))
    def code_action(ls: RuleServer, params: t.CodeActionParams) -> list[t.CodeAction]:
        uri = params.text_document.uri
        return features.code_actions(ls.document(uri), uri, list(params.context.diagnostics))

    return server


def serve(debounce: float = DEFAULT_DEBOUNCE, stdin: BinaryIO | None = None, **kwargs: Any) -> None:
    """Run the language server on stdin and stdout until the client says exit; the framing bounded (BoundedInput)."""
    bounded = BoundedInput(stdin or sys.stdin.buffer)
    build_server(debounce).start_io(stdin=cast(BinaryIO, bounded), **kwargs)  # pygls calls readline() and read(n)
