"""Turn nodes back into rule-file text (unparse.py, fmt.py), and colour it: a Pygments lexer, a TextMate grammar."""
