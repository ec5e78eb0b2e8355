"""What clients get while PostgreSQL is away: ``python benchmarks/outage.py --down 8``.

Two ``tablejudge serve`` on one PostgreSQL (a cluster this script starts in a temporary folder), four
clients in a loop through them (create a match; read one; read it and pass), PostgreSQL stopped for
``--down`` seconds and started again, the clients going on for six seconds more. Prints the answers by
request and status, the requests that got no answer at all (the connection cut), and what the servers
logged (tracebacks, lines). The servers run the code of the working directory. Not part of the test suite
(``tests/matches/test_faults.py`` asserts what these numbers show).
"""

from __future__ import annotations

import argparse
import collections
import shutil
import sys
import tempfile
import threading
import time
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.matches.clients import auth  # noqa: E402
from tests.matches.servers import Server  # noqa: E402
from tests.pg import Cluster  # noqa: E402

CLIENTS = 4


def new_match(http: httpx.Client) -> tuple[str, dict[int, str]]:
    made = http.post("/v1/matches", json={"game": "bop", "seats": 2, "name": "Ann"}).json()
    joined = http.post(f"/v1/matches/{made['match']}/join", json={"invite": made["invite"], "name": "Bob"}).json()
    return made["match"], {0: made["token"], 1: joined["token"]}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--down", type=float, default=8.0, help="seconds PostgreSQL is stopped")
    args = parser.parse_args()
    cluster = Cluster()
    folder = Path(tempfile.mkdtemp(prefix="tablejudge-outage-"))
    servers: list[Server] = []
    answers: collections.Counter[str] = collections.Counter()
    cut: collections.Counter[str] = collections.Counter()
    stop = threading.Event()

    def client(index: int) -> None:
        with httpx.Client(base_url=servers[index % 2].url, timeout=60) as http:
            match_id, tokens = new_match(http)
            while not stop.is_set():
                for kind in ("create", "read", "move"):
                    try:
                        if kind == "create":
                            answer = http.post("/v1/matches", json={"game": "bop", "seats": 2})
                        else:
                            answer = http.get(f"/v1/matches/{match_id}", headers=auth(tokens[0]))
                            if kind == "move" and answer.status_code == 200:
                                body = answer.json()
                                answer = http.post(f"/v1/matches/{match_id}/moves",
                                                   json={"move": "pass", "version": body["version"]},
                                                   headers=auth(tokens[body["must_act"][0]]))  # fmt: skip
                        answers[f"{kind} {answer.status_code}"] += 1
                    except httpx.TransportError as error:
                        cut[f"{kind}: {type(error).__name__}"] += 1
                time.sleep(0.02)

    try:
        cluster.start()
        database = cluster.database("outage")
        for name in ("a", "b"):
            (folder / name).mkdir()
            servers.append(Server(folder / name, database=database).start())
        clients = [threading.Thread(target=client, args=(index,)) for index in range(CLIENTS)]
        for thread in clients:
            thread.start()
        time.sleep(3)
        cluster.stop("fast")
        stopped = time.monotonic()
        time.sleep(args.down)
        cluster.start()
        print(f"PostgreSQL stopped for {time.monotonic() - stopped:.1f} s, {CLIENTS} clients")
        time.sleep(6)
        stop.set()
        for thread in clients:
            thread.join(timeout=60)
        print("answers:", dict(sorted(answers.items())))
        print(f"no answer at all: {sum(cut.values())}", dict(cut))
        for server in servers:
            server.stop()
            text = server.log.read_text()
            print(f"{server.url}: {text.count('Traceback')} tracebacks in {len(text.splitlines())} log lines")
    finally:
        for server in servers:
            server.stop()
        cluster.remove()
        shutil.rmtree(folder, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
