"""An HTTP client for the openai library whose timeout bounds the WHOLE request.

httpx's timeouts bound each network operation (connect, each read), so a server that sends its
headers and then one byte a second never times out. Here every request gets a deadline of
`timeout` seconds from its start:
- a watchdog shuts the request's socket down at the deadline (covers a stalled or trickling
  header phase on a new connection), and
- the body is read through a wrapper that checks the deadline after every chunk and stops
  reading past `max_bytes`.
Both end as the HTTP library's own exceptions (ReadTimeout, or ReplyTooLarge, a ReadError), so
the openai client reports them as it reports any timeout or connection error.

The openai library ships with httpx or, in newer releases, httpx2 (the same API): the classes
are built on whichever one the installed openai uses.
"""

from __future__ import annotations

import importlib
import socket
import threading
import time


class ReplyTooLarge(Exception):
    """Marker: the reply body passed the size cap (the concrete class is also a ReadError)."""


_CLASSES: dict[str, tuple[type, type]] = {}
_LOCK = threading.Lock()


def http_module(openai):
    """The httpx-like module the installed openai library is built on."""
    for base in openai.DefaultHttpxClient.__mro__[1:]:
        root = base.__module__.split(".")[0]
        if root.startswith("httpx"):
            return importlib.import_module(root)
    return importlib.import_module("httpx")


def bounded_http_client(openai, timeout: float, max_bytes: int):
    """An openai.DefaultHttpxClient whose requests each end within `timeout` seconds."""
    httpmod = http_module(openai)
    transport_class, _ = _classes(httpmod)
    try:
        from openai._constants import DEFAULT_CONNECTION_LIMITS as limits
    except ImportError:   # pragma: no cover - older/newer layouts
        limits = httpmod.Limits(max_connections=1000, max_keepalive_connections=100)
    transport = transport_class(total_timeout=float(timeout), max_bytes=int(max_bytes), limits=limits)
    return openai.DefaultHttpxClient(transport=transport, timeout=float(timeout))


def _classes(httpmod) -> tuple[type, type]:
    with _LOCK:
        if httpmod.__name__ in _CLASSES:
            return _CLASSES[httpmod.__name__]

        class TooLarge(ReplyTooLarge, httpmod.ReadError):
            pass

        class BoundedStream(httpmod.SyncByteStream):
            def __init__(self, inner, deadline: float, max_bytes: int, timer, request) -> None:
                self.inner, self.deadline, self.max_bytes = inner, deadline, max_bytes
                self.timer, self.request = timer, request

            def __iter__(self):
                seen = 0
                try:
                    for chunk in self.inner:
                        seen += len(chunk)
                        if time.monotonic() > self.deadline:
                            raise httpmod.ReadTimeout("the reply did not arrive within the timeout",
                                                      request=self.request)
                        if seen > self.max_bytes:
                            raise TooLarge(f"reply larger than {self.max_bytes} bytes", request=self.request)
                        yield chunk
                except httpmod.TransportError as exc:
                    if isinstance(exc, (httpmod.TimeoutException, ReplyTooLarge)):
                        raise
                    if time.monotonic() >= self.deadline - 0.01:
                        raise httpmod.ReadTimeout("the reply did not arrive within the timeout",
                                                  request=self.request) from exc
                    raise

            def close(self) -> None:
                self.timer.cancel()
                self.inner.close()

        class BoundedTransport(httpmod.HTTPTransport):
            def __init__(self, *, total_timeout: float, max_bytes: int, **kwargs) -> None:
                super().__init__(**kwargs)
                self.total_timeout, self.max_bytes = total_timeout, max_bytes

            def handle_request(self, request):
                deadline = time.monotonic() + self.total_timeout
                sockets: list = []
                outer_trace = request.extensions.get("trace")

                def trace(name, info):
                    if name.endswith(("connect_tcp.complete", "start_tls.complete")):
                        stream = info.get("return_value")
                        sock = stream.get_extra_info("socket") if stream is not None else None
                        if sock is not None:
                            sockets.append(sock)
                    if outer_trace is not None:
                        outer_trace(name, info)

                request.extensions = {**request.extensions, "trace": trace}
                timer = threading.Timer(self.total_timeout, _shut_down, args=(sockets,))
                timer.daemon = True
                timer.start()
                try:
                    response = super().handle_request(request)
                except httpmod.TransportError as exc:
                    timer.cancel()
                    if not isinstance(exc, httpmod.TimeoutException) and time.monotonic() >= deadline - 0.01:
                        raise httpmod.ReadTimeout("no reply within the timeout", request=request) from exc
                    raise
                except BaseException:
                    timer.cancel()
                    raise
                response.stream = BoundedStream(response.stream, deadline, self.max_bytes, timer, request)
                return response

        _CLASSES[httpmod.__name__] = (BoundedTransport, TooLarge)
        return _CLASSES[httpmod.__name__]


def _shut_down(sockets: list) -> None:
    for sock in sockets:
        try:
            sock.shutdown(socket.SHUT_RDWR)   # wakes a recv() blocked in another thread
        except OSError:
            pass
