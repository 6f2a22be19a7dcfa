// The match replay: steps through the decisions in #replay-data, drawing each step's board and texts.
// #replay-data and #events-data are gzip + base64 (report/embed.py); the browser's DecompressionStream
// unpacks them, nothing is fetched. Boards are lists of shared pieces, joined when a step shows one.
// Texts are inserted as text (never as markup); boards are the report's own SVG renderings and the
// list of events is the report's own escaped HTML.
(function () {
  "use strict";
  var source = document.getElementById("replay-data");
  if (!source) { return; }
  var board = document.getElementById("replay-board");
  var items = document.getElementById("replay-items");
  var position = document.getElementById("replay-position");
  var title = document.getElementById("replay-title");
  var FOLD_LINES = 12, SHOWN_LINES = 6;
  var steps = [], boards = [], pieces = [], joined = {};
  var index = 0;

  function inflate(node) {
    var text = atob(node.textContent.trim());
    var bytes = new Uint8Array(text.length);
    for (var i = 0; i < text.length; i++) { bytes[i] = text.charCodeAt(i); }
    var stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("gzip"));
    return new Response(stream).text();
  }

  function failed(where, error) {
    var note = document.createElement("p");
    note.className = "bad";
    note.textContent = "cannot unpack the " + where + " (" + error + "): this page needs a browser with DecompressionStream";
    where === "replay" ? items.appendChild(note) : document.getElementById("events-list").appendChild(note);
  }

  function pre(text) {
    var node = document.createElement("pre");
    node.textContent = text;
    return node;
  }

  function folded(text) {
    var lines = text.split("\n");
    if (lines.length <= FOLD_LINES && text.length <= 1500) { return pre(text); }
    var details = document.createElement("details");
    var summary = document.createElement("summary");
    var head = lines.slice(0, SHOWN_LINES).join("\n");
    if (head.length > 600) { head = head.slice(0, 600); }
    summary.appendChild(pre(head));
    var more = document.createElement("span");
    more.className = "muted";
    more.textContent = "… " + lines.length + " lines, " + text.length + " characters: click to expand";
    summary.appendChild(more);
    details.appendChild(summary);
    details.appendChild(pre(text));
    return details;
  }

  function whole(number, kind) {
    var key = kind + number;
    if (!(key in joined)) {
      joined[key] = boards[number][kind].map(function (piece) { return pieces[piece]; }).join("");
    }
    return joined[key];
  }

  function drawBoard(step) {
    board.textContent = "";
    if (step.board !== null && step.board !== undefined) {
      var drawn = boards[step.board];
      if (drawn.svg) { board.innerHTML = whole(step.board, "svg"); } else { board.appendChild(pre(whole(step.board, "text"))); }
      if (drawn.note) { var note = document.createElement("p"); note.className = "muted"; note.textContent = drawn.note; board.appendChild(note); }
    } else if (step.text_board) {
      var observation = step.items.filter(function (item) { return item.label === "observation"; })[0];
      board.appendChild(pre(observation ? observation.text : ""));
    } else {
      var none = document.createElement("p"); none.className = "muted"; none.textContent = "no board for this step";
      board.appendChild(none);
    }
    board.setAttribute("data-step", String(index));
  }

  function show(next) {
    if (!steps.length) { return; }
    index = Math.max(0, Math.min(steps.length - 1, next));
    var step = steps[index];
    title.textContent = step.title;
    position.textContent = (index + 1) + " / " + steps.length;
    drawBoard(step);
    items.textContent = "";
    step.items.forEach(function (item) {
      if (step.text_board && item.label === "observation") { return; }
      var block = document.createElement("div");
      block.className = "item" + (item.tone ? " " + item.tone : "");
      if (item.fold) {
        // Closed by default, its label as the summary (a model's visible reasoning).
        var details = document.createElement("details");
        details.className = "fold";
        var summary = document.createElement("summary");
        summary.className = "k";
        summary.textContent = item.label;
        details.appendChild(summary);
        details.appendChild(pre(item.text));
        block.appendChild(details);
        items.appendChild(block);
        return;
      }
      var label = document.createElement("div");
      label.className = "k";
      label.textContent = item.label;
      block.appendChild(label);
      block.appendChild(folded(item.text));
      items.appendChild(block);
    });
  }

  document.getElementById("replay-prev").addEventListener("click", function () { show(index - 1); });
  document.getElementById("replay-next").addEventListener("click", function () { show(index + 1); });
  document.addEventListener("keydown", function (event) {
    if (event.key === "ArrowRight") { show(index + 1); event.preventDefault(); }
    else if (event.key === "ArrowLeft") { show(index - 1); event.preventDefault(); }
    else if (event.key === "Home") { show(0); event.preventDefault(); }
    else if (event.key === "End") { show(steps.length - 1); event.preventDefault(); }
  });

  // The list of every event is unpacked the first time it is opened.
  var listed = document.getElementById("all-events");
  var listData = document.getElementById("events-data");
  if (listed && listData) {
    listed.addEventListener("toggle", function () {
      if (!listed.open || listed.getAttribute("data-state")) { return; }
      listed.setAttribute("data-state", "loading");
      inflate(listData).then(function (markup) {
        document.getElementById("events-list").innerHTML = markup;
        listed.setAttribute("data-state", "ready");
      }, function (error) { failed("list of events", error); });
    });
  }

  inflate(source).then(function (text) {
    var data = JSON.parse(text);
    steps = data.steps; boards = data.boards; pieces = data.pieces;
    show(0);
    document.body.setAttribute("data-replay", "ready");
  }, function (error) { failed("replay", error); });
})();
