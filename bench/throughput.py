"""Throughput of one br-eval process against K OpenAI-compatible servers.

The bench starts K fake servers on 127.0.0.1 in a separate process (asyncio; each answers a chat
completion after a fixed latency L, at most C requests at once, the rest queue), then sends N
requests through the run's loop (`evaluate._each` with --num_concurrent K*C) and the openai
backend with `base_url=URL1|...|URLK`. Printed per (K, C): wall time, the ideal N*L/(K*C) and
their ratio (goal <= 1.25), requests per second, the harness's CPU per item (this process's CPU
time / N: the servers run elsewhere), and as the reference, the raw openai client called from
K*C threads against the same servers (round-robin by hand).

Also prints the same for Inspect AI (`inspect_ai.eval` of a Task with N samples, `generate()` and
`match()`, model `openai/bench` on chat completions with `model_base_url` and `max_connections` =
`max_samples` = C, logs written as Inspect always does) when `inspect-ai`
is installed (else "not installed"), for K = 1 only: an Inspect model talks to one base URL.

    python bench/throughput.py [--latency 0.2] [--items N] [--ks 1,2,4] [--cs 4,16]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import multiprocessing as mp
import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))


# -- the fake servers (run in a child process) ------------------------------------------------
def _serve(ports_out, k: int, c: int, latency: float) -> None:
    async def main():
        servers = []
        for _ in range(k):
            sem = asyncio.Semaphore(c)

            async def handle(reader, writer, sem=sem):
                try:
                    while True:
                        head = await reader.readuntil(b"\r\n\r\n")
                        length = 0
                        for line in head.split(b"\r\n"):
                            if line.lower().startswith(b"content-length:"):
                                length = int(line.split(b":")[1])
                        body = await reader.readexactly(length) if length else b""
                        model = json.loads(body or b"{}").get("model", "m")
                        async with sem:
                            await asyncio.sleep(latency)
                        data = json.dumps({
                            "id": "x", "object": "chat.completion", "created": 0, "model": model,
                            "choices": [{"index": 0, "finish_reason": "stop",
                                         "message": {"role": "assistant", "content": "ok"}}],
                            "usage": {"prompt_tokens": 1, "completion_tokens": 1,
                                      "total_tokens": 2}}).encode()
                        writer.write(b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n"
                                     b"Content-Length: " + str(len(data)).encode() + b"\r\n\r\n"
                                     + data)
                        await writer.drain()
                except (asyncio.IncompleteReadError, ConnectionError):
                    pass
                finally:
                    writer.close()

            server = await asyncio.start_server(handle, "127.0.0.1", 0, backlog=1024)
            servers.append(server)
        ports_out.send([s.sockets[0].getsockname()[1] for s in servers])
        await asyncio.Event().wait()

    asyncio.run(main())


class Servers:
    def __init__(self, k: int, c: int, latency: float) -> None:
        recv, send = mp.Pipe(duplex=False)
        self.proc = mp.get_context("spawn").Process(target=_serve, args=(send, k, c, latency),
                                                    daemon=True)
        self.proc.start()
        self.urls = [f"http://127.0.0.1:{p}/v1" for p in recv.recv()]

    def close(self) -> None:
        self.proc.terminate()
        self.proc.join()


# -- the runs ---------------------------------------------------------------------------------
def through_harness(urls: list[str], n: int, concurrency: int) -> tuple[float, float]:
    from evaluator.evaluate import Progress, _each
    from evaluator.models.base import Message, TextPart
    from evaluator.models.openai_backend import OpenAIChatModel

    class Ctx:
        num_concurrent = concurrency
        show_progress = False

    class Plan:            # what the loop's progress reads of a task's plan
        class task:
            name = "bench"

    model = OpenAIChatModel("|".join(urls), "bench", concurrency=concurrency, max_retries=0)
    for e in model.pool.endpoints:
        model._get_client(e)
    answers = []

    def work(job):
        answers.append(model.generate([Message("user", [TextPart(f"q{job[1]}")])]).text)

    jobs = [(Plan, i) for i in range(n)]
    cpu, wall = time.process_time(), time.perf_counter()
    _each(Ctx(), jobs, work, Progress(Ctx(), jobs, "bench", False))
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    assert len(answers) == n and set(answers) == {"ok"}
    return wall, cpu


def raw_client(urls: list[str], n: int, concurrency: int) -> tuple[float, float]:
    from concurrent.futures import ThreadPoolExecutor

    import openai

    clients = [openai.OpenAI(base_url=u, api_key="EMPTY", max_retries=0) for u in urls]

    def one(i):
        return clients[i % len(clients)].chat.completions.create(
            model="bench", messages=[{"role": "user", "content": f"q{i}"}]).choices[0].message.content

    cpu, wall = time.process_time(), time.perf_counter()
    with ThreadPoolExecutor(concurrency) as pool:
        out = list(pool.map(one, range(n)))
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    assert out == ["ok"] * n
    return wall, cpu


def through_inspect(url: str, n: int, concurrency: int) -> tuple[float, float]:
    import tempfile

    from inspect_ai import Task
    from inspect_ai import eval as inspect_eval
    from inspect_ai.dataset import Sample
    from inspect_ai.scorer import match
    from inspect_ai.solver import generate

    os.environ.setdefault("OPENAI_API_KEY", "EMPTY")
    task = Task(dataset=[Sample(input=f"q{i}", target="ok") for i in range(n)],
                solver=generate(), scorer=match())
    with tempfile.TemporaryDirectory() as logs:
        cpu, wall = time.process_time(), time.perf_counter()
        [log] = inspect_eval(task, model="openai/bench", model_base_url=url,
                             model_args={"responses_api": False},     # the server speaks chat completions
                             max_connections=concurrency, max_samples=concurrency,
                             max_retries=0, display="none", log_dir=logs)
        wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
        assert log.status == "success" and len(log.samples) == n, log.status
        assert all(s.output.completion == "ok" for s in log.samples)
    return wall, cpu


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--latency", type=float, default=0.2, help="L: seconds per reply")
    parser.add_argument("--items", type=int, default=None,
                        help="N (default: 8 rounds of K*C, at least 32)")
    parser.add_argument("--ks", default="1,2,4")
    parser.add_argument("--cs", default="4,16")
    args = parser.parse_args()
    lat = args.latency
    print(f"{'K':>2} {'C':>3} {'N':>5}  {'ideal s':>8} {'br-eval s':>9} {'ratio':>6} "
          f"{'req/s':>7} {'CPU ms/item':>11}   {'raw client s':>12} {'raw CPU ms/item':>15}")
    worst = 0.0
    for k in (int(x) for x in args.ks.split(",")):
        for c in (int(x) for x in args.cs.split(",")):
            n = args.items or max(32, 8 * k * c)
            servers = Servers(k, c, lat)
            try:
                through_harness(servers.urls, k * c, k * c)          # warm: imports, connections
                wall, cpu = through_harness(servers.urls, n, k * c)
                rwall, rcpu = raw_client(servers.urls, n, k * c)
            finally:
                servers.close()
            ideal = n * lat / (k * c)
            worst = max(worst, wall / ideal)
            print(f"{k:>2} {c:>3} {n:>5}  {ideal:>8.2f} {wall:>9.2f} {wall / ideal:>6.2f} "
                  f"{n / wall:>7.1f} {1000 * cpu / n:>11.2f}   {rwall:>12.2f} {1000 * rcpu / n:>15.2f}",
                  flush=True)
    print(f"worst ratio to ideal: {worst:.2f} (goal <= 1.25)")
    try:
        import inspect_ai
    except ImportError:
        print("inspect-ai: not installed (pip install inspect-ai to compare)")
        return 0 if worst <= 1.25 else 1
    print(f"\nInspect AI {inspect_ai.__version__}, the same requests (K = 1; one base URL per model)")
    print(f"{'K':>2} {'C':>3} {'N':>5}  {'ideal s':>8} {'inspect s':>9} {'ratio':>6} {'req/s':>7} "
          f"{'CPU ms/item':>11}   {'br-eval s':>9} {'br-eval CPU ms/item':>19}")
    for c in (int(x) for x in args.cs.split(",")):
        n = args.items or max(32, 8 * c)
        servers = Servers(1, c, lat)
        try:
            through_inspect(servers.urls[0], c, c)                   # warm: imports, client
            wall, cpu = through_inspect(servers.urls[0], n, c)
            through_harness(servers.urls, c, c)
            bwall, bcpu = through_harness(servers.urls, n, c)
        finally:
            servers.close()
        ideal = n * lat / c
        print(f"{1:>2} {c:>3} {n:>5}  {ideal:>8.2f} {wall:>9.2f} {wall / ideal:>6.2f} "
              f"{n / wall:>7.1f} {1000 * cpu / n:>11.2f}   {bwall:>9.2f} {1000 * bcpu / n:>19.2f}",
              flush=True)
    return 0 if worst <= 1.25 else 1


if __name__ == "__main__":
    from _common import run

    raise SystemExit(run(main))
