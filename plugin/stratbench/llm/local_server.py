"""Runs llama.cpp's OpenAI-compatible server for one GGUF, with prompt reuse turned off.

``python -m stratbench.llm.local_server --model FILE --alias NAME --port P``
serves ``/v1/chat/completions`` through llama-cpp-python's server, with two
changes:

- llama.cpp normally keeps the previous request's tokens and evaluates only
  the part of a new prompt that differs; greedy answers then depend on which
  request came before. Here every request evaluates its prompt from an empty
  context, so an answer depends only on its own request — the property
  recordings need.
- OpenAI's structured-output form ``{"type": "json_schema", "json_schema":
  {"schema": ...}}`` is accepted and handed to llama-cpp-python in its own
  form (``{"type": "json_object", "schema": ...}``), which compiles the schema
  into a grammar.
- A request with ``logprobs`` gets them for the answer's first token (what
  the ``rap`` scaffold reads), from the logits llama.cpp computes for the
  last prompt position anyway. llama-cpp-python's own logprobs need
  ``logits_all``, which computes logits for every prompt token (slow with a
  262k vocabulary), so it is left off.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

import numpy as np


def build_parser() -> argparse.ArgumentParser:
    """Returns the command-line parser."""
    parser = argparse.ArgumentParser(prog="python -m stratbench.llm.local_server", description=__doc__.splitlines()[0])
    parser.add_argument("--model", required=True, help="GGUF file")
    parser.add_argument("--alias", required=True, help="Model name clients send")
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--context", type=int, default=8192)
    parser.add_argument("--chat-format", default=None,
                        help="Chat template when the GGUF has none (default: gemma for Gemma files)")
    return parser


def chat_format_for(model: str, given: str | None = None) -> str | None:
    """Returns the chat format to serve a GGUF with: the given one, ``gemma`` for Gemma files, else None.

    None makes llama-cpp-python use the chat template stored in the GGUF
    (``tokenizer.chat_template``): Qwen2.5-Coder-0.5B-Instruct's ChatML template.

    Examples:
        >>> chat_format_for("/cache/qwen2.5-coder-0.5b-instruct-q4_k_m.gguf") is None
        True
        >>> chat_format_for("/cache/gemma-3-270m-q4_k_m.gguf")
        'gemma'
    """
    if given:
        return given
    return "gemma" if "gemma" in Path(model).name.lower() else None


def disable_prompt_reuse(llama_class: Any) -> None:
    """Makes every generation start from an empty context (no prefix reuse between requests)."""
    original = llama_class.generate
    if getattr(original, "_stratbench_fresh", False):
        return

    def generate(self: Any, tokens: Any, *args: Any, **kwargs: Any) -> Any:
        self.reset()
        return original(self, tokens, *args, **kwargs)

    generate._stratbench_fresh = True  # type: ignore[attr-defined]
    llama_class.generate = generate


def serve_first_token_logprobs(llama_class: Any) -> None:
    """Makes ``create_chat_completion`` answer ``logprobs`` for the first answer token without ``logits_all``.

    The logits are read right after a one-token generation, when the last
    evaluated position is the prompt's last; a longer request is generated
    again in full after it. Streaming requests are passed through unchanged.
    """
    original = llama_class.create_chat_completion
    if getattr(original, "_stratbench_logprobs", False):
        return

    def create_chat_completion(self: Any, *args: Any, **kwargs: Any) -> Any:
        wanted, top_n = kwargs.pop("logprobs", None), kwargs.pop("top_logprobs", None)
        if not wanted or kwargs.get("stream"):
            return original(self, *args, logprobs=wanted, top_logprobs=top_n, **kwargs)
        first = original(self, *args, **{**kwargs, "max_tokens": 1})
        content = first_token_logprobs(self, first["choices"][0]["message"].get("content") or "", int(top_n or 0))
        completion = first if kwargs.get("max_tokens") == 1 else original(self, *args, **kwargs)
        completion["choices"][0]["logprobs"] = {"content": content, "refusal": None}
        return completion

    create_chat_completion._stratbench_logprobs = True  # type: ignore[attr-defined]
    llama_class.create_chat_completion = create_chat_completion


def first_token_logprobs(llama: Any, text: str, top_n: int) -> list[dict[str, Any]]:
    """Returns OpenAI's ``logprobs.content`` for the first token of ``text`` from the last position's logits.

    The token is ``text``'s first token (the most likely one when ``text`` is
    empty); its alternatives are the ``top_n`` most likely tokens, highest
    first, ties in token-id order.
    """
    logits = np.ctypeslib.as_array(llama._ctx.get_logits(), shape=(llama.n_vocab(),)).astype(np.float64)
    highest = logits.max()
    logprobs = logits - (highest + np.log(np.exp(logits - highest).sum()))
    order = np.argsort(-logprobs, kind="stable")
    ids = llama.tokenize(text.encode(), add_bos=False, special=True) if text else []
    token = int(ids[0]) if ids else int(order[0])

    def entry(token_id: int) -> dict[str, Any]:
        piece = llama.detokenize([token_id])
        return {"token": piece.decode("utf-8", errors="replace"), "logprob": float(logprobs[token_id]),
                "bytes": list(piece)}

    return [{**entry(token), "top_logprobs": [entry(int(i)) for i in order[:top_n]]}]


def to_llama_response_format(body: bytes) -> bytes:
    """Rewrites an OpenAI ``json_schema`` response format into llama-cpp-python's ``json_object`` + schema.

    Examples:
        >>> to_llama_response_format(b'{"response_format": {"type": "json_schema", "json_schema": {"schema": {}}}}')
        b'{"response_format": {"type": "json_object", "schema": {}}}'
    """
    try:
        request = json.loads(body)
    except ValueError:
        return body
    response_format = request.get("response_format") if isinstance(request, dict) else None
    if not isinstance(response_format, dict) or response_format.get("type") != "json_schema":
        return body
    schema = (response_format.get("json_schema") or {}).get("schema")
    request["response_format"] = {"type": "json_object", "schema": schema}
    return json.dumps(request).encode()


class OpenAIResponseFormat:
    """ASGI wrapper that applies :func:`to_llama_response_format` to chat requests."""

    def __init__(self, app: Any) -> None:
        self.app = app

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope.get("type") != "http" or scope.get("method") != "POST" or not scope.get("path", "").endswith(
            "/chat/completions"
        ):
            await self.app(scope, receive, send)
            return
        body, more = b"", True
        while more:
            message = await receive()
            body += message.get("body", b"")
            more = message.get("more_body", False)
        body = to_llama_response_format(body)
        delivered = False

        async def replay() -> dict[str, Any]:
            nonlocal delivered
            if not delivered:
                delivered = True
                return {"type": "http.request", "body": body, "more_body": False}
            return await receive()

        headers = [(k, v) for k, v in scope.get("headers", []) if k.lower() != b"content-length"]
        headers.append((b"content-length", str(len(body)).encode()))
        await self.app({**scope, "headers": headers}, replay, send)


def main(argv: list[str] | None = None) -> None:
    """Starts the server and blocks until it is stopped."""
    args = build_parser().parse_args(argv)
    import llama_cpp  # optional: the [local] extra
    import uvicorn  # optional: the [local] extra
    from llama_cpp.server.app import create_app  # optional: the [local] extra
    from llama_cpp.server.settings import ModelSettings, ServerSettings  # optional: the [local] extra

    disable_prompt_reuse(llama_cpp.Llama)
    serve_first_token_logprobs(llama_cpp.Llama)
    chat_format = chat_format_for(args.model, args.chat_format)
    model = ModelSettings(
        model=args.model,
        model_alias=args.alias,
        n_ctx=args.context,
        n_threads=args.threads,
        n_threads_batch=args.threads,
        chat_format=chat_format,
        seed=0,
        logits_all=False,  # the server's default keeps logits for every prompt token: slow with a 262k vocabulary
        cache=False,
        verbose=False,
    )
    app = create_app(server_settings=ServerSettings(host=args.host, port=args.port), model_settings=[model])
    uvicorn.run(OpenAIResponseFormat(app), host=args.host, port=args.port, log_level="warning")


if __name__ == "__main__":
    main()
