"""Agents in another process: sent the seat's view as JSON lines, they answer with a label.

An agent in the same process as the game can reach the true state however it is hidden
(``gc.get_objects()``, a caller's frame). One in another process is sent nothing but
what its seat may know, so it cannot: use it for agents you do not trust (a contest, a
student's bot). The protocol, one JSON object per line:

- to the agent, each time its seat is to act:
  ``{"seat": 1, "observation": {...}, "legal_actions": ["draw", "play 7♥"]}``
  (the observation is ``GameState.observation(seat)``, JSON as it is);
- from the agent: ``{"action": "play 7♥"}``, one of the labels it was sent.

The game closes the agent's input when it is done with it; the agent then exits.
``ProcessAgent`` runs an agent so (any program, in any language); ``serve`` is the loop
of an agent written in Python; ``python -m ruledsl.agents.process [--seed N]`` is one that
chooses at random (the protocol's example, and its test).
"""

from __future__ import annotations

import json
import random
import selectors
import subprocess
import sys
from collections.abc import Callable, Sequence
from typing import IO, TYPE_CHECKING, Any, ClassVar

if TYPE_CHECKING:
    from ruledsl.agents.view import SeatView
    from ruledsl.engine.values import Action


class ProcessAgentError(RuntimeError):
    """An agent process that broke the protocol: no answer in time, a bad line, an action not offered."""


class ProcessAgent:
    """An agent that runs in its own process and is sent its seat's view alone (see the module)."""

    name: ClassVar[str] = "process"
    omniscient: ClassVar[bool] = False
    resamples: ClassVar[bool] = False

    def __init__(self, command: Sequence[str], timeout: float = 30.0) -> None:
        self.command = list(command)
        self.timeout = timeout
        self._proc: subprocess.Popen[str] | None = None

    def choose(self, view: SeatView) -> Action:
        legal = view.legal_actions()
        labels = [str(a) for a in legal]
        message = {"seat": view.seat, "observation": view.observation(), "legal_actions": labels}
        answer = self._ask(json.dumps(message))
        try:
            label = json.loads(answer)["action"]
        except (ValueError, TypeError, KeyError):
            raise ProcessAgentError(f'the agent answered {answer[:80]!r}, not {{"action": LABEL}}') from None
        if label not in labels:
            raise ProcessAgentError(f"the agent chose {str(label)[:80]!r}, which is not one of its legal actions")
        return legal[labels.index(label)]

    def close(self) -> None:
        """Close the agent's input and wait for it to exit (killed if it does not, in a few seconds)."""
        proc, self._proc = self._proc, None
        if proc is None:
            return
        assert proc.stdin is not None and proc.stdout is not None
        try:
            proc.stdin.close()
            proc.wait(timeout=5)
        except (OSError, subprocess.TimeoutExpired):
            proc.kill()
            proc.wait()
        proc.stdout.close()

    def __enter__(self) -> ProcessAgent:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _ask(self, line: str) -> str:
        proc = self._proc
        if proc is None:
            proc = self._proc = subprocess.Popen(
                self.command,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                text=True,
                encoding="utf-8",
                bufsize=1,
            )
        assert proc.stdin is not None and proc.stdout is not None
        try:
            proc.stdin.write(line + "\n")
            proc.stdin.flush()
        except OSError:
            raise ProcessAgentError(f"the agent ({self.command[0]}) is no longer running") from None
        with selectors.DefaultSelector() as sel:
            sel.register(proc.stdout, selectors.EVENT_READ)
            if not sel.select(self.timeout):
                raise ProcessAgentError(f"the agent ({self.command[0]}) did not answer within {self.timeout:g} s")
        answer = proc.stdout.readline()
        if not answer:
            raise ProcessAgentError(f"the agent ({self.command[0]}) stopped without answering")
        return answer


def serve(
    choose: Callable[[dict[str, Any], list[str]], str], stdin: IO[str] | None = None, stdout: IO[str] | None = None
) -> None:
    """Run an agent's side of the protocol: ``choose(observation, legal labels)`` returns a label."""
    stdin = sys.stdin if stdin is None else stdin
    stdout = sys.stdout if stdout is None else stdout
    for line in stdin:
        if not line.strip():
            continue
        message = json.loads(line)
        label = choose(message["observation"], message["legal_actions"])
        stdout.write(json.dumps({"action": label}) + "\n")
        stdout.flush()


def _main(argv: Sequence[str]) -> None:
    """The random agent of the protocol: ``python -m ruledsl.agents.process [--seed N]``."""
    seed = int(argv[argv.index("--seed") + 1]) if "--seed" in argv else 0
    rng = random.Random(seed)
    serve(lambda observation, legal: rng.choice(legal))


if __name__ == "__main__":
    _main(sys.argv[1:])
