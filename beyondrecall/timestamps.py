"""Parse the dataset card's timestamp formats into timezone-aware UTC datetimes.

Formats, tried in this order (the card's "Time parsing and history visibility"):
  `8:27 am on 23 October, 2025`      %I:%M %p on %d %B, %Y
  `8:27:05 am on 23 October, 2025`   %I:%M:%S %p on %d %B, %Y
  `20:27 on 23 October, 2025`        %H:%M on %d %B, %Y
  `23 October 2025 20:27`            %d %B %Y %H:%M
  ISO 8601                           offsets converted to UTC, naive values taken as UTC

`time.strptime` reads month names and AM/PM through the C locale of the process, so a German
`LC_TIME` would reject "October". We match the card's formats with our own regular expressions and
English tables instead: results never depend on `LC_ALL`, `LC_TIME` or `TZ`.
"""

from __future__ import annotations

import re
import sys
from datetime import date, datetime, timedelta, timezone

from beyondrecall.errors import TimestampError

UTC = timezone.utc

MONTHS = {
    name: number
    for number, name in enumerate(
        ["january", "february", "march", "april", "may", "june", "july", "august",
         "september", "october", "november", "december"],
        start=1,
    )
}
_MONTH_RE = "(?P<month>" + "|".join(MONTHS) + ")"

# The card's strptime formats, exactly as `time.strptime` reads them: its field patterns
# (%I 1-12, %H 0-23, %M/%S 0-59, %d 1-31 with one or two digits, %Y four digits), a space in the
# format matching one or more whitespace characters (Unicode whitespace, as strptime's `\s+`: the
# narrow no-break space CLDR puts before "AM" included), month names and AM/PM in any case. Digits
# are ASCII only: `\d` would let Arabic-Indic or full-width digits through.
_WS = r"(?u:\s+)"
_I = r"(?P<hour>1[0-2]|0[1-9]|[1-9])"
_H = r"(?P<hour>2[0-3]|[01][0-9]|[0-9])"
_M = r"(?P<minute>[0-5][0-9]|[0-9])"
_S = r"(?P<second>[0-5][0-9]|[0-9])"
_D = r"(?P<day>3[01]|[12][0-9]|0[1-9]|[1-9])"
_Y = r"(?P<year>[0-9]{4})"
_ON = _WS + "on" + _WS + _D + _WS + _MONTH_RE + "," + _WS + _Y
# %I:%M %p on %d %B, %Y  and  %I:%M:%S %p on %d %B, %Y
_12H = re.compile(_I + ":" + _M + "(?::" + _S + ")?" + _WS + "(?P<ampm>am|pm)" + _ON,
                  re.IGNORECASE | re.ASCII)
# %H:%M on %d %B, %Y
_24H = re.compile(_H + ":" + _M + _ON, re.IGNORECASE | re.ASCII)
# %d %B %Y %H:%M
_DMY = re.compile(_D + _WS + _MONTH_RE + _WS + _Y + _WS + _H + ":" + _M,
                  re.IGNORECASE | re.ASCII)

# ISO 8601, read by our own pattern so that every supported Python (3.10's fromisoformat reads
# only its own output) gives the same result: extended (2025-10-23T08:27:00+02:00) and basic
# (20251023T082700+0200) forms, `T` or one space, optional minutes/seconds/fraction, `Z` or an
# offset of hours[:minutes]. Date-only values mean midnight UTC.
_ISO_EXT = re.compile(
    r"(?P<year>[0-9]{4})-(?P<month>[0-9]{2})-(?P<day>[0-9]{2})"
    r"(?:[T ](?P<hour>[0-9]{2})(?::(?P<minute>[0-9]{2})(?::(?P<second>[0-9]{2})"
    r"(?:[.,](?P<frac>[0-9]{1,9}))?)?)?"
    r"(?P<tz>Z|[+-][0-9]{2}(?::?[0-9]{2})?)?)?", re.ASCII | re.IGNORECASE)
_ISO_BASIC = re.compile(
    r"(?P<year>[0-9]{4})(?P<month>[0-9]{2})(?P<day>[0-9]{2})"
    r"(?:T(?P<hour>[0-9]{2})(?:(?P<minute>[0-9]{2})(?:(?P<second>[0-9]{2})"
    r"(?:[.,](?P<frac>[0-9]{1,9}))?)?)?"
    r"(?P<tz>Z|[+-][0-9]{2}(?:[0-9]{2})?)?)?", re.ASCII | re.IGNORECASE)
_ISO_HINT = re.compile(r"^[0-9]{4}-?[0-9]{2}-?[0-9]{2}", re.ASCII)


def _build(m: re.Match, twelve_hour: bool) -> datetime:
    hour = int(m["hour"])
    if twelve_hour:
        hour = hour % 12 + (12 if m["ampm"].lower() == "pm" else 0)
    second = int(m["second"]) if m.groupdict().get("second") else 0
    return datetime(int(m["year"]), MONTHS[m["month"].lower()], int(m["day"]), hour,
                    int(m["minute"]), second, tzinfo=UTC)


class Instant(datetime):
    """A UTC datetime that also keeps the nanoseconds below its microsecond (`nanos`, 1-999).

    `datetime` holds microseconds; an ISO fraction of 7-9 digits (.NET's round-trip format writes
    seven) cut to six would make a turn 100 ns after the cutoff equal to it, and visible. Instants
    compare exactly with each other and with plain datetimes (a plain one has 0 nanoseconds);
    arithmetic and `astimezone` give plain datetimes, so only comparisons see the nanoseconds."""

    nanos = 0       # what `replace` and `astimezone` build through the class: no nanoseconds

    @classmethod
    def of(cls, base: datetime, nanos: int) -> "Instant":
        self = cls(base.year, base.month, base.day, base.hour, base.minute, base.second,
                   base.microsecond, base.tzinfo)
        self.nanos = nanos
        return self

    def _cmp(self, other) -> int:
        if not isinstance(other, datetime):
            return NotImplemented
        if datetime.__eq__(self, other) is True:
            mine, theirs = self.nanos, getattr(other, "nanos", 0)
            return (mine > theirs) - (mine < theirs)
        earlier = datetime.__lt__(self, other)     # raises for naive against aware, as datetime does
        return NotImplemented if earlier is NotImplemented else (-1 if earlier else 1)

    def _op(test):
        def compare(self, other):
            c = self._cmp(other)
            return c if c is NotImplemented else test(c)
        return compare

    __lt__, __le__ = _op(lambda c: c < 0), _op(lambda c: c <= 0)
    __gt__, __ge__ = _op(lambda c: c > 0), _op(lambda c: c >= 0)
    __eq__, __ne__ = _op(lambda c: c == 0), _op(lambda c: c != 0)
    del _op
    __hash__ = datetime.__hash__        # equal values have equal microseconds, so equal hashes

    def __reduce_ex__(self, protocol):  # pickles (the Ray executor, copies) keep the nanoseconds
        plain = datetime(self.year, self.month, self.day, self.hour, self.minute, self.second,
                         self.microsecond, self.tzinfo)
        return Instant.of, (plain, self.nanos)

    def __repr__(self) -> str:
        return f"Instant.of({datetime.__repr__(self).replace('Instant', 'datetime', 1)}, {self.nanos})"


def _parse_iso(text: str, *, as_written: bool = False) -> datetime:
    """The UTC value; `as_written`: the naive value on the string's own clock (its offset kept out)."""
    m = _ISO_EXT.fullmatch(text) or _ISO_BASIC.fullmatch(text)
    if not m:
        raise ValueError("not an ISO 8601 timestamp")
    frac = m["frac"] or ""
    micro = int((frac + "000000")[:6]) if frac else 0
    nanos = int((frac[6:] + "000")[:3]) if len(frac) > 6 else 0
    naive = datetime(int(m["year"]), int(m["month"]), int(m["day"]), int(m["hour"] or 0),
                     int(m["minute"] or 0), int(m["second"] or 0), micro)
    if as_written:
        return naive
    tz = m["tz"]
    if not tz or tz.upper() == "Z":
        value = naive.replace(tzinfo=UTC)  # the card's normalisation: naive means UTC
        return Instant.of(value, nanos) if nanos else value
    digits = tz[1:].replace(":", "")
    hours, minutes = int(digits[:2]), int(digits[2:4] or 0)
    if hours > 23 or minutes > 59:
        raise ValueError(f"offset {tz} out of range")
    offset = timedelta(hours=hours, minutes=minutes) * (1 if tz[0] == "+" else -1)
    try:
        value = (naive - offset).replace(tzinfo=UTC)
        return Instant.of(value, nanos) if nanos else value
    except OverflowError:
        raise ValueError("in UTC it falls outside the years 1-9999") from None


def parse_strict(text: str) -> datetime:
    """Parse one of the card's formats or raise ValueError. Surrounding whitespace is ignored."""
    s = text.strip()
    if not s:
        raise ValueError("empty timestamp")
    for pattern, twelve in ((_12H, True), (_24H, False), (_DMY, False)):
        m = pattern.fullmatch(s)
        if m:
            return _build(m, twelve)
    if _ISO_HINT.match(s):
        return _parse_iso(s)
    raise ValueError("not in any of the card's formats")


def written_day(text: str) -> date:
    """The calendar day a timestamp string names on its own clock: `2025-10-23T20:00:00-05:00` is
    23 October, though in UTC (what the cutoff compares) it is the 24th. Raises ValueError as
    `parse_strict` does."""
    s = text.strip()
    if _ISO_HINT.match(s) and not any(p.fullmatch(s) for p in (_12H, _24H, _DMY)):
        return _parse_iso(s, as_written=True).date()
    return parse_strict(s).date()     # the card's other formats carry no offset: UTC as written


# Two reference clocks and two date orders: a string whose reading changes with either depends
# on "now" (yesterday, Friday, 8:27, October 2025) or is an ambiguous numeric date (10/11/2025).
_BASES = (datetime(2001, 2, 3, 4, 5, 6), datetime(2012, 11, 25, 17, 43, 21))


def _parse_lenient(text: str) -> datetime:
    """dateparser, but only for strings that name one moment on their own.

    Relative expressions and ambiguous numeric dates are refused: read against the machine's clock
    they could put the cutoff anywhere and expose the whole history, which the card forbids."""
    import dateparser  # ~3 ms a call: only behind the explicit lenient option

    readings = set()
    for base in _BASES:
        for order in ("DMY", "MDY"):
            parsed = dateparser.parse(
                text, languages=["en"],
                settings={"TIMEZONE": "UTC", "TO_TIMEZONE": "UTC",
                          "RETURN_AS_TIMEZONE_AWARE": True, "RELATIVE_BASE": base,
                          "DATE_ORDER": order, "PREFER_DATES_FROM": "past"})
            if parsed is not None:
                readings.add(parsed.astimezone(UTC))
    if not readings:
        raise ValueError("dateparser could not read it either")
    if len(readings) > 1:
        raise ValueError("--lenient-time does not read relative expressions, incomplete dates or "
                         "ambiguous numeric dates")
    return readings.pop()


_LENIENT_SHOWN: set[str] = set()


def _note_lenient(text: str, value: datetime) -> None:
    """Each string read leniently is listed once per process on stderr."""
    if text in _LENIENT_SHOWN:
        return
    _LENIENT_SHOWN.add(text)
    shown = text.encode("utf-8", "backslashreplace").decode("utf-8")
    print(f"br-eval: --lenient-time read {shown!r} as {iso_utc(value)}", file=sys.stderr)


class TimestampParser:
    """Parses each distinct string once. `lenient=True` falls back to dateparser (documented
    opt-in for hand-made data; never the default, never used for the official release)."""

    def __init__(self, lenient: bool = False) -> None:
        self.lenient = lenient
        self._cache: dict[str, datetime] = {}
        self.lenient_read: list[str] = []     # strings read leniently, in order, once each

    def __call__(self, text: object, where: str) -> datetime:
        if isinstance(text, str):
            hit = self._cache.get(text)
            if hit is not None:
                return hit
        if not isinstance(text, str):
            raise TimestampError(f"{where}: expected a timestamp string, got {type(text).__name__} {text!r}")
        try:
            value = parse_strict(text)
        except ValueError as exc:
            if self.lenient and text.strip():
                try:
                    value = _parse_lenient(text)
                except (ValueError, OverflowError) as exc2:
                    raise TimestampError(f"{where}: malformed timestamp {text!r} ({exc2})") from None
                self.lenient_read.append(text)
                _note_lenient(text, value)
            else:
                raise TimestampError(f"{where}: malformed timestamp {text!r} ({exc})") from None
        self._cache[text] = value
        return value


def iso_utc(value: datetime | None) -> str | None:
    """`2025-10-23T08:27:00Z`: the form br-eval writes in its outputs."""
    if value is None:
        return None
    nanos = getattr(value, "nanos", 0)
    value = value.astimezone(UTC)
    text = value.strftime("%Y-%m-%dT%H:%M:%S")
    if nanos:
        text += f".{value.microsecond:06d}{nanos:03d}"
    elif value.microsecond:
        text += f".{value.microsecond:06d}"
    return text + "Z"


__all__ = ["TimestampParser", "parse_strict", "iso_utc", "UTC"]
