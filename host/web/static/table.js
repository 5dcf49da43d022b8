// tableref live page: server-sent events in, the table drawn as HTML/SVG. No build step.
// The server sends {key: value} objects: "table" (one table's page), or "table:NAME",
// "standings" and "venue" (a scoreboard). Every name is shown as text, never as HTML.
(function () {
  "use strict";
  var params = new URLSearchParams(location.search);
  if (params.get("overlay") === "1") document.documentElement.classList.add("overlay");
  var SVG = "http://www.w3.org/2000/svg";
  // what each table showed after each change, read back from the page (for automation)
  window.tablerefShown = [];

  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined && text !== null) e.textContent = String(text);
    return e;
  }

  function svg(tag, attrs, text) {
    var e = document.createElementNS(SVG, tag);
    Object.keys(attrs).forEach(function (k) { e.setAttribute(k, attrs[k]); });
    if (text !== undefined) e.textContent = String(text);
    return e;
  }

  // Seat 0 at the bottom; seats go round as in the terminal view (tableref.terminal_view).
  function ring(t) {
    var st = t.state, n = t.names.length, out = st.eliminated || [];
    var box = svg("svg", {viewBox: "-120 -100 240 200", "class": "ring", role: "img",
                          "aria-label": "seats around the table"});
    box.appendChild(svg("ellipse", {cx: 0, cy: 0, rx: 78, ry: 60, "class": "felt"}));
    box.appendChild(svg("text", {x: 0, y: -36, "class": "dir"}, st.direction === "ccw" ? "\u21ba" : "\u21bb"));
    for (var i = 0; i < n; i++) {
      var a = Math.PI / 2 + 2 * Math.PI * i / n, x = 92 * Math.cos(a), y = 74 * Math.sin(a);
      var cls = "seat" + (i === st.current_seat ? " turn" : "") + (out.indexOf(i) >= 0 ? " out" : "") +
        (i === st.winner ? " winner" : "");
      var g = svg("g", {"class": cls, "data-seat": i});
      g.appendChild(svg("circle", {cx: x, cy: y, r: 17}));
      g.appendChild(svg("text", {x: x, y: y + 5, "class": "name"}, t.names[i].slice(0, 10)));
      box.appendChild(g);
    }
    return box;
  }

  function facts(t) {
    var st = t.state, names = t.names, list = el("ul", "facts");
    function add(cls, text) { if (text) list.appendChild(el("li", cls, text)); }
    var turn = st.current_seat === null || st.current_seat === undefined ? "-" : names[st.current_seat];
    add("turn", "turn: " + turn);
    add("direction", st.direction === "ccw" ? "counter-clockwise" : "clockwise");
    if (st.color) add("colour colour-" + st.color, "colour: " + st.color);
    add("pending", t.pending);
    (t.awaiting || []).forEach(function (w) { add("awaiting", "waiting for: " + w); });
    if (st.eliminated && st.eliminated.length)
      add("out", "out: " + st.eliminated.map(function (s) { return names[s]; }).join(", "));
    if (st.scores && st.scores.some(function (s) { return s; }))
      add("scores", "scores: " + st.scores.map(function (s, i) { return names[i] + " " + s; }).join("  "));
    if (st.hand_counts && st.hand_counts.length)
      add("cards", "cards: " + st.hand_counts.map(function (c, i) { return names[i] + " " + c; }).join("  "));
    if (st.game_over && st.winner !== null) add("result", "WINNER: " + names[st.winner]);
    else if (st.hand_over && st.hand_winner !== null) add("result", "hand won by " + names[st.hand_winner]);
    return list;
  }

  function tableCard(t) {
    var card = el("article", "table" + (t.online === false ? " offline" : ""));
    card.dataset.index = t.index;
    card.dataset.game = t.game_id || "";
    var head = el("header", "head");
    head.appendChild(el("span", "title", (t.name ? t.name + " - " : "") + t.title +
                                     " - hand " + (t.state.hand || 1)));
    if (t.online === false) head.appendChild(el("span", "badge", "offline"));
    card.appendChild(head);
    var big = el("div", "big" + (t.state.color ? " colour-" + t.state.color : ""), t.big);
    big.id = t.name ? "" : "big";
    var stage = el("div", "stage");
    stage.appendChild(ring(t));
    stage.appendChild(big);
    card.appendChild(stage);
    var banner = el("div", "illegal", t.illegal || "");
    banner.hidden = !t.illegal;
    card.appendChild(banner);
    if (t.asking) card.appendChild(el("div", "asking", "which card? the camera cannot read the card on the pile" +
                                      (t.offer && t.offer.length ? " - it looks like " + t.offer.join(" or ") : "")));
    card.appendChild(facts(t));
    var last = el("ol", "recent");
    (t.recent || []).slice().reverse().forEach(function (line) { last.appendChild(el("li", "", line)); });
    card.appendChild(last);
    return card;
  }

  function readBack(card) {
    var turn = card.querySelector(".seat.turn .name");
    var banner = card.querySelector(".illegal");
    return {index: Number(card.dataset.index), game: card.dataset.game,
            big: card.querySelector(".big").textContent,
            turn: turn ? turn.textContent : null,
            illegal: banner && !banner.hidden ? banner.textContent : null};
  }

  function showTables(root, tables) {
    var cards = tables.map(tableCard);
    root.replaceChildren.apply(root, cards);
    cards.forEach(function (c) { window.tablerefShown.push(readBack(c)); });
    if (window.tablerefShown.length > 5000) window.tablerefShown.splice(0, 1000);
  }

  function showStandings(root, rows) {
    root.replaceChildren();
    if (!rows.length) return;
    var table = el("table", "standings"), head = el("tr");
    ["player", "wins", "eliminated", "score", "games"].forEach(function (h) { head.appendChild(el("th", "", h)); });
    table.appendChild(head);
    rows.forEach(function (r) {
      var tr = el("tr");
      [r.name, r.wins, r.eliminations, r.score, r.games].forEach(function (v) { tr.appendChild(el("td", "", v)); });
      table.appendChild(tr);
    });
    root.appendChild(table);
  }

  function connect(onChange) {
    var data = {}, status = document.getElementById("status");
    var source = new EventSource("events");  // reconnects by itself; the server resends everything
    source.onopen = function () { status.textContent = "live"; status.className = "status live"; };
    source.onerror = function () { status.textContent = "reconnecting..."; status.className = "status lost"; };
    source.onmessage = function (ev) {
      var change = JSON.parse(ev.data);
      Object.keys(change).forEach(function (k) { data[k] = change[k]; });
      onChange(data);
    };
  }

  window.tableref = {connect: connect, showTables: showTables, showStandings: showStandings};
})();
