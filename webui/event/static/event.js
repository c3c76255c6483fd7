// The multi-board: one card per table, redrawn from /api/event/stream (Server-Sent Events).
(function () {
  "use strict";
  const root = document.getElementById("tables");
  const callsEl = document.getElementById("calls");

  function el(tag, attrs, text) {
    const e = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, v);
    if (text !== undefined && text !== null) e.textContent = text;
    return e;
  }

  function tile(t, face) {
    const [a, b] = String(t).split("-");
    const s = el("span", {class: "tile" + (face === "down" ? " down" : ""), title: t});
    s.append(el("b", {}, face === "down" ? "" : a), el("b", {}, face === "down" ? "" : b));
    return s;
  }

  function chain(c) {
    const box = el("div", {class: "chain"});
    if (!c || !c.root) { box.append(el("span", {class: "none"}, "no tiles yet")); return box; }
    const head = el("div", {class: "arm root"});
    head.append(tile(c.root, c.root_face));
    box.append(head);
    c.arms.forEach((arm, i) => {
      const row = el("div", {class: "arm"});
      row.append(el("span", {class: "arm-no"}, String(i + 1)));
      for (const t of arm) row.append(tile(t.tile, t.face));
      box.append(row);
    });
    return box;
  }

  function card(b) {
    const a = el("article", {class: "table", "data-table": b.table, "data-online": b.online ? "true" : "false",
                             "data-last-id": b.last_id});
    const head = el("header");
    head.append(el("h2", {}, "Table " + b.table + (b.tournament_table ? " · " + b.tournament_table : "")));
    head.append(el("span", {class: "status"}, b.online ? "online" : "offline"));
    a.append(head);
    if (b.has_thumbnail) {
      const img = el("img", {class: "thumb", alt: "table " + b.table});
      img.src = "/event/table/" + b.table + "/thumb.jpg?t=" + encodeURIComponent(b.thumbnail_ts);
      a.append(img);
    }
    const ul = el("ul", {class: "players"});
    for (const p of b.players) {
      const li = el("li", {"data-player": p, class: p === b.to_move ? "to-move" : ""});
      li.append(el("span", {class: "name"}, p), el("span", {class: "total"}, String(b.totals[p] ?? 0)));
      ul.append(li);
    }
    a.append(ul);
    a.append(el("p", {class: "turn"}, b.finished ? "game over" : (b.to_move ? "to play: " + b.to_move : "")));
    if (b.banner) a.append(el("p", {class: "banner " + b.banner.kind}, b.banner.title));
    a.append(chain(b.chain));
    if (b.flags && b.flags.length) {
      const f = el("ul", {class: "flags"});
      for (const x of b.flags) f.append(el("li", {}, (x.rule ? x.rule + ": " : "") + (x.message || "")));
      a.append(f);
    }
    if (b.url) {
      a.classList.add("link");
      a.addEventListener("click", () => window.open(b.url, "_blank", "noopener"));
    }
    return a;
  }

  function render(snap) {
    root.dataset.state = "live";
    root.replaceChildren(...(snap.boards.length ? snap.boards.map(card) : [el("p", {class: "empty"}, "Waiting for the tables…")]));
    callsEl.replaceChildren(...snap.calls.map(c => el("li", {"data-table": c.table, "data-status": c.status},
      c.table + " at " + (c.at ? "table " + c.at : "a free table") + ": " + c.players.join(", ") + " (" + c.status + ")")));
    document.body.dataset.version = snap.version;
  }

  const source = new EventSource("/api/event/stream");
  source.addEventListener("boards", ev => render(JSON.parse(ev.data)));
  source.onerror = () => { root.dataset.state = "reconnecting"; };
})();
