"""The ruledsl command line: the only package that prints or exits; one module per command."""

from ruledsl.cli.app import main

__all__ = ["main"]
