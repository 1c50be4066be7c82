"""The syntax stage: rule-file text to nodes. parser.py is its front door; nodes.py loads no Lark."""
