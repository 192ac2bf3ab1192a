"""An HTTP client for the openai library whose timeout bounds the WHOLE request.

httpx's timeouts bound each network operation (connect, each read), so a server that sends its
headers and then one byte a second never times out. Here every request gets a deadline of
`timeout` seconds from its start:
- a watchdog shuts the request's socket down at the deadline (covers a stalled or trickling
  header phase on a new connection), and
- the body is read through a wrapper that checks the deadline after every chunk and stops
  reading past `max_bytes` of DECODED bytes: a gzip or deflate reply is inflated here, in pieces
  of at most 1 MiB, and counted as it inflates (a 1 MB reply that inflates to 1 GB stops at the
  cap with bounded memory); the request asks only for those two encodings, and a reply in
  another one (br, zstd, ...) is refused rather than handed to a decoder that is not counted.
Both end as the HTTP library's own exceptions (ReadTimeout, or ReplyTooLarge, a ReadError), so
the openai client reports them as it reports any timeout or connection error.

Redirects are followed only within the same origin (scheme, host and port): a redirect to
another origin raises RedirectRefused before anything is sent there, so the prompt never
leaves the host it was meant for.

The openai library ships with httpx or, in newer releases, httpx2 (the same API): the classes
are built on whichever one the installed openai uses.
"""

from __future__ import annotations

import importlib
import socket
import threading
import time
import zlib


class ReplyTooLarge(Exception):
    """Marker: the reply body passed the size cap (the concrete class is also a ReadError)."""


class RedirectRefused(Exception):
    """Marker: a redirect to another origin (scheme, host, port) was not followed, nothing was
    sent there (the concrete class is also a RequestError)."""


_ENCODINGS = "gzip, deflate"          # what a request asks for: the codings inflated here
_PIECE = 1024 * 1024                  # inflate at most this many bytes per step
_DEFAULT_PORTS = {"http": 80, "https": 443}


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
    transport_class, _, refused = _classes(httpmod)
    try:
        from openai._constants import DEFAULT_CONNECTION_LIMITS as limits
    except ImportError:   # pragma: no cover - older/newer layouts
        limits = httpmod.Limits(max_connections=1000, max_keepalive_connections=100)
    transport = transport_class(total_timeout=float(timeout), max_bytes=int(max_bytes), limits=limits)

    def same_origin_redirects_only(response) -> None:
        """Run on every response before httpx follows its redirect, if it has one."""
        if not response.has_redirect_location:
            return
        here = response.request.url
        try:
            there = here.join(response.headers["location"])
        except Exception:       # InvalidURL and friends: not a place to send anything
            raise refused(f"HTTP {response.status_code} redirect to an invalid location not followed",
                          request=response.request) from None
        if _origin(there) != _origin(here):
            raise refused(f"HTTP {response.status_code} redirect to another origin "
                          f"({there.scheme}://{there.host}{f':{there.port}' if there.port else ''}) not followed",
                          request=response.request)

    return openai.DefaultHttpxClient(transport=transport, timeout=float(timeout),
                                     event_hooks={"response": [same_origin_redirects_only]})


def _origin(url) -> tuple[str, str, int | None]:
    scheme = url.scheme.lower()
    return scheme, (url.host or "").lower(), url.port or _DEFAULT_PORTS.get(scheme)


def _inflater(encoding: str):
    """A zlib decompressor for a Content-Encoding value; None for identity; ValueError otherwise."""
    codings = [c.strip().lower() for c in encoding.split(",") if c.strip().lower() not in ("", "identity")]
    if not codings:
        return None
    if len(codings) == 1 and codings[0] in ("gzip", "x-gzip"):
        return zlib.decompressobj(zlib.MAX_WBITS | 16)
    if len(codings) == 1 and codings[0] == "deflate":
        return zlib.decompressobj(zlib.MAX_WBITS | 32)    # zlib-wrapped or gzip, auto-detected
    raise ValueError(f"a reply in content-encoding {encoding!r}, which was not asked for")


def _inflate(inflater, data: bytes):
    """The inflated bytes of `data`, in pieces of at most _PIECE bytes."""
    while True:
        piece = inflater.decompress(data, _PIECE)
        data = inflater.unconsumed_tail
        if piece:
            yield piece
        if not data and len(piece) < _PIECE:
            return


def _classes(httpmod) -> tuple[type, type, type]:
    with _LOCK:
        if httpmod.__name__ in _CLASSES:
            return _CLASSES[httpmod.__name__]

        class TooLarge(ReplyTooLarge, httpmod.ReadError):
            pass

        class Refused(RedirectRefused, httpmod.RequestError):
            pass

        class BoundedStream(httpmod.SyncByteStream):
            def __init__(self, inner, deadline: float, max_bytes: int, timer, request, inflater) -> None:
                self.inner, self.deadline, self.max_bytes = inner, deadline, max_bytes
                self.timer, self.request, self.inflater = timer, request, inflater

            def _decoded(self):
                if self.inflater is None:
                    yield from self.inner
                    return
                try:
                    for chunk in self.inner:
                        yield from _inflate(self.inflater, chunk)
                    yield self.inflater.flush()
                except zlib.error as exc:
                    raise httpmod.DecodingError(f"the reply is not valid compressed data ({exc})",
                                                request=self.request) from exc

            def __iter__(self):
                seen = 0
                try:
                    for chunk in self._decoded():
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
                request.headers["Accept-Encoding"] = _ENCODINGS
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
                try:
                    inflater = _inflater(", ".join(response.headers.get_list("content-encoding")))
                except ValueError as exc:
                    timer.cancel()
                    response.close()
                    raise httpmod.DecodingError(str(exc), request=request) from None
                # The body is handed on decoded: the client must not decode it again.
                for name in ("content-encoding", "content-length") if inflater is not None else ():
                    del response.headers[name]
                response.stream = BoundedStream(response.stream, deadline, self.max_bytes, timer, request,
                                                inflater)
                return response

        _CLASSES[httpmod.__name__] = (BoundedTransport, TooLarge, Refused)
        return _CLASSES[httpmod.__name__]


def _shut_down(sockets: list) -> None:
    for sock in sockets:
        try:
            sock.shutdown(socket.SHUT_RDWR)   # wakes a recv() blocked in another thread
        except OSError:
            pass
