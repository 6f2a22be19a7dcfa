"""Command-line options of the plugin, with typed parsers that explain bad values."""

from __future__ import annotations

import argparse
import os
from typing import Any
from urllib.parse import urlsplit

from stratbench.core.obfuscation import Obfuscation, ObfuscationError
from stratbench.llm.cassettes import RECORD_MODES
from stratbench.llm.client import PROMPT_CACHE_MODES, REASONING_EFFORTS
from stratbench.llm.session import TRUNCATION_RULES
from stratbench.llm.limits import DEFAULT_CONCURRENCY as DEFAULT_MODEL_CONCURRENCY, parse_limit
from stratbench.match.metric_budget import DEFAULT_METRIC_TIMEOUT_S
from stratbench.redact import redact_url
from stratbench.run.shards import parse_shard
from stratbench.run.gating import add_pytest_options
from stratbench.scaffolds.tool_answer import ANSWER_FORMATS


def positive_int(text: str) -> int:
    """Parses an integer of at least 1."""
    return _whole_number(text, 1)


def _whole_number(text: str, minimum: int) -> int:
    """Parses an integer of at least ``minimum``."""
    message = f"expected a whole number of at least {minimum}, got {text!r}"
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(message) from None
    if value < minimum:
        raise argparse.ArgumentTypeError(message)
    return value


def non_negative_float(text: str) -> float:
    """Parses a number of at least 0."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number, got {text!r}") from None
    if not 0 <= value < float("inf"):  # refuses nan and inf too: neither is a JSON number
        raise argparse.ArgumentTypeError(f"expected a number of at least 0, got {text!r}")
    return value


TEMPERATURE_RANGE = (0.0, 2.0)
"""Sampling temperatures accepted: 0 to 2, the widest range providers take (OpenAI, Gemini)."""


def temperature(text: str) -> float:
    """Parses a sampling temperature: a finite number from 0 to 2."""
    low, high = TEMPERATURE_RANGE
    problem = f"expected a number from {low:g} to {high:g}, got {text!r}"
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(problem) from None
    if not low <= value <= high:  # nan and inf fail this too
        raise argparse.ArgumentTypeError(problem)
    return value


def model_string(text: str) -> str:
    """Parses a litellm model string: no empty part (``openai/`` names no model)."""
    if not text.strip() or any(not part.strip() for part in text.split("/")):
        raise argparse.ArgumentTypeError(
            f"expected a model string such as openai/gpt-4o, with a name after each '/', got {text!r}"
        )
    return text


def non_negative_int(text: str) -> int:
    """Parses an integer of at least 0."""
    return _whole_number(text, 0)


def port_number(text: str) -> int:
    """A TCP port, 0 (any free one) to 65535."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a port number, got {text!r}") from None
    if not 0 <= value <= 65535:
        raise argparse.ArgumentTypeError(f"expected a port number from 0 to 65535, got {value}")
    return value


def positive_float(text: str) -> float:
    """Parses a number greater than 0."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number of seconds greater than 0, got {text!r}") from None
    if not value > 0 or value == float("inf"):
        raise argparse.ArgumentTypeError(f"expected a number of seconds greater than 0, got {text!r}")
    return value


def existing_folder(text: str) -> str:
    """Parses the path of a folder that exists."""
    if not os.path.isdir(text):
        raise argparse.ArgumentTypeError(f"no such folder: {text!r}")
    return text


def model_price(text: str) -> tuple[str, float, float]:
    """Parses ``MODEL=IN,OUT``: USD per million input and output tokens.

    Examples:
        >>> model_price("openai/m=2.5,10")
        ('openai/m', 2.5, 10.0)
    """
    model, sep, prices = text.rpartition("=")
    parts = prices.split(",")
    problem = f"expected MODEL=IN,OUT (USD per million input and output tokens), got {text!r}"
    if not sep or not model or len(parts) != 2:
        raise argparse.ArgumentTypeError(problem)
    try:
        values = [float(part) for part in parts]
    except ValueError:
        raise argparse.ArgumentTypeError(problem) from None
    if any(not 0 <= value < float("inf") for value in values):
        raise argparse.ArgumentTypeError(problem)
    return model, values[0], values[1]


def model_limit(option: str) -> Any:
    """Returns the parser of a per-model limit flag: ``MODEL=N``, or ``N`` for every model."""

    def parse(text: str) -> tuple[str, float]:
        try:
            return parse_limit(option, text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected MODEL=N or N with N a positive number, got {text!r}") from None

    parse.__name__ = option.lstrip("-").replace("-", "_")
    return parse


def base_url(text: str) -> str:
    """Parses an http(s) base URL with a host and, if given, a port from 1 to 65535, without credentials before
    the host (a query's key is sent as given).

    The message shows the URL with its credentials masked (:func:`stratbench.redact.redact_url`).
    """
    shown = redact_url(text)
    if not text.startswith(("http://", "https://")):
        raise argparse.ArgumentTypeError(f"expected an http:// or https:// URL, got {shown!r}")
    try:
        parts = urlsplit(text)
        port = parts.port
        bad_port = port == 0
    except ValueError as error:  # a port that is not a number or above 65535, an unclosed [IPv6 address
        if not str(error).startswith("Port"):
            raise argparse.ArgumentTypeError(f"not a usable URL ({error}), got {shown!r}") from None
        bad_port = True
    if bad_port:
        raise argparse.ArgumentTypeError(f"expected a port from 1 to 65535, got {shown!r}")
    if not parts.hostname:
        raise argparse.ArgumentTypeError(f"expected a host after {parts.scheme}://, got {shown!r}")
    if "@" in parts.netloc:  # litellm sends its own Authorization header, which such a URL's credentials clash with
        raise argparse.ArgumentTypeError(
            f"credentials in the URL are not sent ({shown}): put the key in the provider's variable "
            "(OPENAI_API_KEY, ANTHROPIC_API_KEY, ...; litellm sends it as the Authorization header) and give the "
            "URL without user:password@")
    return text.rstrip("/")


def agent_pair(text: str) -> str:
    """Parses ``NEW=OLD`` agent labels."""
    new, sep, old = text.partition("=")
    if not sep or not new or not old:
        raise argparse.ArgumentTypeError(f"expected NEW=OLD, got {text!r}")
    return text


def obfuscation_spec(text: str) -> str:
    """Parses a ``--obfuscate`` value (``MODE`` or ``MODE:SEED``) into its ``MODE:SEED`` form."""
    try:
        return Obfuscation.parse(text).spec()
    except ObfuscationError as error:
        raise argparse.ArgumentTypeError(str(error)) from None


DEFAULT_PROGRESS_S = 10.0
"""Seconds between progress lines (:mod:`stratbench.run.progress`)."""

SALT_MIN_CHARS = 12
"""The shortest ``--seed-salt``: the ids carry a digest of it, which a shorter secret could be guessed from."""


def salt_text(text: str) -> str:
    """Parses a ``--seed-salt`` value: any text of at least :data:`SALT_MIN_CHARS` characters (the message never
    repeats it)."""
    if len(text.strip()) < SALT_MIN_CHARS:
        raise argparse.ArgumentTypeError(
            f"expected a secret of at least {SALT_MIN_CHARS} characters (the ids carry a digest of it, which a shorter "
            "one could be guessed from), e.g. python -c 'import secrets; print(secrets.token_urlsafe(16))'")
    return text


def _shard(text: str) -> Any:
    return parse_shard(text)


def add_options(parser: Any) -> None:
    """Adds stratbench's options to pytest's parser (one ``stratbench`` group)."""
    group = parser.getgroup("stratbench", "strategic-reasoning benchmarks")
    # Help texts: start with a capital letter, a single phrase, no closing period.
    group.addoption("--model", action="append", default=[], metavar="MODEL", type=model_string,
                    help="Evaluate this litellm model string (repeatable), e.g. openai/gpt-4o")
    group.addoption("--local-model", action="append", default=[], metavar="[NAME=]PATH",
                    help="GGUF file served by llama.cpp for --model local/NAME (repeatable)")
    group.addoption("--stratbench-reference", choices=("auto", "replay", "record", "off"), default="auto",
                    help="Committed reference recordings (cassettes/reference.json): auto replays them when no "
                         "model or agent is given; record re-records them; off leaves them out")
    group.addoption("--scaffold", action="append", default=[], metavar="NAME",
                    help="Prompting scaffold for every --model (repeatable; default direct)")
    group.addoption("--matches", type=positive_int, default=None, metavar="N",
                    help="Matches per pairing, overriding each suite's default")
    group.addoption("--seed", type=int, default=0, metavar="N",
                    help="First match seed; match i of a pairing uses seed N+i")
    group.addoption("--progress", type=non_negative_float, default=DEFAULT_PROGRESS_S, metavar="S",
                    dest="stratbench_progress",
                    help="Every S seconds while matches play, one line: matches done of all, in flight, model "
                         f"calls, tokens and cost so far, time left (default {DEFAULT_PROGRESS_S:g}; 0: none; "
                         "never under -q)")
    group.addoption("--openings", choices=("empty", "book"), default=None, dest="stratbench_openings",
                    help="Where Tic-Tac-Toe, Connect Four and chess start: empty (the game's own start) or book (each "
                         "seed from a balanced position of the game's book; default protocol only); default: book "
                         "when the gate plays pairs (--pairs, a head-to-head map, a baseline recorded so), else "
                         "empty")
    group.addoption("--obfuscate", action="append", default=[], type=obfuscation_spec, metavar="MODE[:SEED]",
                    dest="obfuscate",
                    help="Memorisation probe (repeatable): beside each match of a game that supports it, play it "
                         "once more with renamed names; MODE random (meaningless tokens), mystery (unrelated "
                         "words) or deceptive (misleading names), SEED chooses the renaming (default 0)")
    group.addoption("--seed-salt", type=salt_text, default=None, metavar="TEXT", dest="seed_salt",
                    help="Secret mixed into every --obfuscate renaming: a private split no public cassette holds "
                         "(only its digest reaches ids and records)")
    group.addoption("--api-base", type=base_url, default=None, metavar="URL",
                    help="Base URL for every model call: an OpenAI-compatible server, or a provider's own "
                         "endpoint (an Azure resource, an Anthropic or Gemini gateway)")
    group.addoption("--temperature", type=temperature, default=None, metavar="T",
                    help="Sampling temperature for model calls, 0 to 2 (default 0, or the protocol's)")
    group.addoption("--protocol", "--stratbench-protocol", default=None, metavar="NAME",
                    dest="stratbench_protocol",
                    help="Play each suite in this protocol: default (the project's) or paper (as the paper's "
                         "released code; docs/PROTOCOLS.md); a suite marker's protocol= pins its own")
    group.addoption("--reasoning-effort", action="append", default=[], choices=REASONING_EFFORTS,
                    dest="reasoning_effort",
                    help="Reasoning effort of the models under test, sent as litellm's reasoning_effort (dropped "
                         "and recorded where a provider does not take it); repeat to compare efforts side by side")
    group.addoption("--thinking-budget", type=positive_int, default=None, metavar="N", dest="thinking_budget",
                    help="Thinking tokens per request for providers that take a budget (Anthropic, Gemini), sent "
                         "as litellm's thinking={type: enabled, budget_tokens: N}")
    group.addoption("--answer-format", action="append", default=[], choices=ANSWER_FORMATS, dest="answer_format",
                    help="How models answer a decision: text (read from the reply) or tools (a make_move function "
                         "call); repeat to compare side by side")
    group.addoption("--on-truncation", choices=TRUNCATION_RULES, default=None, dest="on_truncation",
                    help="An answer cut by the output-token limit: retry (ask once more for the answer alone; cut "
                         "again, the game's fallback decides with the reason 'truncated'; the default protocol's "
                         "default) or read (read the cut answer as it is: the paper protocols' default)")
    group.addoption("--prompt-cache", choices=PROMPT_CACHE_MODES, default="auto", dest="prompt_cache",
                    help="auto: mark the stable prompt prefix for providers that cache on request (Anthropic); "
                         "off: never mark it")
    group.addoption("--max-cost", type=non_negative_float, default=None, metavar="USD",
                    help="Stop calling models once the run has spent this much; skip the rest")
    group.addoption("--price", type=model_price, action="append", default=[], metavar="MODEL=IN,OUT",
                    help="USD per million input and output tokens of MODEL, for cost and --max-cost "
                         "(repeatable; overrides litellm's price map)")
    group.addoption("--request-timeout", type=positive_float, default=120.0, metavar="S",
                    help="Seconds one model request may take before it is retried (default 120)")
    group.addoption("--retries", type=non_negative_int, default=4, metavar="N",
                    help="Retries of a model request after a provider fault: 429, 5xx, timeout, connection, "
                         "unusable reply (default 4)")
    group.addoption("--retry-backoff", type=positive_float, default=1.0, metavar="S",
                    help="Seconds before the first retry of a model request; each next wait doubles, with jitter "
                         "(default 1; a 429's Retry-After, when given, throttles the model instead)")
    group.addoption("--stratbench-concurrency", type=positive_int, default=None, metavar="N",
                    help="Matches played at once in each process (and each xdist worker) while they wait on "
                         "models (default 16 with --model, else 1; 1 plays one after another)")
    group.addoption("--model-concurrency", type=model_limit("--model-concurrency"), action="append", default=[],
                    metavar="[MODEL=]N", help="Model calls in flight at once per process for MODEL (or every "
                                             "model; repeatable; default 64)")
    group.addoption("--model-rpm", type=model_limit("--model-rpm"), action="append", default=[],
                    metavar="[MODEL=]N", help="Requests per minute per process for MODEL (or every model; "
                                             "repeatable; default litellm's model map, else none)")
    group.addoption("--model-tpm", type=model_limit("--model-tpm"), action="append", default=[],
                    metavar="[MODEL=]N", help="Tokens per minute per process for MODEL (or every model; "
                                             "repeatable; default litellm's model map, else none)")
    group.addoption("--report-dir", default=None, metavar="DIR",
                    help="Where results.jsonl and reports go (default reports/latest)")
    group.addoption("--max-concurrency", type=positive_int, default=DEFAULT_MODEL_CONCURRENCY, metavar="N",
                    help="Model requests in flight at once per model that --model-concurrency does not name "
                         f"(default {DEFAULT_MODEL_CONCURRENCY}); games with many agents deciding together (LLM-PySC2) "
                         "need at least as many")
    group.addoption("--match-timeout", type=non_negative_float, default=3600.0, metavar="S",
                    help="Record a match that runs longer than S seconds as errored (timeout); 0: no limit "
                         "(default 3600)")
    group.addoption("--stratbench-metric-timeout", type=non_negative_float, default=DEFAULT_METRIC_TIMEOUT_S,
                    metavar="S", dest="stratbench_metric_timeout",
                    help="Seconds each per-match metric may take; one that runs out is recorded as not computed, "
                         "with the reason, and the match still scores; 0: no limit "
                         f"(default {DEFAULT_METRIC_TIMEOUT_S:g})")
    group.addoption("--resume", "--stratbench-resume", action="store_true", default=False, dest="stratbench_resume",
                    help="Play only the matches without a scored record for the same settings in --report-dir; "
                         "carry the earlier records into this run")
    group.addoption("--rap-depth", type=positive_int, default=2, metavar="N",
                    help="Tree-search depth of the rap scaffold (default 2, GameBench's)")
    group.addoption("--rap-iterations", type=positive_int, default=10, metavar="N",
                    help="Tree-search iterations per decision of the rap scaffold (default 10, llm-reasoners' n_iters)")
    group.addoption("--record-mode", choices=RECORD_MODES, default="once",
                    help="Cassette mode: none (replay only), once (default), new_episodes, all")
    group.addoption("--stratbench-agent", action="append", default=[], metavar="NAME",
                    help="Also evaluate this registered agent (repeatable), e.g. human")
    group.addoption("--human-web", action="store_true", default=False,
                    help="The human agent plays in a local browser page (127.0.0.1, a one-time token in its URL) "
                         "instead of the terminal: every selected match through one page, one after another")
    group.addoption("--human-timeout", type=positive_float, default=600.0, metavar="S",
                    help="With --human-web: seconds the page may wait for a move before the human forfeits "
                         "(default 600)")
    group.addoption("--human-port", type=port_number, default=0, metavar="N",
                    help="With --human-web: the page's port on 127.0.0.1 (default 0: a free one)")
    group.addoption("--human-no-browser", action="store_true", default=False,
                    help="With --human-web: print the page's address without opening a browser")
    group.addoption("--stratbench-max-tokens", type=positive_int, default=None, metavar="N",
                    help="Maximum tokens per model answer")
    group.addoption("--stratbench-cassette-dir", default=None, metavar="DIR",
                    help="Where cassettes live (default cassettes/ at the rootdir)")
    group.addoption("--stratbench-vision", choices=("auto", "on", "off"), default="auto",
                    help="Send image observations to models: auto (litellm's model map), on, off")
    group.addoption("--annotator-model", type=model_string, default=None, metavar="MODEL",
                    help="Model that annotates negotiation transcripts (Diplomacy metrics)")
    group.addoption("--baseline", default=None, metavar="PATH",
                    help="Gate the run against this results.json (or report dir): pass, fail (exit 1) or "
                         "inconclusive (exit 6)")
    group.addoption("--stratbench-gate-tolerance", type=non_negative_float, default=0.0, metavar="R",
                    help="Rating points an interval may fall below the baseline's before the gate notes it")
    group.addoption("--stratbench-gate-map", action="append", default=[], metavar="NEW=OLD",
                    type=agent_pair, help="Compare agent NEW with baseline agent OLD (repeatable); without "
                                          "--baseline, NEW against OLD head to head in this run")

    add_pytest_options(group)
    group.addoption("--stratbench-shard", type=_shard, default=None, metavar="I/N",
                    help="Play only shard I of N of the collected matches (a fixed split by node id, the same "
                         "under any collection order and -n); combine the shards with stratbench merge")
    group.addoption("--schedule", "--stratbench-schedule", choices=("all", "adaptive"), default="all",
                    dest="stratbench_schedule",
                    help="all (default) plays every collected match; adaptive plays the --budget matches that "
                         "most shrink the overlap of the rating intervals and skips the rest (one process)")
    group.addoption("--budget", "--stratbench-budget", type=positive_int, default=None, metavar="N",
                    dest="stratbench_budget", help="Matches --schedule adaptive (or --gate-until-decided) plays")
    group.addoption("--stratbench-bootstrap", type=positive_int, default=10_000, metavar="B",
                    help="Bootstrap resamples for the session's ratings (default 10000)")
    parser.addini("stratbench_cassette_dir", "Cassette directory, relative to the rootdir", default="cassettes")
    parser.addini("stratbench_report_dir", "Report directory, relative to the rootdir", default="reports/latest")
