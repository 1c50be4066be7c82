"""A process agent for the tests (ruledsl.agents.process), good or broken as its first argument says.

first: plays its first legal action. record FILE: the same, and appends every line it is
sent to FILE. crash: exits with code 3 when first asked. hang PIDFILE: writes its process id
to PIDFILE, then never answers. half: writes half an answer, then hangs. deaf: never reads
its input. garbage: answers a line that is not JSON. flood: answers 100 KB without a line
end. steal: plays the card on top of the discard pile, which is in no hand. seed FILE: writes
its RULEDSL_AGENT_SEED to FILE, then plays as first.
"""

import json
import os
import sys
import time

mode = sys.argv[1]
if mode == "deaf":
    time.sleep(60)
if mode == "seed":
    with open(sys.argv[2], "w") as seed:
        seed.write(os.environ["RULEDSL_AGENT_SEED"])
if mode == "hang":
    with open(sys.argv[2], "w") as pid:
        pid.write(str(os.getpid()))
for line in sys.stdin:
    message = json.loads(line)
    if mode == "record":
        with open(sys.argv[2], "a", encoding="utf-8") as seen:
            seen.write(line)
    if mode == "crash":
        sys.exit(3)
    if mode in ("hang", "half"):
        sys.stdout.write('{"act' if mode == "half" else "")
        sys.stdout.flush()
        time.sleep(60)
    if mode == "garbage":
        print("I play the ace", flush=True)
    elif mode == "flood":
        sys.stdout.write("x" * 100_000)
        sys.stdout.flush()
        time.sleep(60)
    elif mode == "steal":
        top = message["observation"]["zones"]["discard"]["cards"][-1]
        print(json.dumps({"action": f"play {top}"}), flush=True)
    else:
        print(json.dumps({"action": message["legal_actions"][0]}), flush=True)
