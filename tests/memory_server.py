"""An OpenAI-compatible server on 127.0.0.1 for the memory agents' tests: chat completions AND
embeddings, as a local vLLM / llama.cpp / Ollama answers them.

- `GET /v1/models` lists the chat and the embedding model.
- `POST /v1/embeddings`: deterministic vectors, a hashed bag of words of `dim` dimensions (words
  lower-cased, a few stop words left out, a few synonyms mapped to one word first, so a dense retriever finds what BM25
  cannot), L2-normalised; `encoding_format` float or base64; usage counts words as tokens.
- `POST /v1/chat/completions`:
  * the preflight's one-token probe -> "OK";
  * mem0's extraction call (its system prompt says "Memory Extractor") -> the JSON mem0 expects,
    `{"memory": [{"id", "text", "attributed_to", "linked_memory_ids"}]}`, one memory per message
    of the prompt's "## New Messages" section (its `user:`/`assistant:` lines, system lines left
    out), the text as said;
  * an image description (a request with an image part and mem0's description instruction) ->
    "a photo (image N)";
  * anything else (the answer step) -> "echo: <first 40 characters of the last user text>".
Every request is kept (`requests`, with its path) for the tests to read.

What it cannot show: the quality of a real model's memories or embeddings. It shows what br-eval
sends where, what it does with the replies, and that the bookkeeping (dates, isolation, counts,
identity, resume) holds.
"""

from __future__ import annotations

import base64
import hashlib
import json
import re
import struct
import threading
import time

import numpy as np
from local_http import JsonHandler, LocalServer

SYNONYMS = {"feline": "cat", "kitten": "cat", "automobile": "car", "vehicle": "car"}
STOP = frozenset("a an the is was what which who on of to in i my me".split())
CHAT_MODEL = "chat-model"
EMBED_MODEL = "embed-model"


def words(text: str) -> list[str]:
    return [SYNONYMS.get(w, w) for w in re.findall(r"[a-z0-9]+", text.lower()) if w not in STOP]


def vector(text: str, dim: int) -> list[float]:
    v = np.zeros(dim)
    for w in words(text):
        h = int.from_bytes(hashlib.sha256(w.encode()).digest()[:8], "little")
        v[h % dim] += 1.0 if (h >> 63) == 0 else -1.0
    n = np.linalg.norm(v)
    return (v / n if n else v).tolist()


def text_of(content) -> str:
    if isinstance(content, str):
        return content
    return " ".join(p.get("text", "") for p in content if isinstance(p, dict) and p.get("type") == "text")


def new_messages(prompt: str) -> list[tuple[str, str]]:
    """(role, text) of the `## New Messages` section of mem0's extraction prompt."""
    m = re.search(r"## New Messages\n(.*?)\n\n## ", prompt, re.S)
    out = []
    for line in (m.group(1) if m else "").splitlines():
        role, _, text = line.partition(": ")
        if role in ("user", "assistant") and text.strip():
            out.append((role, text.strip()))
    return out


class MemoryServer(LocalServer):
    def __init__(self, dim: int = 384) -> None:
        self.dim = dim
        self.requests: list[dict] = []
        self.fail_embeddings = 0          # answer the next N embedding requests with HTTP 500
        self.refuse_inputs = None         # a test on a request's inputs: True -> HTTP 400
        self.latency = 0.0                # seconds before each chat reply (a model's time)
        self.embed_latency = 0.0          # seconds before each embeddings reply
        self.extraction_reply = None      # a fixed reply to mem0's extraction requests
        self._lock = threading.Lock()
        server = self

        class Handler(JsonHandler):

            def do_GET(self):
                if self.path.rstrip("/") == "/v1/models":
                    self.send_json(200, {"object": "list", "data": [
                        {"id": CHAT_MODEL, "object": "model"}, {"id": EMBED_MODEL, "object": "model"}]})
                else:
                    self.send_json(404, {"error": {"message": "not found"}})

            def do_POST(self):
                body = json.loads(self.rfile.read(int(self.headers.get("Content-Length", 0))))
                with server._lock:
                    server.requests.append({"path": self.path, **body})
                wait = server.embed_latency if self.path == "/v1/embeddings" else server.latency
                if wait:
                    time.sleep(wait)
                if self.path == "/v1/embeddings":
                    with server._lock:
                        fail = server.fail_embeddings > 0
                        server.fail_embeddings -= fail
                    inputs = body["input"] if isinstance(body["input"], list) else [body["input"]]
                    if fail:
                        self.send_json(500, {"error": {"message": "embedder down"}})
                    elif server.refuse_inputs is not None and server.refuse_inputs(inputs):
                        self.send_json(400, {"error": {"message": "input refused"}})
                    else:
                        self.send_json(200, server.embeddings(body))
                elif self.path == "/v1/chat/completions":
                    self.send_json(200, server.chat(body))
                else:
                    self.send_json(404, {"error": {"message": f"no route {self.path}"}})

        self.serve(Handler)

    def embeddings(self, body: dict) -> dict:
        inputs = body["input"] if isinstance(body["input"], list) else [body["input"]]
        data = []
        for i, text in enumerate(inputs):
            vec = vector(text, self.dim)
            if body.get("encoding_format") == "base64":
                vec = base64.b64encode(struct.pack(f"<{len(vec)}f", *vec)).decode()
            data.append({"object": "embedding", "index": i, "embedding": vec})
        return {"object": "list", "data": data, "model": body["model"],
                "usage": {"prompt_tokens": sum(len(words(t)) for t in inputs),
                          "total_tokens": sum(len(words(t)) for t in inputs)}}

    def chat(self, body: dict) -> dict:
        messages = body["messages"]
        system = text_of(messages[0]["content"]) if messages[0]["role"] == "system" else ""
        last = messages[-1]["content"]
        has_image = isinstance(last, list) and any(p.get("type") == "image_url" for p in last)
        if body.get("max_tokens") == 1:
            reply = "OK"
        elif "Memory Extractor" in system and self.extraction_reply is not None:
            reply = self.extraction_reply
        elif "Memory Extractor" in system:
            found = new_messages(text_of(messages[-1]["content"]))
            reply = json.dumps({"memory": [
                {"id": str(i), "text": text, "attributed_to": role, "linked_memory_ids": []}
                for i, (role, text) in enumerate(found)]})
        elif has_image:
            with self._lock:
                n = sum(1 for r in self.requests if r.get("path", "").endswith("/chat/completions")
                        and isinstance(r["messages"][-1]["content"], list))
            reply = f"a photo (image {n})"
        else:
            reply = "echo: " + text_of(last)[:40]
        return {"id": "c", "object": "chat.completion", "created": 0, "model": body["model"],
                "choices": [{"index": 0, "finish_reason": "stop",
                             "message": {"role": "assistant", "content": reply}}],
                "usage": {"prompt_tokens": 11, "completion_tokens": 5, "total_tokens": 16}}

    # -- what the tests read -----------------------------------------------------------------
    def chats(self) -> list[dict]:
        return [r for r in self.requests if r["path"].endswith("/chat/completions")
                and r.get("max_tokens") != 1]

    def extractions(self) -> list[dict]:
        return [r for r in self.chats() if "Memory Extractor" in text_of(r["messages"][0]["content"])]

    def answers(self) -> list[dict]:
        return [r for r in self.chats() if r["messages"][0]["role"] == "system"
                and "long-term memory" in text_of(r["messages"][0]["content"])]

    def embedding_requests(self) -> list[dict]:
        return [r for r in self.requests if r["path"].endswith("/embeddings")]

