"""Agents in another process: sent the seat's view as JSON lines, they answer with a label.

An agent in the same process as the game can reach the true state however it is hidden
(``gc.get_objects()``, a caller's frame). One in another process is sent nothing but
what its seat may know, so it cannot: use it for agents you do not trust (a contest, a
student's bot). The protocol, one JSON object per line:

- to the agent, each time its seat is to act:
  ``{"seat": 1, "observation": {...}, "legal_actions": ["draw", "play 7♥"]}``
  (the observation is ``GameState.observation(seat)``, JSON as it is);
- from the agent: ``{"action": "play 7♥"}``, one of the labels it was sent.

The game closes the agent's input when it is done with it; the agent then exits. Its
seed (a one-way function of the game's seed and its seat: ``private_seed``) is in the
environment variable ``RULEDSL_AGENT_SEED``, for an agent that wants its games to replay exactly.
``ProcessAgent`` runs an agent so (any program, in any language; ``process:COMMAND`` in
``--seats``); ``serve`` is the loop of an agent written in Python; ``python -m
ruledsl.agents.process [--seed N]`` is one that chooses at random (the protocol's
example, and its test).
"""

from __future__ import annotations

import json
import os
import random
import selectors
import shlex
import shutil
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from typing import IO, TYPE_CHECKING, Any, ClassVar

from ruledsl.agents.base import AgentSpecError, Option
from ruledsl.text.render import clip

if TYPE_CHECKING:
    from ruledsl.agents.view import SeatView
    from ruledsl.engine.values import Action

#: The longest answer read from an agent: a line longer than this is garbage, not a move.
MAX_ANSWER_BYTES = 64 * 1024

#: How long an agent may take to answer each move, in seconds, unless ``timeout=`` says otherwise.
DEFAULT_TIMEOUT = 30.0


class ProcessAgentError(RuntimeError):
    """An agent process that broke the protocol: no answer in time, a bad line, an action not offered.

    Its message is one line that names the seat and the command; the game it was asked in
    is left as it was before the question (nothing was applied)."""


def message(view: SeatView) -> str:
    """The line a process agent is sent when its seat is to act: built from the seat's view alone."""
    labels = [str(a) for a in view.legal_actions()]
    return json.dumps({"seat": view.seat, "observation": view.observation(), "legal_actions": labels})


def command_of(text: str) -> list[str]:
    """The program and arguments of ``process:COMMAND``, split as a POSIX shell would (no shell runs it).

    A first word ending in ``.py`` is a Python script, run with this interpreter. Raise
    AgentSpecError when there is no command or the program cannot be found.
    """
    try:
        argv = shlex.split(text)
    except ValueError as exc:  # an unclosed quote
        raise AgentSpecError(f"process agent command {text!r}: {exc}") from None
    if not argv:
        raise AgentSpecError("a process agent needs a command, as process:python3 my_agent.py")
    program = argv[0]
    if program.endswith(".py"):
        if not os.path.isfile(program):
            raise AgentSpecError(f"process agent: no script {program!r}")
        return [sys.executable, *argv]
    found = shutil.which(program)
    if found is None:
        what = "no program" if os.sep in program else "no program on PATH named"
        raise AgentSpecError(f"process agent: {what} {program!r}")
    return argv


class ProcessAgent:
    """A program of your own, in another process, sent its seat's view as JSON lines (process:COMMAND)."""

    name: ClassVar[str] = "process"
    omniscient: ClassVar[bool] = False
    resamples: ClassVar[bool] = False
    OPTIONS: ClassVar[dict[str, Option]] = {
        "timeout": Option(float, DEFAULT_TIMEOUT, "seconds to wait for each move", low=0.01),
        "command": Option(str, "", "the program and its arguments (the rest of the entry)"),
    }

    def __init__(self, command: Sequence[str] | str = (), timeout: float = DEFAULT_TIMEOUT, seed: int = 0) -> None:
        self.command = command_of(command) if isinstance(command, str) else list(command)
        self.shown = command if isinstance(command, str) else shlex.join(self.command)  # as the user wrote it
        if not self.command:
            raise AgentSpecError("a process agent needs a command, as process:python3 my_agent.py")
        self.timeout = timeout
        self.seed = seed
        self._proc: subprocess.Popen[bytes] | None = None
        self._buffer = b""

    def choose(self, view: SeatView) -> Action:
        legal = view.legal_actions()
        labels = [str(a) for a in legal]
        who = f"P{view.seat}'s agent ({clip(self.shown, 60)})"
        try:
            answer = self._ask(message(view), who)
            try:
                label = json.loads(answer)["action"]
            except (ValueError, TypeError, KeyError):
                raise ProcessAgentError(f'{who} answered {answer[:80]!r}, not {{"action": LABEL}}') from None
            if label not in labels:
                why = view.why_illegal(label) if isinstance(label, str) else None
                refused = f": {why}" if why else ""
                raise ProcessAgentError(
                    f"{who} chose {str(label)[:80]!r}, which is not one of its legal actions{refused}"
                )
        except ProcessAgentError:
            self.close(wait=0)  # an agent that broke the protocol plays no more
            raise
        return legal[labels.index(label)]

    def close(self, wait: float = 5) -> None:
        """Close the agent's input and wait for it to exit (killed if it does not, in ``wait`` seconds)."""
        proc, self._proc = self._proc, None
        self._buffer = b""
        if proc is None:
            return
        assert proc.stdin is not None and proc.stdout is not None
        try:
            proc.stdin.close()
            proc.wait(timeout=wait)
        except (OSError, subprocess.TimeoutExpired):
            proc.kill()
            proc.wait()
        proc.stdout.close()

    def __enter__(self) -> ProcessAgent:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _start(self, who: str) -> subprocess.Popen[bytes]:
        try:
            proc = subprocess.Popen(
                self.command,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                bufsize=0,
                env={**os.environ, "RULEDSL_AGENT_SEED": str(self.seed)},
            )
        except OSError as exc:  # not found, not executable
            raise ProcessAgentError(f"{who} could not start: {exc.strerror or exc}") from None
        assert proc.stdin is not None
        os.set_blocking(proc.stdin.fileno(), False)
        return proc

    def _wait(self, sel: selectors.BaseSelector, deadline: float, who: str) -> None:
        left = deadline - time.monotonic()
        if left <= 0 or not sel.select(left):
            raise ProcessAgentError(f"{who} did not answer within {self.timeout:g} s")

    def _ask(self, line: str, who: str) -> str:
        """Send one line, return the answer's line; within the timeout, or ProcessAgentError."""
        proc = self._proc
        if proc is None:
            proc = self._proc = self._start(who)
        assert proc.stdin is not None and proc.stdout is not None
        # Write the question and read the answer by the chunk, never blocking, all within the
        # timeout: an agent that reads no input, or writes half a line and hangs, is a hang; one
        # that writes without end is garbage.
        deadline = time.monotonic() + self.timeout
        out, fd = line.encode("utf-8") + b"\n", proc.stdout.fileno()
        with selectors.DefaultSelector() as sel:
            sel.register(proc.stdin.fileno(), selectors.EVENT_WRITE)
            while out:
                self._wait(sel, deadline, who)
                try:
                    out = out[os.write(proc.stdin.fileno(), out) :]
                except BlockingIOError:
                    continue
                except OSError:
                    raise ProcessAgentError(f"{who} {_ended(proc)} before it was asked") from None
        with selectors.DefaultSelector() as sel:
            sel.register(fd, selectors.EVENT_READ)
            while b"\n" not in self._buffer:
                if len(self._buffer) > MAX_ANSWER_BYTES:
                    raise ProcessAgentError(f"{who} answered a line of over {MAX_ANSWER_BYTES:,} bytes")
                self._wait(sel, deadline, who)
                chunk = os.read(fd, 65536)
                if not chunk:
                    raise ProcessAgentError(f"{who} {_ended(proc)} without answering")
                self._buffer += chunk
        answer, _, self._buffer = self._buffer.partition(b"\n")
        return answer.decode("utf-8", errors="replace")


def _ended(proc: subprocess.Popen[bytes]) -> str:
    """How an agent's process ended, for a message: 'exited with code 1', 'was killed by signal 9'."""
    try:
        code = proc.wait(timeout=1)
    except subprocess.TimeoutExpired:
        return "closed its output"
    return f"was killed by signal {-code}" if code < 0 else f"exited with code {code}"


def parse_process_spec(rest: str) -> dict[str, str]:
    """The options of ``process:[timeout=S:]COMMAND`` after ``process:``: the leading ``name=value``
    parts that name an option, then the command, the rest of the entry as it is (colons and all)."""
    options: dict[str, str] = {}
    while True:
        part, colon, after = rest.partition(":")
        key, eq, value = part.partition("=")
        key = key.strip()
        if not (colon and eq and key in ProcessAgent.OPTIONS and key != "command"):
            break
        if key in options:
            raise AgentSpecError(f"process agent option '{key}' is given twice")
        options[key] = value.strip()
        rest = after
    options["command"] = rest.strip()
    return options


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
    seed = int(argv[argv.index("--seed") + 1]) if "--seed" in argv else int(os.environ.get("RULEDSL_AGENT_SEED", "0"))
    rng = random.Random(seed)
    serve(lambda observation, legal: rng.choice(legal))


if __name__ == "__main__":
    _main(sys.argv[1:])
