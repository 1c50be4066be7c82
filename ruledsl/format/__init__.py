"""Turn nodes back into rule-file text: unparse.py writes nodes (no parser), fmt.py formats files."""
