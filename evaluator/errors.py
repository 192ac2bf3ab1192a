"""Errors the CLI turns into one line on stderr and a non-zero exit, the one place a failed
item is classified, and the two filters every outside text passes through: `redact_url` (secrets
in URLs, before anything is written or shown) and `terminal_text` (control characters, before
anything reaches a terminal)."""

from __future__ import annotations

import re


class EvalError(Exception):
    """A user-facing problem in a run: a failing backend, an unreadable run folder (exit 1)."""

    exit_code = 1


class UsageError(EvalError):
    """The command line asks for something that cannot work: unknown task or agent, bad
    arguments, incompatible flags (exit 2, as argparse's own usage errors)."""

    exit_code = 2


def did_you_mean(word: str, known) -> str:
    """`; did you mean X?` naming the known word closest to `word` (difflib), else ""."""
    import difflib

    known = [str(k) for k in known]
    close = difflib.get_close_matches(str(word), known, n=1, cutoff=0.6)
    if not close:       # `topk` for `top_k`: compare without separators too
        bare = {k.replace("_", "").replace("-", "").lower(): k for k in known}
        close = [bare[m] for m in difflib.get_close_matches(
            str(word).replace("_", "").replace("-", "").lower(), list(bare), n=1, cutoff=0.8)]
    return f"; did you mean {close[0]}?" if close else ""


def one_line(exc: BaseException) -> str:
    """`Type: first line of the message`, for a journal's `error` field (secrets in URLs
    masked)."""
    text = redact_url(str(exc).strip().splitlines()[0]) if str(exc).strip() else ""
    return f"{type(exc).__name__}: {text}" if text else type(exc).__name__


# Exception classes (by "module:Class") whose failures are of a known kind; everything else an
# item raises is the agent's. Named, not imported, so this module imports nothing of its own.
ERROR_KINDS = (
    ("evaluator.models.base", "ModelCallError", "model"),
    ("media_cache.errors", "MediaError", "media"),
    ("beyondrecall.errors", "DataError", "data"),
)


def error_kind(exc: BaseException) -> str:
    """model (a backend call that failed after its retries), media, data, output (an answer in
    the wrong format), judge, or agent (the agent itself raised)."""
    import sys

    for module, name, kind in ERROR_KINDS:
        cls = getattr(sys.modules.get(module), name, None)
        if cls is not None and isinstance(exc, cls):
            return kind
    return getattr(exc, "error_kind", "agent")


def record_failure(sample, exc: BaseException) -> None:
    """Mark a Sample as failed (never as a score of 0), keeping the traceback."""
    import traceback

    sample.error = one_line(exc)
    sample.error_kind = error_kind(exc)
    sample.traceback = redact_url("".join(traceback.format_exception(type(exc), exc,
                                                                     exc.__traceback__)))


class ItemFailed(Exception):
    """`--raise`: the first failing item stops the run; carries its Sample (with the traceback)."""

    def __init__(self, sample) -> None:
        super().__init__(f"{sample.key}: {sample.error}")
        self.sample = sample


# -- secrets in URLs -------------------------------------------------------------------------------
# Query parameters whose name (or its last `-`/`_`/`.` part) is one of these carry a secret.
SECRET_PARAMS = frozenset({
    "key", "apikey", "token", "accesstoken", "authtoken", "sessiontoken", "secret",
    "clientsecret", "password", "passwd", "pwd", "sig", "signature", "auth", "authorization",
    "credential", "credentials", "code"})
_USERINFO = re.compile(r"(?i)\b([a-z][a-z0-9+.-]*://)[^/?#@\s]*@")
_PARAM = re.compile(r"([?&;])([^=&#?;\s]+)=([^&#;\s]*)")


def _secret_param(name: str) -> bool:
    low = name.lower()
    return (low.replace("-", "").replace("_", "") in SECRET_PARAMS
            or re.split(r"[-_.]", low)[-1] in SECRET_PARAMS)


def redact_url(text: str) -> str:
    """`text` with the secrets of every URL in it masked: the userinfo
    (`https://user:KEY@host/v1` -> `https://***@host/v1`) and the values of query parameters
    named like keys (`?api-key=KEY` -> `?api-key=***`; names in SECRET_PARAMS)."""
    if not isinstance(text, str) or ("@" not in text and "=" not in text):
        return text
    text = _USERINFO.sub(r"\1***@", text)
    return _PARAM.sub(lambda m: f"{m[1]}{m[2]}=***" if _secret_param(m[2]) and m[3] else m[0],
                      text)


# -- text shown on a terminal ------------------------------------------------------------------------
def _escape_table() -> dict[int, str]:
    table = {}
    controls = [*range(0x00, 0x20), *range(0x7F, 0xA0)]
    for cp in controls:
        if chr(cp) not in "\n\t":
            table[cp] = f"\\x{cp:02x}"
    # bidirectional overrides and isolates (text that displays in another order than it reads),
    # marks, and lone surrogates (which a UTF-8 terminal cannot even be sent)
    for cp in [0x061C, 0x200E, 0x200F, *range(0x202A, 0x202F), *range(0x2066, 0x206A),
               *range(0xD800, 0xE000)]:
        table[cp] = f"\\u{cp:04x}"
    return table


_TERMINAL_ESCAPES = _escape_table()


def terminal_text(text: str) -> str:
    """`text` safe to show on a terminal: C0 and C1 control characters other than newline and
    tab (ESC sequences, carriage return, bell, backspace), bidirectional overrides and lone
    surrogates are written as escapes (`\\x1b`, `\\u202e`)."""
    return text.translate(_TERMINAL_ESCAPES)


class TerminalStream:
    """A text stream that passes everything written to it through `terminal_text`. `br-eval`
    wraps stdout and stderr in one for the length of a command (evaluator/cli.py), so every line
    it prints (messages, tables, errors, warnings, logs) is escaped in one place. Progress bars,
    which draw with carriage returns, write to the stream underneath, `unescaped` (see
    `progress_stream`)."""

    def __init__(self, stream) -> None:
        self.unescaped = stream

    def write(self, text: str) -> int:
        self.unescaped.write(terminal_text(text))
        return len(text)

    def writelines(self, lines) -> None:
        for line in lines:
            self.write(line)

    def __getattr__(self, name: str):        # flush, isatty, fileno, encoding, buffer, ...
        return getattr(self.unescaped, name)


def progress_stream():
    """Where a progress bar draws: stderr itself, not its escaping wrapper (a bar's text is
    br-eval's own: counts and task names)."""
    import sys

    return getattr(sys.stderr, "unescaped", sys.stderr)
