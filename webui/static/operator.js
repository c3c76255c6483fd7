// Operator page: every action POSTs one JSON request with the CSRF token; the server appends one
// journal event and the new state arrives over SSE like on every other page.
"use strict";
(() => {
  const $ = (id) => document.getElementById(id);
  const csrf = document.querySelector('meta[name="csrf-token"]').content;
  const t = DominoLive.t;
  const EDGES = { bottom: t("bottom edge"), left: t("left edge"), top: t("top edge"), right: t("right edge") };

  function say(text, bad) {
    const m = $("message");
    m.textContent = text;
    m.hidden = false;
    m.className = "op-message" + (bad ? " bad" : "");
  }

  async function post(path, body) {
    const r = await fetch(path, {
      method: "POST",
      headers: { "Content-Type": "application/json", "X-CSRF-Token": csrf },
      body: JSON.stringify(body || {}),
      credentials: "same-origin",
    });
    const data = await r.json().catch(() => ({ error: r.statusText }));
    if (!r.ok || !data.ok) { say(data.error || t("Not saved (error %(status)s): try again.", {status: r.status}), true); return null; }
    say(t("Saved as journal entry #%(ids)s", {ids: data.id ?? (data.ids || []).join(", #")}));
    return data;
  }

  // Tiles to confirm (issue 24): the camera saw a tile laid that the rules doubt; nothing is in the
  // record until the operator answers: confirm it as read, correct its values, or not a tile.
  const REASONS = {
    "no-end": t("fits no open end of the layout"),
    "misfit": t("fits none of the tiles it touches"),
    "seen-twice": t("is already on the table"),
    "lone": t("touches no tile of the layout"),
    "holds-none": t("laid by a player whose hand is empty"),
    "one-visit": t("laid by the same hand as the tile before it: only doubles go together"),
    "one-turn": t("laid by the same hand as the tile before it: one tile a turn"),
  };
  const node = (tag, cls, text) => {
    const e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined) e.textContent = text;
    return e;
  };

  async function resolve(li, item, action, tile) {
    li.querySelectorAll("button").forEach((b) => { b.disabled = true; });
    const data = await post("/api/op/confirm", { id: item.id, action, tile });
    if (!data) { li.querySelectorAll("button").forEach((b) => { b.disabled = false; }); return; }
    li.remove();
    $("confirm-card").hidden = !$("to-confirm").children.length;
    say(action === "dismiss"
      ? t("Not a tile: %(tile)s is left out and its place ignored this deal.", {tile: item.tile})
      : t("%(tile)s is in the record (journal entry #%(ids)s).", {tile: data.tile, ids: (data.ids || []).join(", #")}));
  }

  function picker(li, item) {
    const box = node("div", "picker");
    const values = String(item.tile).split("-").map(Number);
    const save = node("button", "picker-save");
    save.type = "button";
    const label = () => { save.textContent = t("Write %(tile)s", {tile: values.join("-")}); };
    [0, 1].forEach((half) => {
      const row = node("div", "picker-row");
      row.dataset.half = String(half);
      for (let v = 0; v <= 6; v++) {
        const b = node("button", "small", String(v));
        b.type = "button";
        b.dataset.value = String(v);
        b.setAttribute("aria-pressed", String(values[half] === v));
        b.onclick = () => {
          values[half] = v;
          row.querySelectorAll("button").forEach((x) => x.setAttribute("aria-pressed", String(x === b)));
          label();
        };
        row.append(b);
      }
      box.append(row);
    });
    label();
    save.onclick = () => resolve(li, item, "correct", values.join("-"));
    box.append(save);
    return box;
  }

  function confirmItem(item) {
    const li = node("li", "confirm-item");
    li.dataset.id = String(item.id);
    li.dataset.tile = item.tile;
    const pic = node("img", "confirm-pic");
    pic.alt = item.tile;
    pic.src = `/api/op/confirm/${item.id}.jpg?t=${Date.now()}`;
    pic.onerror = () => { pic.hidden = true; };  // no picture yet: the values and where say it
    const what = node("div", "confirm-what");
    const head = node("div");
    head.append(DominoLive.domino(item.tile, item.face), " ", node("span", "", REASONS[item.reason] || item.reason),
      " ", node("b", "rule", item.rule));
    what.append(head);
    const where = [];
    if (item.player) where.push(t("laid from %(player)s's side", {player: item.player}));
    if (item.to) where.push(t("against %(tile)s", {tile: item.to}));
    if (where.length) what.append(node("span", "hint", where.join(", ")));
    const actions = node("div", "confirm-actions");
    const button = (action, text, cls) => {
      const b = node("button", cls, text);
      b.type = "button";
      b.dataset.action = action;
      actions.append(b);
      return b;
    };
    button("confirm", t("Confirm")).onclick = () => resolve(li, item, "confirm");
    button("correct", t("Correct"), "secondary").onclick = () => {
      const open = li.querySelector(".picker");
      if (open) open.remove(); else li.append(picker(li, item));
    };
    button("dismiss", t("Not a tile"), "warn").onclick = () => resolve(li, item, "dismiss");
    li.append(pic, what, actions);
    return li;
  }

  function renderConfirm(items) {
    const ul = $("to-confirm");
    const ids = new Set(items.map((i) => String(i.id)));
    [...ul.children].forEach((li) => { if (!ids.has(li.dataset.id)) li.remove(); });  // resolved or gone
    const shown = new Set([...ul.children].map((li) => li.dataset.id));
    items.forEach((i) => { if (!shown.has(String(i.id))) ul.append(confirmItem(i)); });  // an open picker stays
    $("confirm-card").hidden = !items.length;
  }

  function fields(form) {
    const out = {};
    new FormData(form).forEach((v, k) => { if (v !== "" && k !== "photo") out[k] = v; });
    return out;
  }

  function fillPlayers(players) {
    document.querySelectorAll(".player-select").forEach((sel) => {
      const keep = sel.value;
      const optional = sel.closest("#correct-form") !== null;
      const free = sel.closest("#calib-form") !== null;
      sel.replaceChildren();
      if (optional) sel.append(new Option(t("(unchanged)"), ""));
      if (free) sel.append(new Option(t("(nobody sits here)"), ""));
      players.forEach((p) => sel.append(new Option(p, p)));
      if (keep) sel.value = keep;
    });
    const box = $("recount-hands");
    if (box.dataset.players !== players.join(",")) {
      box.dataset.players = players.join(",");
      box.replaceChildren(...players.map((p) => {
        const l = document.createElement("label");
        l.textContent = p;
        const i = document.createElement("input");
        i.name = "hand:" + p; i.placeholder = t("tiles, e.g. 6-6 2-4 (empty if out)");
        if (photoHands[p]) i.value = photoHands[p].join(" ");
        l.append(i);
        return l;
      }));
    }
  }
  // The hands read from the last recount photo: kept for the inputs built after it arrives
  // (a photo read before the page knew the players would otherwise be lost).
  let photoHands = {};

  DominoLive.start({
    mode: "operator",
    decorateMove(li, move) {
      if (move.event.event === "game") return;
      const fix = document.createElement("button");
      fix.type = "button"; fix.className = "small"; fix.textContent = t("Fix");
      fix.onclick = () => {
        $("correct-target").value = move.id;
        const f = $("correct-form");
        ["tile", "to"].forEach((k) => { f.elements[k].value = move.event[k] || ""; });
        f.elements.player.value = move.event.player || "";
        f.elements.tile.focus();
      };
      const undo = document.createElement("button");
      undo.type = "button"; undo.className = "small warn"; undo.textContent = t("Undo");
      undo.onclick = () => post("/api/op/undo", { target: move.id });
      const tag = document.createElement("span");
      tag.className = "move-id"; tag.textContent = "#" + move.id;
      li.prepend(tag);
      li.append(fix, undo);
    },
    onRender(s) { fillPlayers(s.players || []); },
    onLive(s) { renderConfirm(s.to_confirm || []); },
  });

  $("undo-last").onclick = () => post("/api/op/undo", {});
  $("next-deal").onclick = () => post("/api/op/deal", {});
  $("correct-form").onsubmit = (e) => {
    e.preventDefault();
    const body = fields(e.target);
    body.target = Number(body.target);
    post("/api/op/correct", body);
  };
  $("play-form").onsubmit = (e) => {
    e.preventDefault();
    const body = fields(e.target);
    const kind = e.submitter ? e.submitter.value : "play";
    if (kind === "pass") post("/api/op/pass", { player: body.player });
    else post("/api/op/play", body);
  };
  $("game-form").onsubmit = (e) => {
    e.preventDefault();
    if (confirm(t("Start a new game? The current one stays in the journal."))) post("/api/op/game", fields(e.target));
  };
  $("recount-photo").onchange = async (e) => {
    const file = e.target.files[0];
    if (!file) return;
    const data = new FormData();
    data.append("photo", file);
    const r = await fetch("/api/op/recount-photo", { method: "POST", headers: { "X-CSRF-Token": csrf }, body: data });
    const out = await r.json().catch(() => ({ error: r.statusText }));
    if (!r.ok) { say(out.error || t("Could not read the photo: type the tiles instead."), true); return; }
    photoHands = out.hands || {};
    Object.entries(photoHands).forEach(([p, tiles]) => {
      const input = document.querySelector(`[name="hand:${CSS.escape(p)}"]`);
      if (input) input.value = tiles.join(" ");
    });
    // what the reader could not settle (unread or face-down tiles, a tile in two hands) is the
    // operator's to check before confirming
    const notes = [...(out.warnings || [])];
    if (out.boneyard) notes.push(t("face-down tiles in a heap, taken for the boneyard: %(num)s", {num: out.boneyard}));
    say(t("Read from the photo: check the tiles, then confirm.") + (notes.length ? " " + notes.join("; ") : ""),
        (out.warnings || []).length > 0);
  };
  // Calibration: clicks on the picture, in the frame's own pixels (the image is letterboxed).
  const corners = [];
  let frameSize = null;
  function showCorners() {
    $("calib-points").textContent = corners.length
      ? t("corners: %(points)s", {points: corners.map(([x, y]) => `(${x}, ${y})`).join(" ")})
        + (corners.length < 4 ? " " + t("(still to click: %(num)s)", {num: 4 - corners.length}) : "")
      : t("corners: none clicked");
  }
  $("video").addEventListener("click", (e) => {
    const img = e.currentTarget;
    if (!img.naturalWidth) return;
    const r = img.getBoundingClientRect();
    const scale = Math.min(r.width / img.naturalWidth, r.height / img.naturalHeight);
    const ox = (r.width - img.naturalWidth * scale) / 2, oy = (r.height - img.naturalHeight * scale) / 2;
    const x = Math.round((e.clientX - r.left - ox) / scale), y = Math.round((e.clientY - r.top - oy) / scale);
    if (x < 0 || y < 0 || x > img.naturalWidth || y > img.naturalHeight) return;
    if (corners.length === 4) corners.length = 0;
    corners.push([x, y]);
    frameSize = [img.naturalWidth, img.naturalHeight];
    showCorners();
  });
  $("calib-clear").onclick = () => { corners.length = 0; showCorners(); };
  $("calib-form").onsubmit = async (e) => {
    e.preventDefault();
    if (corners.length !== 4) { say(t("Click the table's four corners on the picture first."), true); return; }
    const seats = {};
    ["bottom", "left", "top", "right"].forEach((edge) => { const v = e.target.elements[edge].value; if (v) seats[edge] = v; });
    const out = await post("/api/op/calibration", { corners, seats, size: frameSize });
    if (out) say(t("Calibration applied: %(seats)s", {seats: Object.entries(out.calibration.seats || {}).map(([e, p]) => `${p} (${EDGES[e] || e})`).join(", ")}));
  };
  fetch("/api/calibration").then((r) => r.json()).then((c) => {
    if (!c.calibration) return;
    Object.entries(c.calibration.seats || {}).forEach(([edge, player]) => {
      const sel = $("calib-form").elements[edge];
      if (sel) { if (![...sel.options].some((o) => o.value === player)) sel.append(new Option(player, player)); sel.value = player; }
    });
  });

  $("recount-form").onsubmit = (e) => {
    e.preventDefault();
    const hands = {};
    e.target.querySelectorAll("[name^='hand:']").forEach((i) => {
      hands[i.name.slice(5)] = i.value.replace(/,/g, " ").split(/\s+/).filter(Boolean);
    });
    photoHands = {};
    post("/api/op/recount", { hands });
  };
})();
