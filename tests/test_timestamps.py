import os
import subprocess
import sys
from datetime import datetime, timezone

import pytest

from beyondrecall.errors import TimestampError
from beyondrecall.timestamps import Instant, TimestampParser, iso_utc, parse_strict

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


# --- issue 13: ISO 8601 basic form and Z, the same on every supported Python ------------------
# Our own ISO pattern (not datetime.fromisoformat, which on 3.10 reads only its own output), so the
# expected values below hold on 3.10 too.
@pytest.mark.parametrize("text, expected", [
    ("20251023T082700Z", datetime(2025, 10, 23, 8, 27, tzinfo=UTC)),
    ("20251023T102700+0200", datetime(2025, 10, 23, 8, 27, tzinfo=UTC)),
    ("20251023T1027+02", datetime(2025, 10, 23, 8, 27, tzinfo=UTC)),
    ("20251023", datetime(2025, 10, 23, tzinfo=UTC)),
    ("2025-10-23", datetime(2025, 10, 23, tzinfo=UTC)),
    ("2025-10-23T08:27Z", datetime(2025, 10, 23, 8, 27, tzinfo=UTC)),
    ("2025-10-23T08:27:00.5z", datetime(2025, 10, 23, 8, 27, 0, 500000, tzinfo=UTC)),
    ("2025-10-23T08:27:00.123456789+00:00",     # nanoseconds kept beside the microseconds
     Instant.of(datetime(2025, 10, 23, 8, 27, 0, 123456, tzinfo=UTC), 789)),
    ("2025-10-23T10:27:00+0200", datetime(2025, 10, 23, 8, 27, tzinfo=UTC)),
])
def test_iso_basic_form_and_z(text, expected):
    assert parse_strict(text) == expected


def test_iso_does_not_use_fromisoformat(monkeypatch):
    """3.10's fromisoformat rejects `Z` and the basic form: our reading must not depend on it."""
    import beyondrecall.timestamps as ts

    class NoIso(datetime):
        @classmethod
        def fromisoformat(cls, s):  # pragma: no cover - must not be called
            raise AssertionError("fromisoformat used")

    monkeypatch.setattr(ts, "datetime", NoIso)
    assert ts.parse_strict("2025-10-23T08:27:00Z") == datetime(2025, 10, 23, 8, 27, tzinfo=UTC)


# --- issue 17 item 9: the card's formats exactly ---------------------------------------------
@pytest.mark.parametrize("text", [
    "0001-01-01T00:00:00+14:00", "9999-12-31T23:59:59-14:00",       # overflow in UTC
    "\u0668:\u0662\u0667 am on \u0662\u0663 October, \u0662\u0660\u0662\u0665",  # Arabic-Indic
    "\uff18:\uff12\uff17 am on 23 October, 2025",                    # full-width digits
    "８:27 am on 23 October, 2025", "2025-１0-23",
    "8:27am on 23 October, 2025",                                    # %M %p needs the space
    "8:27 am on 23 October,2025",                                    # ", " needs the space
    "8:27 am on 23 Oct, 2025", "2025-10-23T08:27:00+25:00",
])
def test_outside_the_card_formats_is_an_error_line(text):
    with pytest.raises(TimestampError) as exc:
        TimestampParser()(text, "where")
    assert str(exc.value).startswith("where: malformed timestamp")


def test_overflow_reads_fine_when_it_stays_in_range():
    assert parse_strict("0001-01-01T14:00:00+14:00") == datetime(1, 1, 1, tzinfo=UTC)


# --- issue 13: --lenient-time never reads relative or ambiguous dates; lists what it read -------
@pytest.mark.parametrize("text", ["yesterday", "Friday", "now", "10/11/2025", "in 3 days",
                                  "2 hours ago", "October 2025", "8:27"])
def test_lenient_refuses_relative_and_ambiguous(text):
    with pytest.raises(TimestampError) as exc:
        TimestampParser(lenient=True)(text, "w")
    assert "malformed timestamp" in str(exc.value)


def test_lenient_lists_each_string_once_on_stderr(capsys):
    import beyondrecall.timestamps as ts

    ts._LENIENT_SHOWN.clear()
    p = TimestampParser(lenient=True)
    for _ in range(3):
        assert p("8:27am on 23 October, 2025", "w") == datetime(2025, 10, 23, 8, 27, tzinfo=UTC)
    assert p("23/10/2025", "w") == datetime(2025, 10, 23, tzinfo=UTC)   # unambiguous
    assert p("8:27 am on 23 October, 2025", "w")                        # strict: not listed
    err = capsys.readouterr().err.splitlines()
    assert err == ["br-eval: --lenient-time read '8:27am on 23 October, 2025' as 2025-10-23T08:27:00Z",
                   "br-eval: --lenient-time read '23/10/2025' as 2025-10-23T00:00:00Z"]
    assert p.lenient_read == ["8:27am on 23 October, 2025", "23/10/2025"]


def test_fractions_below_a_microsecond_compare_exactly():
    import copy
    import pickle

    base = parse_strict("2025-10-23T23:30:00Z")
    later = parse_strict("2025-10-23T23:30:00.0000001Z")
    latest = parse_strict("2025-10-24T01:30:00.000000900+02:00")
    assert base < later < latest and later > base and later != base and not later <= base
    assert sorted([latest, later, base]) == [base, later, latest]
    assert parse_strict("2025-10-23T23:30:00.0000001Z") == later
    assert iso_utc(later) == "2025-10-23T23:30:00.000000100Z"
    for copied in (pickle.loads(pickle.dumps(later)), copy.deepcopy(later)):
        assert copied == later and copied > base


@pytest.mark.parametrize("space", ["\u202f", "\u00a0", "\u2009", "\u3000"])
def test_unicode_whitespace_reads_as_strptime_reads_it(space):
    text = f"8:27{space}AM on 23{space}October, 2025"
    assert datetime.strptime(text, "%I:%M %p on %d %B, %Y") == datetime(2025, 10, 23, 8, 27)
    assert parse_strict(text) == datetime(2025, 10, 23, 8, 27, tzinfo=UTC)
