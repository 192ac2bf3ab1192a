"""The content-addressed store under `MediaCache`.

Layout under the root:

    <op>/<key[:2]>/<key>/manifest.json     one entry: manifest + artifact files
    <op>/<key[:2]>/.tmp-*                   an entry being written (renamed into place when done)
    .hashes/<xx>/<sha256 of path>.json      memo: (path, size, mtime_ns, inode, ctime_ns) -> sha256
    .locks/<key>.lock                       held while an entry is produced (removed afterwards)

key = sha256 of the canonical JSON of {op, version, source, params}, where `source` is the sha256
of the input file's bytes and `version` is PRODUCER_VERSIONS[op] (bumped whenever an operation's
output changes). Paths and question ids never enter a key.

Entries are verified before they are used: the manifest records every file's size and CRC-32
at write time (CRC-32 finds accidental damage at ~7 GB/s, three times sha256's speed; whoever can
rewrite a file of the cache can rewrite its manifest too, so a cryptographic hash would add
nothing). Every hit checks the sizes (one stat per file, what checking that the files exist costs
anyway); `Store(verify=True)` (what `br-eval prepare` uses) and `info(verify=True)` (`br-eval
cache info --verify`) also check the CRC-32s. A damaged entry (a file missing,
truncated, or changed) is rebuilt from the source on the next use; when it cannot be (a
read-only cache) the caller gets a MediaError naming the source file and the entry.

The memo trusts that a file whose path, size, mtime, inode and ctime (all in nanoseconds) are
unchanged has unchanged bytes. ctime is what catches a file rewritten in place with its size and
mtime restored (`cp -p`, `tar -x`, `rsync -t --inplace`): any write or utime sets it to the current
time and no system call sets it back, so only a rewrite within the clock tick of the file's previous
change, or a clock set back, can fool the memo.

Writes are atomic: an entry is built in a temporary folder next to its final place and published
with one rename(2). A process that finds the final folder already there (another process won the
race) throws its own copy away and uses the published one, so readers only ever see complete
entries. A per-key lock file (flock) keeps two processes from doing the same work at once; it is
an optimisation only, correctness rests on the rename.
"""

from __future__ import annotations

import contextlib
import errno
import hashlib
import json
import os
import re
import shutil
import stat
import tempfile
import threading
import time
import zlib
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Iterator

from media_cache.errors import MediaError

# Bump an operation's number whenever what it writes changes (format, sampling, rendering).
PRODUCER_VERSIONS: dict[str, int] = {
    "image": 3,         # 3: PNG/JPEG sources copied into the entry (2: 16-bit images scaled to 8 bits)
    "pdf_pages": 2,     # 2: pages over MAX_PAGE_PIXELS are rendered at a lower dpi to fit
    "video_frames": 4,  # 4: frames turned upright by the display matrix (3: PNGs stored uncompressed)
    "audio": 1,
    "clip_image": 1,    # CLIP image embedding of one image file
    "clip_text": 1,     # CLIP text embeddings of a vocabulary
    "asr": 1,           # speech-recognition transcript of a video's audio track
}

MANIFEST = "manifest.json"
TMP_PREFIX = ".tmp-"
# Written at the root of every cache br-eval writes to; `prune` refuses a folder without it.
MARKER = ".br-eval-media-cache"
_MARKER_TEXT = "This folder is a br-eval media cache (`br-eval cache prune` may clean it).\n"
_HEX64 = re.compile(r"[0-9a-f]{64}")
HASH_CHUNK = 1 << 20

# errno values that mean "this cache cannot be written" (a read-only cache, a full disk, a file
# where one of its folders should be); any other OSError while writing an entry is reported naming
# the media file too, without that diagnosis
_UNWRITABLE = {errno.EACCES, errno.EPERM, errno.EROFS, errno.ENOSPC, errno.ENOTDIR, errno.EEXIST,
               errno.EISDIR, errno.EFBIG, getattr(errno, "EDQUOT", errno.ENOSPC)}

_memo_lock = threading.Lock()
# (realpath, size, mtime_ns, inode, ctime_ns) -> sha256; shared by every MediaCache in the process.
_sha_memo: dict[tuple[str, int, int, int, int], str] = {}


def default_root() -> Path:
    """`$BR_EVAL_CACHE`, else `$BR_EVAL_HOME/media`, else `$XDG_CACHE_HOME/br-eval/media`,
    else `~/.cache/br-eval/media` (the same home folder the rest of br-eval uses)."""
    env = os.environ.get("BR_EVAL_CACHE")
    if env:
        return Path(env).expanduser()
    if os.environ.get("BR_EVAL_HOME"):
        return Path(os.environ["BR_EVAL_HOME"]).expanduser() / "media"
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "br-eval" / "media"


def entry_key(op: str, source_sha256: str, params: dict) -> str:
    """The cache key of one operation on one content: the only way keys are made."""
    if op not in PRODUCER_VERSIONS:
        raise ValueError(f"unknown media operation {op!r}")
    blob = json.dumps({"op": op, "version": PRODUCER_VERSIONS[op], "source": source_sha256,
                       "params": params}, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(blob.encode("utf-8")).hexdigest()


def crc32_file(path: Path) -> int:
    crc = 0
    with open(path, "rb") as f:
        while chunk := f.read(HASH_CHUNK):
            crc = zlib.crc32(chunk, crc)
    return crc


def sha256_file(path: Path) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as f:
        while chunk := f.read(HASH_CHUNK):
            h.update(chunk)
    return h.hexdigest()


def _write_json_atomic(path: Path, data) -> None:
    fd, tmp = tempfile.mkstemp(prefix=TMP_PREFIX, dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            json.dump(data, f, ensure_ascii=False, separators=(",", ":"))
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise


def _dir_size(path: Path) -> int:
    total = 0
    for dirpath, _, files in os.walk(path):
        for name in files:
            with contextlib.suppress(OSError):
                total += os.lstat(os.path.join(dirpath, name)).st_size
    return total


@dataclass
class Entry:
    """A published entry: its folder and the data its producer returned."""

    key: str
    path: Path
    data: dict
    from_cache: bool


@dataclass
class OpInfo:
    entries: int = 0
    bytes: int = 0


@dataclass
class CacheInfo:
    root: Path
    ops: dict[str, OpInfo] = field(default_factory=dict)
    invalid: int = 0           # entries prune would remove (stale version, bad key)
    invalid_bytes: int = 0
    # entries whose files no longer match their manifest: (op, entry folder, what is wrong);
    # rebuilt by their next use (`br-eval prepare`), removed by prune
    damaged: list[tuple[str, Path, str]] = field(default_factory=list)
    damaged_bytes: int = 0
    temp: int = 0              # leftovers of interrupted writes
    temp_bytes: int = 0
    hash_memos: int = 0
    total_bytes: int = 0
    foreign: int = 0           # items prune does not recognise as br-eval's and leaves alone
    marked: bool = False       # the root carries br-eval's marker file

    @property
    def entries(self) -> int:
        return sum(o.entries for o in self.ops.values())


@dataclass
class PruneReport:
    removed_invalid: int = 0
    removed_temp: int = 0
    removed_locks: int = 0
    removed_memos: int = 0
    freed_bytes: int = 0
    kept: int = 0
    left_alone: int = 0        # items not recognised as br-eval's (never removed)


class Store:
    """Entries on disk; `MediaCache` builds the operations on top of it."""

    def __init__(self, root: Path | str | None = None, *, verify: bool = False) -> None:
        self.root = Path(root).expanduser() if root is not None else default_root()
        self.stats: Counter[str] = Counter()   # "<op>:hit" / "<op>:miss", plus op-specific counts
        self.verify = verify                   # check each hit's CRC-32s too, not only its sizes
        self._marked = False

    def ensure_root(self) -> None:
        """Create the root and its marker file (what lets `prune` recognise the folder)."""
        if self._marked:
            return
        self.root.mkdir(parents=True, exist_ok=True)
        marker = self.root / MARKER
        if not marker.is_file():
            with contextlib.suppress(OSError):     # a read-only cache still serves hits
                marker.write_text(_MARKER_TEXT, encoding="utf-8")
        self._marked = True

    def unwritable(self) -> str | None:
        """Why nothing can be written under the root (None when a file can be created there)."""
        try:
            self.root.mkdir(parents=True, exist_ok=True)
            fd, probe = tempfile.mkstemp(prefix=TMP_PREFIX + "probe-", dir=self.root)
        except OSError as exc:
            return exc.strerror or str(exc)
        os.close(fd)
        with contextlib.suppress(OSError):
            os.unlink(probe)
        return None

    def has_entries(self) -> bool:
        """True when some entry folder exists (valid or not), without reading any manifest."""
        return any(_HEX64.fullmatch(path.name) for _, path in self._walk_entries())

    def is_marked(self) -> bool:
        """True when the root carries br-eval's marker file (a regular file, not a link)."""
        try:
            return stat.S_ISREG(os.lstat(self.root / MARKER).st_mode)
        except OSError:
            return False

    # ---- source hashing ---------------------------------------------------------------------

    def _stat_source(self, path: Path) -> tuple[str, os.stat_result, tuple]:
        try:
            real = os.path.realpath(path)
            st = os.stat(real)
        except OSError as exc:
            raise MediaError(f"{path}: cannot read ({exc.strerror or exc})") from None
        if not os.path.isfile(real):
            raise MediaError(f"{path}: not a regular file")
        return real, st, (real, st.st_size, st.st_mtime_ns, st.st_ino, st.st_ctime_ns)

    def known_source_sha256(self, path: Path | str) -> str | None:
        """The memoised sha256 of a file (in this process or under `.hashes/`), without hashing;
        None when the file has not been hashed in its current state."""
        real, _, memo_key = self._stat_source(Path(path))
        with _memo_lock:
            cached = _sha_memo.get(memo_key)
        if cached:
            return cached
        try:
            m = json.loads(self._memo_file(real).read_text(encoding="utf-8"))
            if (m.get("path"), m.get("size"), m.get("mtime_ns"), m.get("ino"),
                    m.get("ctime_ns")) == memo_key:
                sha = str(m["sha256"])
                with _memo_lock:
                    _sha_memo[memo_key] = sha
                return sha
        except (OSError, ValueError, KeyError, TypeError, AttributeError):
            pass
        return None

    def source_sha256(self, path: Path | str) -> str:
        """sha256 of a file's bytes, hashed once per (path, size, mtime_ns, inode, ctime_ns).

        Memoised in the process and persisted under `.hashes/`, so a later process only stats.
        """
        path = Path(path)
        known = self.known_source_sha256(path)
        if known:
            return known
        real, st, memo_key = self._stat_source(path)
        try:
            sha = sha256_file(Path(real))
        except OSError as exc:
            raise MediaError(f"{path}: cannot read ({exc.strerror or exc})") from None
        self._remember(real, memo_key, sha)
        return sha

    def remember_source_sha256(self, path: Path | str, sha: str, size: int, mtime_ns: int,
                               ino: int, ctime_ns: int | None = None) -> bool:
        """Take a sha256 that someone else computed (`br-eval verify` hashes every file of the
        release) for the file as it was stat'ed then; kept only if the file still has that size,
        mtime and inode (and ctime, when given), so the media cache never hashes the same bytes
        twice. True if kept."""
        try:
            real, st, memo_key = self._stat_source(Path(path))
        except MediaError:
            return False
        if (st.st_size, st.st_mtime_ns, st.st_ino) != (size, mtime_ns, ino) or \
                (ctime_ns is not None and st.st_ctime_ns != ctime_ns) or \
                len(sha) != 64 or any(c not in "0123456789abcdef" for c in sha):
            return False
        self._remember(real, memo_key, sha)
        return True

    def _remember(self, real: str, memo_key: tuple, sha: str) -> None:
        with _memo_lock:
            _sha_memo[memo_key] = sha
        with contextlib.suppress(OSError):    # the memo is an optimisation: a read-only cache still works
            self.ensure_root()
            memo_file = self._memo_file(real)
            memo_file.parent.mkdir(parents=True, exist_ok=True)
            _write_json_atomic(memo_file, {"path": real, "size": memo_key[1],
                                           "mtime_ns": memo_key[2], "ino": memo_key[3],
                                           "ctime_ns": memo_key[4], "sha256": sha})

    def _memo_file(self, real: str) -> Path:
        h = hashlib.sha256(real.encode("utf-8", "surrogateescape")).hexdigest()
        return self.root / ".hashes" / h[:2] / f"{h}.json"

    # ---- entries ----------------------------------------------------------------------------

    def entry_dir(self, op: str, key: str) -> Path:
        return self.root / op / key[:2] / key

    def lookup(self, op: str, source_sha256: str, params: dict) -> Entry | None:
        key = entry_key(op, source_sha256, params)
        final = self.entry_dir(op, key)
        manifest = self._read_manifest(final, op, key)
        if manifest is None:
            return None
        return Entry(key, final, manifest["data"], True)

    def get_or_create(self, op: str, source_sha256: str, params: dict,
                      build: Callable[[Path], dict], source: Path | None = None) -> Entry:
        """Return the entry for (op, source, params), building it with `build(tmpdir)` on a miss.

        `build` writes its artifact files into `tmpdir` and returns JSON-ready data describing
        them (file names relative to the entry). An exception from `build` leaves nothing behind.
        A damaged entry is rebuilt; when the cache cannot be written, a MediaError names
        `source` (the media file, for messages) and the cache folder.
        """
        key = entry_key(op, source_sha256, params)
        final = self.entry_dir(op, key)
        manifest = self._read_manifest(final, op, key)
        if manifest is not None:
            self.stats[f"{op}:hit"] += 1
            return Entry(key, final, manifest["data"], True)
        damage = self._damage_of(final)     # said if the entry cannot be rebuilt
        try:
            return self._create(op, source_sha256, params, build, key, final)
        except MediaError:
            raise
        except OSError as exc:
            raise self._write_error(source or source_sha256, final, exc, damage) from None

    def _write_error(self, source, final: Path, exc: OSError, damage: str | None = None) -> MediaError:
        """One line naming the media file and its entry, for an OSError while writing the entry."""
        why = exc.strerror or str(exc)
        if exc.errno not in _UNWRITABLE:
            return MediaError(f"{source}: writing its cache entry {final} failed ({why})")
        what = f"its cache entry {final} is damaged ({damage})" if damage else \
            f"it is not cached (entry {final})"
        return MediaError(f"{source}: {what} and the media cache {self.root} cannot be written "
                          f"({why})")

    def _create(self, op, source_sha256, params, build, key, final) -> Entry:
        self.ensure_root()
        final.parent.mkdir(parents=True, exist_ok=True)
        with self._key_lock(key):
            manifest = self._read_manifest(final, op, key)
            if manifest is not None:       # another process finished it while we waited
                self.stats[f"{op}:hit"] += 1
                return Entry(key, final, manifest["data"], True)
            tmp = Path(tempfile.mkdtemp(prefix=f"{TMP_PREFIX}{key[:16]}-", dir=final.parent))
            try:
                if final.exists():         # a damaged entry (a file truncated or gone): rebuild it
                    self.stats[f"{op}:rebuilt"] += 1
                    self._discard(final)
                os.chmod(tmp, 0o755)
                data = build(tmp)
                files = sorted(str(p.relative_to(tmp)) for p in tmp.rglob("*") if p.is_file())
                sizes = {name: os.path.getsize(tmp / name) for name in files}
                crcs = {name: crc32_file(tmp / name) for name in files}
                manifest = {"key": key, "op": op, "version": PRODUCER_VERSIONS[op],
                            "source": source_sha256, "params": params, "created": time.time(),
                            "files": files, "sizes": sizes, "crc32": crcs, "data": data}
                with open(tmp / MANIFEST, "w", encoding="utf-8") as f:
                    json.dump(manifest, f, ensure_ascii=False, separators=(",", ":"))
                try:
                    os.rename(tmp, final)
                except OSError as exc:
                    if exc.errno not in (errno.EEXIST, errno.ENOTEMPTY):
                        raise
                    published = self._read_manifest(final, op, key)
                    if published is None:
                        raise
                    shutil.rmtree(tmp, ignore_errors=True)   # lost the race: use the winner's copy
                    self.stats[f"{op}:hit"] += 1
                    return Entry(key, final, published["data"], True)
            except BaseException:
                shutil.rmtree(tmp, ignore_errors=True)
                raise
        self.stats[f"{op}:miss"] += 1
        return Entry(key, final, data, False)

    def get_or_create_from_source(self, op: str, source: Path, params: dict,
                                  build: Callable[[Path], dict]) -> Entry:
        """`get_or_create` keyed by `source`'s content, for builds that read the whole file.

        When the file's hash is already known this is a plain lookup. On first sight of a file,
        the hash (needed only for the key) is computed on a second thread while `build` decodes
        into a staging folder: hashlib and the decoders release the GIL, so a cold build costs
        about max(hash, build) instead of their sum. If the key turns out to exist already (the
        same bytes under another path), the staged work is dropped and the entry reused.
        """
        known = self.known_source_sha256(source)
        if known:
            return self.get_or_create(op, known, params, build, source)
        from concurrent.futures import ThreadPoolExecutor

        try:
            self.ensure_root()
            parent = self.root / op
            parent.mkdir(parents=True, exist_ok=True)
            staging = Path(tempfile.mkdtemp(prefix=f"{TMP_PREFIX}stage-", dir=parent))
        except OSError:
            # No staging folder: hash first, then the plain path (a hit under another path is
            # still served; a miss fails there, naming the entry).
            return self.get_or_create(op, self.source_sha256(source), params, build, source)
        try:
            with ThreadPoolExecutor(1) as pool:
                pending = pool.submit(self.source_sha256, source)
                try:
                    data = build(staging)
                except OSError as exc:
                    final = self.entry_dir(op, entry_key(op, pending.result(), params))
                    raise self._write_error(source, final, exc, self._damage_of(final)) from None
                finally:
                    sha = pending.result()   # always wait, so no thread outlives the call

            def adopt(tmp: Path) -> dict:
                for item in staging.iterdir():
                    os.rename(item, tmp / item.name)
                return data

            return self.get_or_create(op, sha, params, adopt, source)
        finally:
            shutil.rmtree(staging, ignore_errors=True)

    def _read_manifest(self, final: Path, op: str, key: str) -> dict | None:
        try:
            with open(final / MANIFEST, encoding="utf-8") as f:
                m = json.load(f)
        except (OSError, ValueError, RecursionError):
            return None
        if not isinstance(m, dict) or not self._manifest_valid(final, m, op, key) \
                or self.damage(final, m, self.verify) is not None:
            return None
        return m

    def _damage_of(self, final: Path) -> str | None:
        try:
            with open(final / MANIFEST, encoding="utf-8") as f:
                m = json.load(f)
        except (OSError, ValueError, RecursionError):
            return None
        return self.damage(final, m, self.verify) if isinstance(m, dict) else None

    @staticmethod
    def damage(final: Path, m: dict, verify: bool = False) -> str | None:
        """What is wrong with an entry's files (None when they are what its manifest recorded):
        every file present with its recorded size, and with `verify` its recorded CRC-32."""
        files, sizes, crcs = m.get("files"), m.get("sizes"), m.get("crc32")
        if not (isinstance(files, list) and isinstance(sizes, dict) and isinstance(crcs, dict)
                and all(isinstance(f, str) and isinstance(sizes.get(f), int) and isinstance(crcs.get(f), int)
                        for f in files)):
            return "no size and checksum recorded for its files"
        for name in files:
            try:
                st = os.lstat(final / name)
            except OSError:
                return f"{name} is missing"
            if not stat.S_ISREG(st.st_mode):
                return f"{name} is not a regular file"
            if st.st_size != sizes[name]:
                return f"{name} is {st.st_size:,} bytes, {sizes[name]:,} when written"
            if verify:
                try:
                    if crc32_file(final / name) != crcs[name]:
                        return f"{name} does not match the CRC-32 recorded when it was written"
                except OSError as exc:
                    return f"{name} cannot be read ({exc.strerror or exc})"
        return None

    @staticmethod
    def _manifest_valid(final: Path, m: dict, op: str | None = None, key: str | None = None) -> bool:
        """The manifest describes this folder's key under the current producer version (its
        files are `damage`'s business)."""
        try:
            m_op = m["op"]
            if op is not None and m_op != op:
                return False
            if m.get("version") != PRODUCER_VERSIONS.get(m_op):
                return False
            expected = entry_key(m_op, m["source"], m["params"])
            if expected != (key or final.name) or expected != final.name:
                return False
            return isinstance(m.get("data"), dict)
        except (KeyError, TypeError, ValueError):
            return False

    def _discard(self, path: Path) -> None:
        """Move a folder out of the way atomically, then delete it."""
        trash = path.parent / f"{TMP_PREFIX}trash-{path.name[:16]}-{os.getpid()}-{time.monotonic_ns()}"
        try:
            os.rename(path, trash)
        except FileNotFoundError:
            return
        shutil.rmtree(trash, ignore_errors=True)

    @contextlib.contextmanager
    def _key_lock(self, key: str) -> Iterator[None]:
        try:
            import fcntl
        except ImportError:     # no flock (Windows): the atomic rename alone keeps entries whole
            yield
            return
        lock_dir = self.root / ".locks"
        lock_dir.mkdir(parents=True, exist_ok=True)
        lock_path = lock_dir / f"{key}.lock"
        fd = os.open(lock_path, os.O_CREAT | os.O_RDWR, 0o644)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX)
            try:
                yield
            finally:
                # Unlinking while holding the lock may let a late arrival lock a fresh file and
                # redo the work; it then loses the rename race harmlessly.
                with contextlib.suppress(OSError):
                    os.unlink(lock_path)
                fcntl.flock(fd, fcntl.LOCK_UN)
        finally:
            os.close(fd)

    # ---- inspection and pruning -------------------------------------------------------------
    #
    # Only what br-eval wrote is ever removed: folders under <op>/<xx>/ that hold a manifest
    # br-eval can parse (stale version, wrong name, missing files), `.tmp-*` folders of
    # interrupted writes, `.locks/<key>.lock` and `.hashes/<xx>/<hash>.json` memos. Symbolic links
    # are never followed (nor removed), anything unrecognised is left alone and counted, and a
    # folder without the marker file is refused as a whole.

    @staticmethod
    def _is_real_dir(path: Path) -> bool:
        try:
            return stat.S_ISDIR(os.lstat(path).st_mode)
        except OSError:
            return False

    def _scandir(self, path: Path) -> list[Path]:
        try:
            return sorted(path.iterdir())
        except OSError:
            return []

    def _walk_entries(self) -> Iterator[tuple[str, Path]]:
        """(op folder name, path) for every item under an op's shards, never through a link."""
        if not self._is_real_dir(self.root):
            return
        for op_dir in self._scandir(self.root):
            if op_dir.name not in PRODUCER_VERSIONS or not self._is_real_dir(op_dir):
                continue
            for shard in self._scandir(op_dir):
                # A staging folder of get_or_create_from_source is one item, not a shard.
                if shard.name.startswith(TMP_PREFIX) or not self._is_real_dir(shard):
                    yield op_dir.name, shard
                    continue
                for entry in self._scandir(shard):
                    yield op_dir.name, entry

    def _classify(self, op_name: str, path: Path, verify: bool = False) -> tuple[str, str | None]:
        """("valid" | "invalid" | "damaged" (br-eval entries prune removes) | "temp" | "foreign"
        (left alone), what is wrong with a damaged entry)."""
        kind = self._kind(op_name, path)
        if not isinstance(kind, dict):
            return kind, None
        damage = self.damage(path, kind, verify)
        return ("damaged", damage) if damage else ("valid", None)

    def _kind(self, op_name: str, path: Path):
        """The manifest (dict) of a current entry, else "invalid", "temp" or "foreign"."""
        if not self._is_real_dir(path):
            return "foreign"                        # files and symlinks are never ours to remove
        if path.name.startswith(TMP_PREFIX):
            return "temp"
        if not _HEX64.fullmatch(path.name):
            return "foreign"
        manifest = path / MANIFEST
        try:
            if not stat.S_ISREG(os.lstat(manifest).st_mode):
                return "foreign"
            with open(manifest, encoding="utf-8") as f:
                m = json.load(f)
        except (OSError, ValueError, RecursionError):
            return "foreign"
        if not _looks_like_manifest(m):
            return "foreign"
        if (m.get("op") != op_name or path.parent.name != path.name[:2]
                or not self._manifest_valid(path, m)):
            return "invalid"
        return m

    def size_bytes(self) -> int:
        """Bytes under the root (everything: entries, temporaries, memos)."""
        return _dir_size(self.root) if self.root.is_dir() else 0

    def info(self, verify: bool = False) -> CacheInfo:
        """Counts and sizes; damaged entries listed (sizes checked, CRC-32s too with `verify`)."""
        info = CacheInfo(self.root)
        for op_name, path in self._walk_entries():
            kind, damage = self._classify(op_name, path, verify)
            size = _dir_size(path) if self._is_real_dir(path) else 0
            if kind == "damaged":
                info.damaged.append((op_name, path, damage))
                info.damaged_bytes += size
            elif kind == "valid":
                o = info.ops.setdefault(op_name, OpInfo())
                o.entries += 1
                o.bytes += size
            elif kind == "temp":
                info.temp += 1
                info.temp_bytes += size
            elif kind == "invalid":
                info.invalid += 1
                info.invalid_bytes += size
            else:
                info.foreign += 1
        hashes = self.root / ".hashes"
        if self._is_real_dir(hashes):
            info.hash_memos = sum(1 for _ in self._memo_files())
        info.total_bytes = self.size_bytes()
        info.marked = self.is_marked()
        return info

    def check_prunable(self) -> None:
        """MediaError unless the root is a br-eval cache (a real folder with the marker file)."""
        if not self.root.exists():
            return
        if not self.root.is_dir():
            raise MediaError(f"{self.root}: not a folder; nothing removed")
        if not self.is_marked():
            raise MediaError(f"{self.root}: not a br-eval media cache (no {MARKER} file in it); "
                             "refusing to prune, nothing removed")

    def prune(self, *, temp_age: float = 3600.0, everything: bool = False,
              dry_run: bool = False) -> PruneReport:
        """Remove br-eval entries that no longer match a valid key, stale temporaries and memos.

        An entry is removed when its manifest parses but its producer version is not the current
        one, its folder name is not the key the manifest describes, or its artifacts are missing.
        Temporary folders go once older than `temp_age` seconds (younger ones may belong to a
        running `prepare`). `everything=True` also removes valid entries and every memo and
        lock. Nothing else is touched (see above); a root that is not a br-eval cache raises
        MediaError before anything is removed.
        """
        report = PruneReport()
        if not self.root.is_dir():
            self.check_prunable()
            return report
        self.check_prunable()
        now = time.time()
        for op_name, path in list(self._walk_entries()):
            kind, _ = self._classify(op_name, path)
            if kind == "foreign":
                report.left_alone += 1
                continue
            if kind == "valid" and not everything:
                report.kept += 1
                continue
            try:
                age = now - path.lstat().st_mtime
            except OSError:
                continue
            if kind == "temp" and age < temp_age and not everything:
                continue
            report.freed_bytes += _dir_size(path)
            if kind == "temp":
                report.removed_temp += 1
            else:
                report.removed_invalid += 1
            if not dry_run:
                if kind == "temp":
                    shutil.rmtree(path, ignore_errors=True)
                else:
                    self._discard(path)
        report.removed_locks = self._prune_locks(dry_run)
        report.removed_memos = self._prune_memos(dry_run, everything)
        # Empty shard and op folders left behind (rmdir only ever removes an empty real folder).
        if not dry_run:
            for op_dir in self._scandir(self.root):
                if op_dir.name in PRODUCER_VERSIONS and self._is_real_dir(op_dir):
                    for shard in self._scandir(op_dir):
                        if self._is_real_dir(shard):
                            with contextlib.suppress(OSError):
                                shard.rmdir()
        return report

    def _prune_locks(self, dry_run: bool) -> int:
        lock_dir = self.root / ".locks"
        if not self._is_real_dir(lock_dir):
            return 0
        try:
            import fcntl
        except ImportError:
            return 0
        removed = 0
        for lock_path in self._scandir(lock_dir):
            if not (lock_path.suffix == ".lock" and _HEX64.fullmatch(lock_path.stem)):
                continue
            try:
                if not stat.S_ISREG(os.lstat(lock_path).st_mode):
                    continue
                fd = os.open(lock_path, os.O_RDWR | getattr(os, "O_NOFOLLOW", 0))
            except OSError:
                continue
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except OSError:
                os.close(fd)      # held by a running producer
                continue
            try:
                removed += 1
                if not dry_run:
                    lock_path.unlink(missing_ok=True)
            finally:
                fcntl.flock(fd, fcntl.LOCK_UN)
                os.close(fd)
        return removed

    def _memo_files(self) -> Iterator[Path]:
        hashes = self.root / ".hashes"
        for shard in self._scandir(hashes):
            if len(shard.name) != 2 or not self._is_real_dir(shard):
                continue
            for memo in self._scandir(shard):
                name = memo.name
                ours = (name.startswith(TMP_PREFIX) or
                        (name.endswith(".json") and _HEX64.fullmatch(name[:-5]) is not None))
                try:
                    regular = stat.S_ISREG(os.lstat(memo).st_mode)
                except OSError:
                    continue
                if ours and regular:
                    yield memo

    def _prune_memos(self, dry_run: bool, everything: bool = False) -> int:
        """Hash memos whose file is gone or has changed (all of them with `everything`)."""
        if not self._is_real_dir(self.root / ".hashes"):
            return 0
        removed = 0
        for memo in self._memo_files():
            stale = everything or memo.name.startswith(TMP_PREFIX)
            if not stale:
                try:
                    m = json.loads(memo.read_text(encoding="utf-8"))
                    st = os.stat(m["path"])
                    stale = (st.st_size, st.st_mtime_ns, st.st_ino, st.st_ctime_ns) != \
                        (m["size"], m["mtime_ns"], m["ino"], m["ctime_ns"])
                except (OSError, ValueError, KeyError, TypeError, RecursionError):
                    stale = True
            if stale:
                removed += 1
                if not dry_run:
                    memo.unlink(missing_ok=True)
        return removed


def _looks_like_manifest(m) -> bool:
    """A manifest as `get_or_create` writes it (whatever its version)."""
    return (isinstance(m, dict) and isinstance(m.get("key"), str) and isinstance(m.get("op"), str)
            and "version" in m and isinstance(m.get("source"), str) and "params" in m
            and isinstance(m.get("files"), list) and "data" in m)
