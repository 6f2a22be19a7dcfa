// The match replay: steps through the decisions in #replay-data, drawing each step's board and texts.
// Texts are inserted as text (never as markup); boards are the report's own SVG renderings.
(function () {
  "use strict";
  var source = document.getElementById("replay-data");
  if (!source) { return; }
  var data = JSON.parse(source.textContent);
  var steps = data.steps, boards = data.boards;
  var board = document.getElementById("replay-board");
  var items = document.getElementById("replay-items");
  var position = document.getElementById("replay-position");
  var title = document.getElementById("replay-title");
  var FOLD_LINES = 12, SHOWN_LINES = 6;
  var index = 0;

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

  function drawBoard(step) {
    board.textContent = "";
    if (step.board !== null && step.board !== undefined) {
      var drawn = boards[step.board];
      if (drawn.svg) { board.innerHTML = drawn.svg; } else { board.appendChild(pre(drawn.text)); }
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
  show(0);
})();
