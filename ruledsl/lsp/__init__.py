"""The language server (``ruledsl lsp``): rule files checked as they are typed, in any editor that speaks LSP.

``document`` (what a text means: diagnostics, the checked game), ``index`` (names and
their uses), ``cards`` and ``positions`` need neither pygls nor lsprotocol; ``features``
answers each request with lsprotocol values; ``server`` wires them to pygls.
"""
