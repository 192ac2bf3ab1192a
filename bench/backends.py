"""Backend overheads against a local OpenAI-compatible server (127.0.0.1, instant replies).

Prints, in the same run: the per-request time through OpenAIChatModel (bounded transport,
generation defaults, retries logic) next to the raw openai client's own call; the preflight time
against a live server; the time to stop on an unreachable server; and the time a 1 s timeout
takes to cut a reply trickling one byte every 0.2 s (raw client: unbounded, not run).

    PYTHONPATH=. python bench/backends.py [N]
"""

from __future__ import annotations

import json
import socket
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

REPLY = {"id": "c", "object": "chat.completion", "created": 0, "model": "m",
         "choices": [{"index": 0, "finish_reason": "stop", "message": {"role": "assistant", "content": "OK"}}],
         "usage": {"prompt_tokens": 5, "completion_tokens": 1, "total_tokens": 6}}
TRICKLE = False


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def _reply(self, data: bytes):
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        try:
            if TRICKLE:
                for i in range(len(data)):
                    self.wfile.write(data[i:i + 1])
                    self.wfile.flush()
                    time.sleep(0.2)
            else:
                self.wfile.write(data)
        except (BrokenPipeError, ConnectionResetError):
            pass

    def do_GET(self):
        self._reply(json.dumps({"object": "list", "data": [{"id": "m", "max_model_len": 8192}]}).encode())

    def do_POST(self):
        self.rfile.read(int(self.headers.get("Content-Length", 0)))
        self._reply(json.dumps(REPLY).encode())


def main(n: int) -> None:
    global TRICKLE
    import openai

    from evaluator.models import make_model, preflight
    from evaluator.models.base import Message

    httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    httpd.daemon_threads = True
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    url = f"http://127.0.0.1:{httpd.server_address[1]}/v1"
    messages = [Message.text("user", "hi")]

    raw = openai.OpenAI(base_url=url, api_key="x", max_retries=0)
    model = make_model("openai", {"base_url": url, "model": "m"})
    for _ in range(20):                                   # warm both
        raw.chat.completions.create(model="m", messages=[{"role": "user", "content": "hi"}])
        model.generate(messages)
    t = time.perf_counter()
    for _ in range(n):
        raw.chat.completions.create(model="m", messages=[{"role": "user", "content": "hi"}],
                                    temperature=0, max_tokens=512)
    raw_ms = (time.perf_counter() - t) / n * 1000
    t = time.perf_counter()
    for _ in range(n):
        model.generate(messages)
    ours_ms = (time.perf_counter() - t) / n * 1000
    print(f"request, local server: OpenAIChatModel {ours_ms:.2f} ms   raw openai client {raw_ms:.2f} ms "
          f"({ours_ms / raw_ms:.2f}x)")

    t = time.perf_counter()
    preflight(make_model("openai", {"base_url": url, "model": "m"}), images=True)
    print(f"preflight (GET /models + text probe + image probe): {(time.perf_counter() - t) * 1000:.1f} ms")

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    t = time.perf_counter()
    try:
        preflight(make_model("openai", {"base_url": f"http://127.0.0.1:{port}/v1", "model": "m",
                                        "max_retries": 3}))
    except Exception as exc:  # noqa: BLE001
        print(f"unreachable server stops after {(time.perf_counter() - t) * 1000:.1f} ms: {exc}")
    t = time.perf_counter()
    try:
        make_model("openai", {"base_url": f"http://127.0.0.1:{port}/v1", "model": "m", "max_retries": 3,
                              "backoff": 1.0}).generate(messages)
    except Exception:  # noqa: BLE001
        print(f"  reference: the same server through generate() with its retries: "
              f"{(time.perf_counter() - t) * 1000:.0f} ms")

    TRICKLE = True
    t = time.perf_counter()
    try:
        make_model("openai", {"base_url": url, "model": "m", "timeout": 1, "max_retries": 0}).generate(messages)
    except Exception:  # noqa: BLE001
        pass
    print(f"trickling reply (~{len(json.dumps(REPLY))} bytes at 5 B/s = "
          f"{len(json.dumps(REPLY)) * 0.2:.0f} s unbounded) with timeout=1: cut after "
          f"{time.perf_counter() - t:.2f} s")
    httpd.shutdown()


if __name__ == "__main__":
    from _common import run

    raise SystemExit(run(main, int(sys.argv[1]) if len(sys.argv) > 1 else 300))
