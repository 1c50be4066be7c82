"""The language server (``ruledsl lsp``): rule files checked as they are typed, in any editor that speaks LSP.

``analysis`` (what a document's text means: diagnostics, names, references) and
``features`` (hover, completion, definitions, renames, fixes) need no pygls; ``server``
wires them to the protocol.
"""
