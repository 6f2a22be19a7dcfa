"""The page a person plays on: one HTML document, its script inline, nothing loaded from anywhere.

The script polls ``/state`` twice a second and sends moves to ``/move``; the
page's HttpOnly cookie (set by the server when the page was opened) carries
the token, which the script never sees, and the script drops the token from
the address bar. Its Content-Security-Policy allows that script alone (by its
hash), inline styles, ``data:`` images and requests to the page's own
origin; nothing else loads or runs. The landing page (:func:`landing_html`)
sends a browser that signed in through the hand-off file on to the page.
"""

from __future__ import annotations

import base64
import hashlib
from functools import lru_cache

SCRIPT = r"""
"use strict";
if (location.search) history.replaceState(null, "", "/");  // the cookie carries the token from here on
const $ = (id) => document.getElementById(id);
let current = null, shownKey = "", chessFrom = null, misses = 0, timer = null;

function el(tag, text, cls) {
  const node = document.createElement(tag);
  if (text !== undefined) node.textContent = text;
  if (cls) node.className = cls;
  return node;
}

function setStatus(text) { $("status").textContent = text; }
function showError(text) { $("error").textContent = text; $("error").hidden = !text; }

async function send(move) {
  if (!current) return;
  showError("");
  setStatus("Sending " + move + " ...");
  let answer;
  try {
    const reply = await fetch("/move", {
      method: "POST", headers: {"Content-Type": "application/json"},
      body: JSON.stringify({decision: current.decision, move: move}),
    });
    answer = await reply.json();
  } catch (error) {
    answer = {ok: false, error: "the page could not reach the match: " + error};
  }
  if (answer.ok) {
    $("sent").textContent = "You played " + move;
    current = null;
    pollSoon(100);
    setStatus("Waiting for the other players ...");
    $("actions").replaceChildren();
    $("board").classList.remove("clickable");
  } else {
    showError("Refused: " + answer.error);
    setStatus("Your move (" + (current ? current.role : "") + ")");
  }
}

function clickBoard(event) {
  const click = current && current.click;
  const svg = $("board").querySelector("svg");
  if (!click || !svg) return;
  const box = svg.getBoundingClientRect();
  const fx = (event.clientX - box.left) / box.width, fy = (event.clientY - box.top) / box.height;
  const column = Math.floor((fx - click.left) / click.width * click.columns);
  const row = Math.floor((fy - click.top) / click.height * click.rows);
  if (column < 0 || row < 0 || column >= click.columns || row >= click.rows) return;
  if (click.cells) { send(click.cells[row][column]); return; }
  const square = click.squares[row][column];
  if (chessFrom === null) {
    chessFrom = square;
    $("sent").textContent = "From " + square + ": click the target square";
    return;
  }
  const key = chessFrom + square;
  chessFrom = null;
  send(click.moves[key] || key);
}

function list(id, items, text) {
  const target = $(id);
  target.replaceChildren(...items.map((item) => el("li", text(item))));
  target.parentElement.hidden = items.length === 0;
}

function render(state) {
  const match = state.match || {};
  $("who").textContent = match.game ? (match.name + " playing " + match.game + " (" + match.label + ")") : "";
  list("finished", state.finished || [], (m) => m.game + ": " + (m.forfeit ? "forfeit (" + m.forfeit + ")"
    : m.error ? "error: " + m.error : "scores " + JSON.stringify(m.scores) + (m.terminal ? " - " + m.terminal : "")));
  const decision = state.decision;
  const key = JSON.stringify([match.key, decision && decision.decision, (state.finished || []).length, state.closed]);
  if (key === shownKey) return;
  shownKey = key;
  current = decision;
  chessFrom = null;
  if (state.closed) { setStatus("The run is over: you may close this page."); return; }
  if (!decision) {
    setStatus(match.game ? "Waiting for the other players ..." : "Waiting for the match to start ...");
    return;
  }
  $("title").textContent = decision.title;
  $("rules").textContent = decision.rules;
  $("observation").textContent = decision.text;
  $("outcome").textContent = decision.outcome;
  $("outcome").hidden = !decision.outcome;
  if (decision.feedback) showError("The game refused your last move: " + decision.feedback); else showError("");
  const board = $("board");
  if (decision.board) board.innerHTML = decision.board; else board.replaceChildren();
  board.classList.toggle("clickable", !!decision.click);
  list("moves", decision.moves || [], (m) => "player " + m.player + ": " + m.action);
  list("messages", decision.messages || [],
       (m) => "[" + m.sender + " to " + JSON.stringify(m.recipients) + "] " + m.text);
  const actions = $("actions");
  actions.replaceChildren(...decision.legal.map((move) => {
    const button = el("button", move, "action");
    button.type = "button";
    button.dataset.move = move;
    button.addEventListener("click", () => send(move));
    return button;
  }));
  const hints = Object.entries(decision.open_ended).map(([id, prompt]) => id + ": <text>  (" + prompt + ")");
  $("open-ended").textContent = hints.join("\n");
  $("open-ended").hidden = hints.length === 0;
  setStatus((decision.negotiation ? "Your message (" : "Your move (") + decision.role + ")");
}

function pollSoon(ms) {
  if (timer !== null) clearTimeout(timer);
  timer = setTimeout(poll, ms);
}

async function poll() {
  timer = null;
  try {
    const reply = await fetch("/state", {cache: "no-store"});
    if (reply.status === 403) {
      setStatus("This page's token is wrong: open the address the command printed.");
      return;
    }
    misses = 0;
    render(await reply.json());
  } catch (error) {
    misses += 1;
    if (misses > 3) setStatus("The match is not reachable (the run ended?)");
  }
  if (timer === null) timer = setTimeout(poll, 500);
}

$("board").addEventListener("click", clickBoard);
$("move-form").addEventListener("submit", (event) => {
  event.preventDefault();
  const text = $("move-text").value;
  if (text.trim()) { send(text); $("move-text").value = ""; }
});
poll();
"""

STYLE = """
body { font-family: sans-serif; margin: 1.5em; max-width: 70em; color: #222; }
#notes { min-height: 5.5em; }  /* a note appearing never moves the board under the pointer */
#notes p { margin: .3em 0; min-height: 1.2em; }
#status { font-weight: bold; font-size: 1.1em; }
#error { color: #b00020; white-space: pre-wrap; }
#board.clickable svg { cursor: pointer; }
pre { background: #f6f6f0; padding: .6em; white-space: pre-wrap; max-height: 30em; overflow: auto; }
button.action { margin: .15em; font-family: monospace; }
.columns { display: flex; gap: 2em; flex-wrap: wrap; }
"""

BODY = """
<h1 id="title">stratbench</h1>
<p id="who"></p>
<div id="notes"><p id="status">Connecting ...</p>
<p id="error" hidden></p>
<p id="sent"></p></div>
<div class="columns">
<div><div id="board"></div><section hidden><h3>Moves</h3><ol id="moves"></ol></section></div>
<div>
<h3>What you see</h3><pre id="observation"></pre>
<p id="outcome" hidden></p>
<div id="actions"></div>
<pre id="open-ended" hidden></pre>
<form id="move-form"><input id="move-text" size="50" autocomplete="off" placeholder="or type your move">
<button id="move-send" type="submit">Play</button></form>
<section hidden><h3>Messages</h3><ul id="messages"></ul></section>
</div></div>
<section hidden><h3>Finished matches</h3><ol id="finished"></ol></section>
<details><summary>Rules</summary><pre id="rules"></pre></details>
"""


def script_hash() -> str:
    """The CSP source of the inline script (``'sha256-...'``)."""
    digest = hashlib.sha256(SCRIPT.encode("utf-8")).digest()
    return f"'sha256-{base64.b64encode(digest).decode('ascii')}'"


CSP = (f"default-src 'none'; script-src {script_hash()}; style-src 'unsafe-inline'; img-src data:; "
       "connect-src 'self'; base-uri 'none'; form-action 'none'")
"""The page's Content-Security-Policy (in the page, and as a header with :data:`HEADER_CSP`)."""

HEADER_CSP = CSP + "; frame-ancestors 'none'"
"""The header's policy: also no framing (a ``<meta>`` policy cannot say that)."""


LANDING_CSP = "default-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
"""The landing page's policy: nothing loads or runs (its ``<meta>`` refresh is no script)."""


def landing_html() -> str:
    """The page the login answers with: it sends the browser on to ``/`` from the page's own origin (a redirect
    would keep the hand-off file's cross-site start, and the SameSite=Strict cookie would stay behind)."""
    return ("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n"
            "<meta http-equiv=\"refresh\" content=\"0;url=/\">\n<title>stratbench: play</title></head>\n"
            "<body><p><a href=\"/\">Open the page</a></p></body></html>\n")


@lru_cache(maxsize=1)
def page_html() -> str:
    """The page."""
    return ("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n"
            f"<meta http-equiv=\"Content-Security-Policy\" content=\"{CSP}\">\n"
            "<meta name=\"referrer\" content=\"no-referrer\">\n"
            f"<title>stratbench: play</title>\n<style>{STYLE}</style></head>\n<body>{BODY}"
            f"<script>{SCRIPT}</script>\n</body></html>\n")
