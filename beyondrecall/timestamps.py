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
from datetime import datetime, timezone

from beyondrecall.errors import TimestampError

UTC = timezone.utc

_MONTHS = {
    name: number
    for number, name in enumerate(
        ["january", "february", "march", "april", "may", "june", "july", "august",
         "september", "october", "november", "december"],
        start=1,
    )
}
_MONTH_RE = "(?P<month>" + "|".join(_MONTHS) + ")"

# %I:%M[:%S] %p on %d %B, %Y   (strptime accepts one- or two-digit fields and any case)
_12H = re.compile(
    r"(?P<hour>\d{1,2}):(?P<minute>\d{1,2})(?::(?P<second>\d{1,2}))?\s*(?P<ampm>am|pm)"
    r"\s+on\s+(?P<day>\d{1,2})\s+" + _MONTH_RE + r",\s*(?P<year>\d{4})",
    re.IGNORECASE,
)
# %H:%M on %d %B, %Y
_24H = re.compile(
    r"(?P<hour>\d{1,2}):(?P<minute>\d{1,2})\s+on\s+(?P<day>\d{1,2})\s+" + _MONTH_RE
    + r",\s*(?P<year>\d{4})",
    re.IGNORECASE,
)
# %d %B %Y %H:%M
_DMY = re.compile(
    r"(?P<day>\d{1,2})\s+" + _MONTH_RE + r"\s+(?P<year>\d{4})\s+(?P<hour>\d{1,2}):(?P<minute>\d{1,2})",
    re.IGNORECASE,
)
_ISO_HINT = re.compile(r"^\d{4}-\d{2}-\d{2}")


def _build(m: re.Match, twelve_hour: bool) -> datetime:
    hour = int(m["hour"])
    if twelve_hour:
        if not 1 <= hour <= 12:
            raise ValueError("12-hour clock hour out of range")
        hour = hour % 12 + (12 if m["ampm"].lower() == "pm" else 0)
    second = int(m["second"]) if m.groupdict().get("second") else 0
    return datetime(int(m["year"]), _MONTHS[m["month"].lower()], int(m["day"]), hour,
                    int(m["minute"]), second, tzinfo=UTC)


def _parse_iso(text: str) -> datetime:
    value = text
    if value.endswith(("Z", "z")):
        value = value[:-1] + "+00:00"
    parsed = datetime.fromisoformat(value)
    if parsed.tzinfo is None:
        return parsed.replace(tzinfo=UTC)  # the card's normalisation: naive means UTC
    return parsed.astimezone(UTC)


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


def _parse_lenient(text: str) -> datetime:
    import dateparser  # ~3 ms a call: only behind the explicit lenient option

    parsed = dateparser.parse(
        text, languages=["en"],
        settings={"TIMEZONE": "UTC", "TO_TIMEZONE": "UTC", "RETURN_AS_TIMEZONE_AWARE": True},
    )
    if parsed is None:
        raise ValueError("dateparser could not read it either")
    return parsed.astimezone(UTC)


class TimestampParser:
    """Parses each distinct string once. `lenient=True` falls back to dateparser (documented
    opt-in for hand-made data; never the default, never used for the official release)."""

    def __init__(self, lenient: bool = False) -> None:
        self.lenient = lenient
        self._cache: dict[str, datetime] = {}

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
                except ValueError as exc2:
                    raise TimestampError(f"{where}: malformed timestamp {text!r} ({exc2})") from None
            else:
                raise TimestampError(f"{where}: malformed timestamp {text!r} ({exc})") from None
        self._cache[text] = value
        return value


def iso_utc(value: datetime | None) -> str | None:
    """`2025-10-23T08:27:00Z`: the form br-eval writes in its outputs."""
    if value is None:
        return None
    value = value.astimezone(UTC)
    text = value.strftime("%Y-%m-%dT%H:%M:%S")
    if value.microsecond:
        text += f".{value.microsecond:06d}"
    return text + "Z"


__all__ = ["TimestampParser", "parse_strict", "iso_utc", "UTC"]
