"""Cassettes: one vcrpy recording of LLM traffic per match.

* The path comes from the test id: ``cassettes/<suite path>/<test>/<param id>.yaml``.
* Requests match on method + URL path + a canonical hash of the JSON body, so
  concurrent agents replay correctly in any order, and a replay needs neither
  the recording's host and port nor its key.
* Every header is dropped before writing except ``content-type``; credential
  query parameters are filtered and a URL's user name and password masked.
  No key or cookie reaches the file.
* The file carries a sha256 of its interactions; an edited cassette fails to
  load with :class:`CassetteIntegrityError` instead of replaying wrong data.
* It also names the match it recorded (who sat where, the seed); a replay of
  another match stops at once with :class:`CassetteOtherMatchError` instead of
  missing a request halfway and blaming a prompt change.
* Record modes are pytest-recording's: ``none``, ``once``, ``new_episodes``, ``all``.
* Lookups use an index on the match key, so replay costs the same per call
  whether a match makes 10 requests or 1,000 (vcrpy alone scans the whole
  cassette for every request).
"""

from __future__ import annotations

import contextlib
import contextvars
import copy
import functools
import hashlib
import json
import logging
import os
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlparse

from stratbench.core.types import HarnessError
from stratbench.redact import SECRET_QUERY_NAMES, redact_text
from stratbench.llm.cassette_router import ROUTER, current_cassette

RECORD_MODES = ("none", "once", "new_episodes", "all")
_KEEP_HEADERS = {"content-type"}
_CREDENTIAL_QUERY = list(SECRET_QUERY_NAMES)
_BODY_FIELDS_IGNORED = {"user", "metadata", "request_id", "stream_options"}
_log = logging.getLogger(__name__)
_recording_match: contextvars.ContextVar[str | None] = contextvars.ContextVar("recording_match", default=None)
"""The match the cassette being saved in this context records (written into its stamp)."""
_loaded_match: contextvars.ContextVar[str | None] = contextvars.ContextVar("loaded_match", default=None)
"""The match named by the stamp of the cassette last loaded in this context (None: no name)."""


class CassetteError(HarnessError):
    """Base class for cassette problems; the message names the file."""


class CassetteMissError(CassetteError):
    """Raised when replay meets a request the cassette does not hold."""


class CassetteOtherMatchError(CassetteMissError):
    """Raised when a cassette was recorded for another match than the one replaying it."""


class CassetteIntegrityError(CassetteError):
    """Raised when a cassette file is malformed or was edited after recording."""


class CassetteWriteError(CassetteError):
    """Raised when a recorded cassette cannot be written (a read-only folder, a full disk)."""


class CassetteUnplayedError(CassetteError):
    """Raised when replay ends with recorded requests the match never made."""


def cassette_path(root: Path, nodeid: str) -> Path:
    """Derives a match's cassette path from its pytest node id.

    ``suites/spin/test_tictactoe.py::test_tictactoe[gpt-4o+cot-vs-minimax-s3]``
    becomes ``<root>/spin/test_tictactoe/test_tictactoe/gpt-4o+cot-vs-minimax-s3.yaml``.
    """
    file_part, _, test_part = nodeid.partition("::")
    parts = Path(file_part).with_suffix("").parts
    if parts and parts[0] == "suites":
        parts = parts[1:]
    name, _, param = test_part.partition("[")
    param = param.rstrip("]") or "default"
    pieces = [*parts, *name.split("::"), param]
    # Appended, not Path.with_suffix: a dot in the id (local/qwen2.5-coder-0.5b) is not a suffix to replace.
    return root.joinpath(*(safe_component(p) for p in pieces[:-1]), safe_component(pieces[-1]) + ".yaml")


def safe_component(piece: str) -> str:
    """Returns a node-id piece as a file-name component (``local/gemma3-270m`` → ``local_gemma3-270m``)."""
    cleaned = re.sub(r"[^A-Za-z0-9._+=,-]", "_", piece)
    return cleaned.strip(".") or "_"


def canonical_body_hash(body: bytes | str | None) -> str:
    """Returns the sha256 of a request body's canonical JSON.

    Keys are sorted and fields that cannot change the answer (``user``,
    ``metadata``, ...) are dropped. A non-JSON body is hashed as raw bytes.
    The last few answers are remembered: a replayed request is hashed three
    times while it is matched.
    """
    if body is None:
        return _canonical_body_hash(b"")
    try:
        return _canonical_body_hash(body)
    except TypeError:  # an unhashable body (vcrpy keeps an iterator's body as a list)
        return _canonical_body_hash.__wrapped__(bytes(body))


@functools.lru_cache(maxsize=256)
def _canonical_body_hash(body: bytes | str) -> str:
    raw = body.encode() if isinstance(body, str) else body
    try:
        data = json.loads(raw)
    except (json.JSONDecodeError, UnicodeDecodeError):
        return hashlib.sha256(raw).hexdigest()
    if isinstance(data, dict):
        data = {k: v for k, v in data.items() if k not in _BODY_FIELDS_IGNORED}
    canonical = json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(canonical.encode()).hexdigest()


def describe_request(body: bytes | str | None) -> str:
    """Summarises a chat request for error messages: model, last message, hash."""
    digest = canonical_body_hash(body)[:12]
    try:
        data = json.loads(body or b"{}")
        last = data.get("messages", [{}])[-1].get("content", "")
        if isinstance(last, list):
            last = " ".join(str(p.get("text", "")) for p in last if isinstance(p, dict))
        snippet = " ".join(str(last).split())[:80]
        return f"model={data.get('model')!r} last message={snippet!r} body sha256={digest}"
    except (json.JSONDecodeError, AttributeError, IndexError, TypeError):
        return f"body sha256={digest}"


def _match_body(r1: Any, r2: Any) -> None:
    h1, h2 = canonical_body_hash(r1.body), canonical_body_hash(r2.body)
    _log.debug("cassette match: %s vs %s", h1[:12], h2[:12])
    if h1 != h2:
        raise AssertionError(f"body hash {h1[:12]} != {h2[:12]}")


def _scrub_request(request: Any) -> Any:
    if "@" in request.uri or "?" in request.uri:  # http://user:pass@host/..., ?Token=... in any case
        request.uri = redact_text(request.uri)
    for name in list(request.headers):
        if name.lower() not in _KEEP_HEADERS:
            del request.headers[name]
    return request


def _scrub_response(response: dict[str, Any]) -> dict[str, Any]:
    headers = response.get("headers", {})
    response["headers"] = {k: v for k, v in headers.items() if k.lower() in _KEEP_HEADERS}
    return response


class _ChecksumSerializer:
    """YAML (vcrpy's safe loader and dumper) plus a sha256 over the interactions."""

    @staticmethod
    def _digest(interactions: Any) -> str:
        text = json.dumps(interactions, sort_keys=True, separators=(",", ":"), default=str)
        return hashlib.sha256(text.encode()).hexdigest()

    @classmethod
    def serialize(cls, data: dict[str, Any]) -> str:
        from vcr.serializers import yamlserializer  # lean: vcrpy is slow; loaded at first cassette use

        stamp = {"interactions_sha256": cls._digest(data["interactions"])}
        match = _recording_match.get()
        if match is not None:
            stamp["match"] = match
        stamped = {**data, "stratbench": stamp}
        return yamlserializer.serialize(stamped)

    @classmethod
    def deserialize(cls, text: str) -> dict[str, Any]:
        from vcr.serializers import yamlserializer  # lean: vcrpy is slow; loaded at first cassette use

        try:
            data = yamlserializer.deserialize(text)
        except Exception as error:  # yaml errors of every kind
            raise CassetteIntegrityError(f"not valid cassette YAML ({error.__class__.__name__}: {error})") from error
        if not isinstance(data, dict) or not isinstance(data.get("interactions"), list):
            raise CassetteIntegrityError("not a cassette: no 'interactions' list")
        stamp = data.get("stratbench", {})
        expected = stamp.get("interactions_sha256") if isinstance(stamp, dict) else None
        if expected is None:
            raise CassetteIntegrityError("no stratbench checksum; it was not written by stratbench")
        if cls._digest(data["interactions"]) != expected:
            raise CassetteIntegrityError("its interactions were edited after recording (checksum mismatch)")
        match = stamp.get("match")
        _loaded_match.set(match if isinstance(match, str) else None)
        return data


class _Persister:
    """vcrpy's filesystem persister, with errors that name the file."""

    @staticmethod
    def load_cassette(path: str | Path, serializer: Any) -> Any:
        from vcr.persisters.filesystem import CassetteNotFoundError  # lean: vcrpy is slow; loaded at first cassette use
        from vcr.serialize import deserialize  # lean: vcrpy is slow; loaded at first cassette use

        path = Path(path)
        if not path.is_file():
            raise CassetteNotFoundError()
        try:
            text = path.read_text(encoding="utf-8")
        except UnicodeDecodeError as error:
            raise CassetteIntegrityError(f"cassette {path} is not UTF-8 text; re-record it") from error
        try:
            return deserialize(text, serializer)
        except CassetteIntegrityError as error:
            raise CassetteIntegrityError(
                f"cassette {path}: {error}; restore it from version control or re-record it "
                f"with --record-mode=all"
            ) from error
        except (KeyError, TypeError, ValueError) as error:
            raise CassetteIntegrityError(f"cassette {path} is malformed ({error}); re-record it") from error

    @staticmethod
    def save_cassette(path: str | Path, cassette_dict: dict[str, Any], serializer: Any) -> None:
        from vcr.serialize import serialize  # lean: vcrpy is slow; loaded at first cassette use

        path = Path(path)
        tmp = path.with_suffix(path.suffix + ".tmp")
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            tmp.write_text(serialize(cassette_dict, serializer), encoding="utf-8")
            os.replace(tmp, path)
        except OSError as error:
            with contextlib.suppress(OSError):
                tmp.unlink(missing_ok=True)
            raise CassetteWriteError(f"cannot write the cassette {path} ({error.strerror or error})") from None


def _make_vcr(record_mode: str) -> Any:
    import vcr  # lean: vcrpy is slow; loaded at first cassette use

    recorder = vcr.VCR(
        record_mode=record_mode,
        match_on=["method", "path", "stratbench_body"],
        filter_query_parameters=_CREDENTIAL_QUERY,
        before_record_request=_scrub_request,
        before_record_response=_scrub_response,
        decode_compressed_response=True,
        record_on_exception=False,
    )
    recorder.register_matcher("stratbench_body", _match_body)
    recorder.register_serializer("stratbench-yaml", _ChecksumSerializer)
    recorder.serializer = "stratbench-yaml"
    recorder.register_persister(_Persister)
    return recorder


def will_record(path: Path, record_mode: str) -> bool:
    """Tells whether a match with this cassette may send real requests."""
    if record_mode in ("all", "new_episodes"):
        return True
    return record_mode == "once" and not path.is_file()


@contextlib.contextmanager
def use_cassette(path: Path, record_mode: str, match: str | None = None) -> Iterator[None]:
    """Records or replays the HTTP traffic of the block's context into ``path``.

    The context is the current task's (or thread's): another match in flight
    at the same time keeps its own cassette (see :mod:`stratbench.llm.cassette_router`).
    The file is written only when the block ends without an exception.

    Args:
        path: The cassette file.
        record_mode: One of :data:`RECORD_MODES`.
        match: What decides the match (:func:`describe_match`), stamped into
            the file when it is written and compared when it is replayed.

    Raises:
        CassetteMissError: in ``none`` mode when the file does not exist.
        CassetteOtherMatchError: when the file was recorded for another match
            (every mode but ``all``, which records it again).
        CassetteIntegrityError: when the file is malformed or was edited.
        CassetteUnplayedError: in ``none`` mode when the block made fewer
            requests than were recorded (a shorter match than the recording).
        CassetteWriteError: when the recorded cassette cannot be written.
    """
    if record_mode not in RECORD_MODES:
        raise ValueError(f"record mode must be one of {RECORD_MODES}, got {record_mode!r}")
    if record_mode == "none" and not path.is_file():
        raise CassetteMissError(
            f"no cassette {path} for this match (--record-mode=none); record it with "
            f"--record-mode=once and a model API key or --api-base"
        )

    _loaded_match.set(None)
    cassette = _load(path, record_mode)
    recorded = _loaded_match.get()
    if match is not None and recorded is not None and recorded != match and record_mode != "all":
        raise CassetteOtherMatchError(
            f"cassette {path} was recorded for another match ({recorded}), not this one ({match}); "
            f"record this match with --record-mode=all"
        )
    _install_index(cassette)
    ROUTER.acquire()
    token = current_cassette.set(cassette)
    try:
        yield
    finally:
        current_cassette.reset(token)
        ROUTER.release()
    # reached only when the block ended without an exception (record_on_exception=False)
    if record_mode == "none":
        _check_all_played(cassette, path)
    stamped = _recording_match.set(match if match is not None else recorded)
    try:
        cassette._save()
    finally:
        _recording_match.reset(stamped)


def describe_match(sides: list[str], subject: int, seed: int) -> str:
    """Names what decides a match for a cassette's stamp: who sits where, which side is under test, the seed.

    Examples:
        >>> describe_match(["minimax", "openai/m+direct"], 1, 0)
        'seats minimax, openai/m+direct (subject: seat 2); seed 0'
    """
    return f"seats {', '.join(sides)} (subject: seat {subject + 1}); seed {seed}"


def _load(path: Path, record_mode: str) -> Any:
    """Loads the cassette at ``path`` (empty when the file does not exist) with stratbench's settings."""
    from vcr.cassette import Cassette, CassetteContextDecorator  # lean: vcrpy is slow; loaded at first cassette use

    config = _make_vcr(record_mode).get_merged_config(path=str(path))
    kwargs = {k: v for k, v in config.items() if k not in CassetteContextDecorator._non_cassette_arguments}
    return Cassette.load(**kwargs)


def _check_all_played(cassette: Any, path: Path) -> None:
    """Raises when a replay left recorded model requests unplayed, naming the first.

    Only ``POST`` requests (model calls) count: a local model server's
    readiness probe (``GET /v1/models``) is recorded when the server starts
    inside a match, and a replay starts no server.
    """
    calls = [i for i, (request, _) in enumerate(cassette.data) if request.method == "POST"]
    unplayed = [i for i in calls if not cassette.play_counts[i]]
    if unplayed:
        request = cassette.data[unplayed[0]][0]
        raise CassetteUnplayedError(
            f"cassette {path}: the match ended with {len(unplayed)} of {len(calls)} recorded model "
            f"requests never made (first: {describe_request(request.body)}); a prompt, parser or rule "
            f"change altered the match: re-record with --record-mode=all on purpose"
        )


def _match_key(request: Any) -> tuple[str, str, str]:
    return (request.method, urlparse(request.uri).path, canonical_body_hash(request.body))


def _install_index(cassette: Any) -> None:
    """Replaces the cassette's linear response search with a lookup on the match key.

    The key is exactly what ``match_on`` compares (method, path, body hash), so
    the same interactions match; only the search is faster. Interactions
    recorded during the block are indexed as they appear.
    """
    if not hasattr(cassette, "_responses") or not hasattr(cassette, "data"):
        return  # a vcrpy without this internal method: keep its own search
    _remember_filtered_requests(cassette)
    index: dict[tuple[str, str, str], list[int]] = {}
    indexed = [0]

    def responses(request: Any) -> Iterator[tuple[int, Any]]:
        if cassette.record_mode == "all":
            return  # this mode never plays a response; vcrpy asks anyway, before it checks the mode
        request = cassette._before_record_request(request)
        if not request:
            return
        data = cassette.data
        while indexed[0] < len(data):
            index.setdefault(_match_key(data[indexed[0]][0]), []).append(indexed[0])
            indexed[0] += 1
        for position in index.get(_match_key(request), ()):
            yield position, data[position][1]

    cassette._responses = responses


def _filter_request(request: Any) -> Any:
    """vcrpy's filter chain with stratbench's settings, on a light copy.

    vcrpy deep-copies every request before filtering it (about 0.2 ms per
    model call). The filters only replace the URI and delete headers, and the
    body is immutable bytes, so a shallow copy with its own headers dict is
    enough: the same credential query parameters are dropped and the same
    headers kept (tests/llm compare the recorded cassettes).
    """
    from vcr.filters import replace_query_parameters  # lean: vcrpy is slow; loaded at first cassette use

    clone = copy.copy(request)
    clone.headers = dict(request.headers)
    clone = replace_query_parameters(clone, [(name, None) for name in _CREDENTIAL_QUERY])
    return _scrub_request(clone)


def _remember_filtered_requests(cassette: Any) -> None:
    """Filters each request once, not three times, as vcrpy asks for it.

    vcrpy passes one request through ``before_record_request`` in
    ``can_play_response_for``, again in ``__contains__`` on that result, and
    again in ``play_response``. The filtered copy of the last few request
    objects is kept and returned for the same object; every request is still
    filtered, so what is matched and stored is unchanged.
    """
    recent: dict[int, tuple[Any, Any]] = {}

    def before_record_request(request: Any) -> Any:
        seen = recent.get(id(request))
        if seen is not None and seen[0] is request:
            return seen[1]
        filtered = _filter_request(request)
        if len(recent) >= 8:
            recent.pop(next(iter(recent)))
        recent[id(request)] = (request, filtered)
        return filtered

    cassette._before_record_request = before_record_request


def file_sha256(path: Path) -> str | None:
    """Returns a file's sha256, or None if it does not exist."""
    if not path.is_file():
        return None
    return hashlib.sha256(path.read_bytes()).hexdigest()


def is_cassette_miss(error: BaseException) -> bool:
    """Tells whether an exception chain comes from a request the cassette lacks."""
    seen: set[int] = set()
    current: BaseException | None = error
    while current is not None and id(current) not in seen:
        seen.add(id(current))
        if type(current).__name__ == "CannotOverwriteExistingCassetteException":
            return True
        current = current.__cause__ or current.__context__
    return False
