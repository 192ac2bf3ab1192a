import os
import subprocess
import sys
from datetime import datetime, timezone

import pytest

from beyondrecall.errors import TimestampError
from beyondrecall.timestamps import TimestampParser, iso_utc, parse_strict

UTC = timezone.utc


@pytest.mark.parametrize("text, expected", [
    ("8:27 am on 23 October, 2025", datetime(2025, 10, 23, 8, 27, tzinfo=UTC)),
    ("8:27 pm on 23 October, 2025", datetime(2025, 10, 23, 20, 27, tzinfo=UTC)),
    ("12:05 am on 1 January, 2024", datetime(2024, 1, 1, 0, 5, tzinfo=UTC)),
    ("12:05 PM on 1 January, 2024", datetime(2024, 1, 1, 12, 5, tzinfo=UTC)),
    ("08:27:59 am on 23 October, 2025", datetime(2025, 10, 23, 8, 27, 59, tzinfo=UTC)),
    ("20:27 on 23 October, 2025", datetime(2025, 10, 23, 20, 27, tzinfo=UTC)),
    ("23 October 2025 20:27", datetime(2025, 10, 23, 20, 27, tzinfo=UTC)),
    ("2025-10-23T08:27:00", datetime(2025, 10, 23, 8, 27, tzinfo=UTC)),
    ("2025-10-23T08:27:00Z", datetime(2025, 10, 23, 8, 27, tzinfo=UTC)),
    ("2025-10-23T10:27:00+02:00", datetime(2025, 10, 23, 8, 27, tzinfo=UTC)),
    ("2025-10-23 03:27:00-05:00", datetime(2025, 10, 23, 8, 27, tzinfo=UTC)),
])
def test_card_formats(text, expected):
    got = parse_strict(text)
    assert got == expected and got.tzinfo is not None


@pytest.mark.parametrize("text", ["", "   ", "yesterday", "13:00 pm on 1 May, 2024",
                                  "8:27 am on 31 Smarch, 2025", "8:27 am on 30 February, 2025",
                                  "2025-13-01T00:00:00", "8:27 on 23 October 2025"])
def test_malformed_is_an_error(text):
    with pytest.raises(TimestampError) as exc:
        TimestampParser()(text, "f.json: trajectory 3 session 1 field 'date'")
    assert "trajectory 3 session 1 field 'date'" in str(exc.value)


def test_non_string_is_an_error():
    with pytest.raises(TimestampError):
        TimestampParser()(1700000000, "where")


def test_lenient_mode_is_opt_in():
    text = "October 23rd 2025 at 8:27am"
    with pytest.raises(TimestampError):
        TimestampParser()(text, "w")
    assert TimestampParser(lenient=True)(text, "w") == datetime(2025, 10, 23, 8, 27, tzinfo=UTC)


def test_each_distinct_string_parsed_once(monkeypatch):
    import beyondrecall.timestamps as ts

    calls = []
    real = ts.parse_strict
    monkeypatch.setattr(ts, "parse_strict", lambda s: calls.append(s) or real(s))
    p = TimestampParser()
    for _ in range(5):
        p("8:27 am on 23 October, 2025", "w")
    assert calls == ["8:27 am on 23 October, 2025"]


def test_iso_utc():
    assert iso_utc(datetime(2025, 1, 2, 3, 4, 5, tzinfo=UTC)) == "2025-01-02T03:04:05Z"
    assert iso_utc(None) is None


def test_independent_of_locale_and_timezone():
    code = ("from beyondrecall.timestamps import parse_strict as p;"
            "print(p('8:27 pm on 23 October, 2025').isoformat(), p('2025-10-23T08:27:00').isoformat())")
    outs = set()
    for env in ({"TZ": "UTC", "LC_ALL": "C"}, {"TZ": "Asia/Kolkata", "LC_ALL": "de_DE.UTF-8"},
                {"TZ": "America/New_York", "LC_ALL": "fr_FR.UTF-8", "LC_TIME": "tr_TR.UTF-8"}):
        r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                           env={**os.environ, **env}, check=True)
        outs.add(r.stdout)
    assert outs == {"2025-10-23T20:27:00+00:00 2025-10-23T08:27:00+00:00\n"}
