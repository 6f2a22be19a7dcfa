// The matches table of a large run: its rows ride in #match-rows (gzip + base64, report/embed.py), one
// list per fold; a fold's rows are drawn the first time it is opened, so the page opens at once.
// Every cell is inserted as text; a link's target is the report's own page name.
(function () {
  "use strict";
  var source = document.getElementById("match-rows");
  if (!source) { return; }
  var groups = null;

  function rows() {
    if (!groups) {
      var text = atob(source.textContent.trim());
      var bytes = new Uint8Array(text.length);
      for (var i = 0; i < text.length; i++) { bytes[i] = text.charCodeAt(i); }
      var stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("gzip"));
      groups = new Response(stream).text().then(JSON.parse);
    }
    return groups;
  }

  function cell(row, text, left) {
    var td = document.createElement("td");
    if (left) { td.className = "l"; }
    td.textContent = text;
    row.appendChild(td);
    return td;
  }

  function draw(fold, table, list) {
    var body = document.createDocumentFragment();
    list.forEach(function (m) {
      // [page or null, test id, agents, scores, result, turns, illegal, tokens, cost]
      var row = document.createElement("tr");
      var first = cell(row, m[0] ? "" : m[1], true);
      if (m[0]) { var link = document.createElement("a"); link.setAttribute("href", m[0]); link.textContent = m[1]; first.appendChild(link); }
      cell(row, m[2], true); cell(row, m[3]); cell(row, m[4], true);
      for (var k = 5; k < 9; k++) { cell(row, m[k]); }
      body.appendChild(row);
    });
    table.appendChild(body);
    fold.setAttribute("data-state", "ready");
  }

  Array.prototype.forEach.call(document.querySelectorAll("details.matches[data-group]"), function (fold) {
    fold.addEventListener("toggle", function () {
      if (!fold.open || fold.getAttribute("data-state")) { return; }
      fold.setAttribute("data-state", "loading");
      var table = fold.querySelector("table");
      rows().then(function (all) { draw(fold, table, all[Number(fold.getAttribute("data-group"))]); }, function (error) {
        var note = document.createElement("p");
        note.className = "muted";
        note.textContent = "cannot unpack the matches (" + error + "): this page needs a browser with DecompressionStream";
        fold.appendChild(note);
      });
    });
  });
})();
