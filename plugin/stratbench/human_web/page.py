"""The page a person plays on: one HTML document, its script inline, nothing loaded from anywhere.

The script polls ``/state`` twice a second and sends moves to ``/move``, until
the state says the run is over (the page then keeps the final position and
result). It names every player by agent and role, counts down the time left
for a move, marks a chosen chess piece's legal targets, and shows the model's
reply for the other side's last move. The page's HttpOnly cookie (set by the
server when the page was opened) carries the token, which the script never
sees, and the script drops the token from the address bar. Its Content-Security-Policy allows that script alone (by its
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
let current = null, shownKey = "", chessFrom = null, misses = 0, timer = null, over = false, shownOthers = "";
let shownEnd = false;  // the page shows a finished match (kept if the run's end is never fetched)

function el(tag, text, cls) {
  const node = document.createElement(tag);
  if (text !== undefined) node.textContent = text;
  if (cls) node.className = cls;
  return node;
}

function setStatus(text) { $("status").textContent = text; }
function showError(text) { $("error").textContent = text; $("error").hidden = !text; }
function showText(id, text) { $(id).textContent = text || ""; $(id).hidden = !text; }

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
    setStatus("Waiting for " + (shownOthers || "the other players") + " ...");
    showText("clock", "");
    $("actions").replaceChildren();
    $("board").classList.remove("clickable");
    markTargets(null, []);
  } else {
    showError("Refused: " + answer.error);
    setStatus("Your move (" + (current ? current.role : "") + ")");
  }
}

function clickCell(click, event) {
  const svg = $("board").querySelector("svg");
  const box = svg.getBoundingClientRect();
  const fx = (event.clientX - box.left) / box.width, fy = (event.clientY - box.top) / box.height;
  const column = Math.floor((fx - click.left) / click.width * click.columns);
  const row = Math.floor((fy - click.top) / click.height * click.rows);
  if (column < 0 || row < 0 || column >= click.columns || row >= click.rows) return null;
  return [row, column];
}

function targetsOf(click, from) {  // the squares a piece on `from` may move to (from the legal moves)
  return Object.keys(click.moves).filter((key) => key.slice(0, 2) === from).map((key) => key.slice(2, 4));
}

function markTargets(from, targets) {  // draws the chosen square and its targets on the board (no clicks caught)
  const svg = $("board").querySelector("svg");
  if (!svg) return;
  svg.querySelectorAll(".pick").forEach((node) => node.remove());
  const click = current && current.click;
  if (!from || !click || !click.squares) return;
  const box = svg.viewBox.baseVal, size = click.width / click.columns;
  const place = (square) => {
    for (let row = 0; row < click.rows; row++) {
      const column = click.squares[row].indexOf(square);
      if (column >= 0) return [box.x + box.width * (click.left + column * size),
                               box.y + box.height * (click.top + row * click.height / click.rows)];
    }
    return null;
  };
  const side = box.width * size;
  const at = place(from);
  if (at) {
    const rect = document.createElementNS(svg.namespaceURI, "rect");
    for (const [name, value] of [["x", at[0]], ["y", at[1]], ["width", side], ["height", side],
                                 ["fill", "rgba(20, 85, 30, 0.45)"], ["pointer-events", "none"]]) {
      rect.setAttribute(name, value);
    }
    rect.setAttribute("class", "pick selected");
    rect.dataset.square = from;
    svg.appendChild(rect);
  }
  for (const square of targets) {
    const spot = place(square);
    if (!spot) continue;
    const dot = document.createElementNS(svg.namespaceURI, "circle");
    for (const [name, value] of [["cx", spot[0] + side / 2], ["cy", spot[1] + side / 2], ["r", side / 6],
                                 ["fill", "rgba(20, 85, 30, 0.6)"], ["pointer-events", "none"]]) {
      dot.setAttribute(name, value);
    }
    dot.setAttribute("class", "pick target");
    dot.dataset.square = square;
    svg.appendChild(dot);
  }
}

function clickBoard(event) {
  const click = current && current.click;
  if (!click || !$("board").querySelector("svg")) return;
  const cell = clickCell(click, event);
  if (!cell) return;
  const [row, column] = cell;
  if (click.cells) { send(click.cells[row][column]); return; }
  const square = click.squares[row][column];
  const targets = chessFrom === null ? [] : targetsOf(click, chessFrom);
  if (chessFrom === square) {  // a second click on the chosen piece puts it down
    chessFrom = null;
    markTargets(null, []);
    $("sent").textContent = "";
    return;
  }
  if (chessFrom === null || (!targets.includes(square) && targetsOf(click, square).length)) {
    chessFrom = square;
    const shown = targetsOf(click, square);
    markTargets(square, shown);
    $("sent").textContent = "From " + square + ": click the target square" +
      (shown.length ? " (" + shown.join(", ") + ")" : " (no legal move from here)");
    return;
  }
  const key = chessFrom + square;
  chessFrom = null;
  markTargets(null, []);
  send(click.moves[key] || key);
}

function list(id, items, text) {
  const target = $(id);
  target.replaceChildren(...items.map((item) => el("li", text(item))));
  target.parentElement.hidden = items.length === 0;
}

function showPlay(shown) {  // the board, the moves and the others' last move (with the model's reply text)
  const board = $("board");
  if (shown.board) board.innerHTML = shown.board; else board.replaceChildren();
  list("moves", shown.moves || [], (m) => (m.by || "player " + m.player) + ": " + m.action);
  const last = shown.last_other;
  $("last-other").hidden = !last;
  if (last) {
    $("last-move").textContent = last.by + " played " + last.action;
    showText("reply", last.reply);
    $("reply-label").hidden = !last.reply;
  }
}

function clockText(seconds) {
  const whole = Math.max(0, Math.ceil(seconds));
  const minutes = Math.floor(whole / 60), rest = whole % 60;
  return minutes + ":" + (rest < 10 ? "0" : "") + rest;
}

function render(state) {
  const match = state.match || {};
  shownOthers = match.others || "";
  $("who").textContent = match.game ? (match.name + " playing " + match.game + ": " + (match.versus || match.label))
    : "";
  list("finished", state.finished || [], (m) => m.game + ": " + m.sentence);
  const decision = state.decision;
  showText("clock", decision && decision.seconds_left !== undefined
    ? "Time left for this move: " + clockText(decision.seconds_left) : "");
  const key = JSON.stringify([match.key, decision && decision.decision, (state.finished || []).length, state.closed]);
  if (key === shownKey) return;
  shownKey = key;
  current = decision;
  chessFrom = null;
  const ended = (state.finished || []).find((m) => m.key === match.key);
  showText("after", state.closed ? "The run is over: this page keeps the final position, and you may close it. "
    + "To play again, run the same command again." : "");
  if (!decision && ended) {
    if (ended.board !== undefined) showPlay(ended);
    $("board").classList.remove("clickable");
    $("actions").replaceChildren();
    showText("result", ended.sentence);
    showText("scores", ended.scores_line ? "Scores: " + ended.scores_line : "");
    setStatus("The match is over.");
    showError("");
    $("sent").textContent = "";
    $("observation").textContent = "(the match is over: " + ended.sentence + ")";
    $("move-form").hidden = true;
    shownEnd = true;
    return;
  }
  shownEnd = false;
  if (state.closed) { setStatus("The run is over: you may close this page."); return; }
  if (!decision) {
    setStatus(match.game ? "Waiting for " + (match.others || "the other players") + " ..."
      : "Waiting for the match to start ...");
    return;
  }
  showText("result", "");
  showText("scores", "");
  $("move-form").hidden = false;
  $("title").textContent = decision.title;
  $("rules").textContent = decision.rules;
  $("observation").textContent = decision.text;
  $("outcome").textContent = decision.outcome;
  $("outcome").hidden = !decision.outcome;
  if (decision.feedback) showError("The game refused your last move: " + decision.feedback); else showError("");
  showPlay(decision);
  $("board").classList.toggle("clickable", !!decision.click);
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
  if (over) return;
  try {
    const reply = await fetch("/state", {cache: "no-store"});
    if (reply.status === 403) {
      setStatus("This page's token is wrong: open the address the command printed.");
      return;
    }
    misses = 0;
    const state = await reply.json();
    render(state);
    over = !!state.closed;  // the run is over: the page keeps what it shows, and asks no more
  } catch (error) {
    misses += 1;
    if (misses > 3) {
      setStatus(shownEnd ? "The run is over: this page keeps the final position, and you may close it."
        : "The match is not reachable (the run ended?)");
    }
  }
  if (timer === null && !over) timer = setTimeout(poll, 500);
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
#result { font-weight: bold; font-size: 1.4em; color: #14551e; }
#clock { font-family: monospace; }
#error { color: #b00020; white-space: pre-wrap; }
#board.clickable svg { cursor: pointer; }
pre { background: #f6f6f0; padding: .6em; white-space: pre-wrap; max-height: 30em; overflow: auto; }
button.action { margin: .15em; font-family: monospace; }
.columns { display: flex; gap: 2em; flex-wrap: wrap; }
"""

BODY = """
<h1 id="title">stratbench</h1>
<p id="who"></p>
<p id="result" hidden></p>
<p id="scores" hidden></p>
<p id="after" hidden></p>
<div id="notes"><p id="status">Connecting ...</p>
<p id="clock" hidden></p>
<p id="error" hidden></p>
<p id="sent"></p></div>
<div class="columns">
<div><div id="board"></div>
<section id="last-other" hidden><h3>Last move of the other side</h3><p id="last-move"></p>
<p id="reply-label" hidden>The model's reply:</p><pre id="reply" hidden></pre></section>
<section hidden><h3>Moves</h3><ol id="moves"></ol></section></div>
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
