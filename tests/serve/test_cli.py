"""`ruledsl serve` at the command line: the links it prints, Ctrl-C, a missing extra, and its mistakes."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from tests.extras import require

ROOT = Path(__file__).resolve().parents[2]


def run_cli(*argv: str, code: str = "") -> subprocess.CompletedProcess[str]:
    script = f"import sys\n{code}\nfrom ruledsl.cli import main\nsys.exit(main({list(argv)!r}))"
    return subprocess.run(
        [sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, timeout=120, env={**os.environ}
    )


def test_without_the_extra_it_says_what_to_install() -> None:
    done = run_cli("serve", "quasenbo", code="sys.modules['uvicorn'] = None")
    assert done.returncode == 2
    assert done.stderr.strip().splitlines() == [
        "ruledsl: error: serve needs the serve extra (uvicorn is missing): pip install 'ruledsl[serve]'"
    ]


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--seats", "random,random"], "--seats names no 'human'"),
        (["--tables", "0"], "--tables takes 1 to 100 tables, not 0"),
        (["--port", "70000"], "--port takes a port from 1 to 65535, not 70000"),
        (["--header-timeout", "0"], "--header-timeout takes a number above 0, not 0.0"),
        (["--new-per-minute", "-1"], "--new-per-minute takes a number above 0, not -1"),
    ],
)
def test_mistakes_are_one_line_and_exit_2(argv: list[str], message: str) -> None:
    require("uvicorn", "serve")
    done = run_cli("serve", "quasenbo", *argv)
    assert done.returncode == 2 and message in done.stderr and "Traceback" not in done.stderr


def test_a_port_in_use_is_a_clear_error() -> None:
    require("uvicorn", "serve")
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        done = run_cli("serve", "quasenbo", "--port", str(taken.getsockname()[1]))
    assert done.returncode == 2 and "cannot listen on 127.0.0.1 port" in done.stderr


def test_it_prints_a_link_per_human_seat_serves_them_and_stops_on_ctrl_c(tmp_path: Path) -> None:
    require("uvicorn", "serve")
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    argv = ["serve", "quasenbo", "--seats", "human,human,random", "--port", str(port), "--tables", "2"]
    script = f"import sys\nfrom ruledsl.cli import main\nsys.exit(main({argv!r}))"
    child = subprocess.Popen(
        [sys.executable, "-c", script], cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    try:
        assert child.stdout is not None
        lines = []
        while not (line := child.stdout.readline()).startswith("lobby"):
            assert line, child.stderr.read() if child.stderr else ""
            lines.append(line.strip())
        links = [line.split(": ", 1)[1] for line in lines if line.startswith(("P", "spectators"))]
        assert sum(line.startswith("table ") for line in lines) == 2
        assert [line.split(":")[0] for line in lines[2:5]] == ["P0", "P1", "spectators"]
        assert len(links) == 6 and len(set(links)) == 6
        for link in links:
            with urllib.request.urlopen(link, timeout=10) as page:
                assert page.status == 200
        with pytest.raises(urllib.error.HTTPError) as forged:
            urllib.request.urlopen(links[0][:-3] + "xyz", timeout=10)
        forged.value.close()
        assert forged.value.code == 403
        child.send_signal(signal.SIGINT)
        _, stderr = child.communicate(timeout=30)
        assert child.returncode == 0 and stderr.strip() == "server stopped"
    finally:
        if child.poll() is None:
            child.kill()
            child.communicate()
