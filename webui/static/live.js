// Live pages: one state from /api/state, kept current by Server-Sent Events (/api/events).
// The browser re-sends Last-Event-ID on reconnect, so the server replays what the page missed.
"use strict";
const DominoLive = (() => {
  const $ = (id) => document.getElementById(id);
  const el = (tag, cls, text) => {
    const e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined) e.textContent = text;
    return e;
  };
  let opts = {};
  let live = null;       // the newest state from the server
  let shown = null;      // what is on screen (live, or a past position)
  let viewingAt = null;  // record index when stepping back, null when live
  let source = null;
  let disconnected = false;
  let missed = 0;
  const received = [];   // journal ids received over SSE (the tests read them)
  let lastShownId = 0;

  // The page's words (webui/js_strings.py, translated by the server into the page's language).
  const WORDS = (() => {
    const node = document.getElementById("i18n");
    try { return node ? JSON.parse(node.textContent) : {}; } catch (e) { return {}; }
  })();
  const t = (msg, params) => String(msg in WORDS ? WORDS[msg] : msg)
    .replace(/%\((\w+)\)s/g, (_, k) => (params && params[k] !== undefined && params[k] !== null ? params[k] : ""));
  const LANG = encodeURIComponent(document.documentElement.lang || "ru");
  const variantName = (s) => s.variant_name || (s.game && s.game.variant) || "";

  function domino(tile, face) {
    const d = el("span", "dom" + (face === "down" ? " dom-down" : ""));
    const [a, b] = String(tile || "?-?").split("-");
    d.append(el("b", "", a), el("b", "", b));
    d.title = tile || "";
    return d;
  }

  function describe(move, flagged) {
    const e = move.event;
    const li = el("li", "move move-" + e.event);
    li.dataset.id = move.id;
    li.dataset.n = move.n;
    if (e.event === "deal") { li.append(el("span", "deal-divider", t("New deal"))); return li; }
    if (e.event === "game") { li.append(el("span", "deal-divider", t("Game: %(variant)s", {variant: (live && live.variant_name) || e.variant}))); return li; }
    li.append(el("span", "who", e.player || ""));
    if (e.event === "play") {
      li.append(domino(e.tile, e.face));
      if (e.to) { li.append(el("span", "to", t("on"))); li.append(domino(e.to)); }
    } else if (e.event === "pass") {
      li.append(el("span", "what", t("passes")));
    } else if (e.event === "draw") {
      li.append(el("span", "what", t("draws")));
    } else if (e.event === "reveal") {
      li.append(el("span", "what", (e.tiles || []).length ? t("shows") : t("shows an empty hand")));
      (e.tiles || []).forEach((t) => li.append(domino(t)));
    }
    if (move.corrected_by) li.append(el("span", "badge badge-fix", t("corrected")));
    if (move.source === "operator") li.append(el("span", "badge", t("referee")));
    (flagged[move.id] || []).forEach((f) => li.append(el("span", "badge badge-flag", f.rule)));
    if (flagged[move.id]) li.classList.add("flagged");
    if (opts.decorateMove) opts.decorateMove(li, move);
    return li;
  }

  function currentDeal(s) {
    const deals = s.deals || [];
    return deals.length ? deals[deals.length - 1] : null;
  }

  // Tiles still in each hand this deal: the variant's hand size, minus plays, plus draws.
  function handCounts(s) {
    const n = (s.players || []).length;
    const size = s.options && s.options.hand_size ? s.options.hand_size[String(n)] : null;
    if (!size) return {};
    const upto = s.at === null || s.at === undefined ? Infinity : s.at;
    const moves = (s.moves || []).filter((m) => m.n <= upto);
    let start = -1;
    moves.forEach((m, i) => { if (m.event.event === "deal") start = i; });
    if (start < 0) return {};
    const left = {};
    (s.players || []).forEach((p) => { left[p] = size; });
    moves.slice(start + 1).forEach((m) => {
      const e = m.event;
      if (e.event === "play" && e.player in left) left[e.player] -= 1;
      if (e.event === "draw" && e.player in left) left[e.player] += 1;
      if (e.event === "reveal" && e.player in left) left[e.player] = (e.tiles || []).length;
    });
    return left;
  }

  function renderScores(s) {
    const ol = $("scores");
    if (!ol) return;
    ol.replaceChildren();
    const deal = currentDeal(s);
    const totals = s.totals || {};
    const hands = handCounts(s);
    const names = Object.keys(totals).length ? Object.keys(totals) : (s.players || []);
    const order = (s.standings && s.standings.length) ? s.standings.filter((n) => names.includes(n)) : names;
    names.forEach((n) => { if (!order.includes(n)) order.push(n); });
    order.forEach((name) => {
      const li = el("li", "score");
      li.dataset.player = name;
      if (s.to_move && (name === s.to_move || name.split("+").includes(s.to_move))) li.classList.add("to-move");
      if (s.loser === name) li.classList.add("loser");
      const nameBox = el("span", "name", name);
      const held = hands[name];
      if (held !== undefined && held >= 0) {
        const h = el("span", "hand");
        h.title = t("tiles in hand: %(num)s", {num: held});
        for (let i = 0; i < Math.min(held, 12); i++) h.append(el("i"));
        nameBox.append(h);
      }
      li.append(nameBox);
      const pts = deal && deal.points ? deal.points[name] : undefined;
      const waiting = (s.waiting || []).includes(name);  // unknown is not zero (issue 24)
      if (waiting) li.classList.add("waiting");
      li.append(el("span", "deal-pts", waiting ? t("waiting for the recount") : (pts === undefined || pts === null ? "" : `+${pts}`)));
      li.append(el("span", "total", waiting || totals[name] === null ? "?" : String(totals[name] ?? 0)));
      ol.append(li);
    });
  }

  function renderFlags(s, flagged) {
    const ul = $("flags");
    if (!ul) return;
    ul.replaceChildren();
    (s.flags || []).slice(-30).reverse().forEach((f) => {  // the panel is bounded and scrolls
      const li = el("li", "flag");
      li.append(el("b", "rule", f.rule), el("span", "", f.text || f.message || ""));
      ul.append(li);
    });
    const card = $("flags-card");
    if (card) card.hidden = !(s.flags || []).length;
  }

  // The camera's flags (take-back, misread...): the operator sees all of them, spectators the
  // ones that matter at the table, in plain words. They describe the table now, so they come
  // from the live state even while stepping back through the moves.
  function renderLiveFlags() {
    const ul = $("live-flags");
    if (!ul) return;
    const operator = opts.mode === "operator";
    const all = (live && live.live_flags) || [];
    const flags = (operator ? all : all.filter((f) => f.public)).slice(operator ? -30 : -10).reverse();
    ul.replaceChildren();
    flags.forEach((f) => {
      const li = el("li", "flag live-flag");
      li.dataset.kind = f.kind;
      li.dataset.n = String(f.n);
      li.append(el("b", "rule", f.rule), el("span", "", operator ? (f.op_text || f.message) : f.text));
      if (operator && f.message) li.title = f.message;
      ul.append(li);
    });
    const card = $("live-flags-card");
    if (card) card.hidden = !flags.length;
  }

  function renderMoves(s, flagged) {
    const ol = $("moves");
    if (!ol) return;
    let moves = (s.moves || []).filter((m) => m.event.event !== "game");
    if (opts.maxMoves) moves = moves.slice(-opts.maxMoves);
    const newest = moves.length ? moves[moves.length - 1].id : 0;
    const fresh = s.live !== false && newest > lastShownId && lastShownId > 0;
    lastShownId = Math.max(lastShownId, newest);
    ol.replaceChildren(...moves.slice().reverse().map((m, i) => {
      const li = describe(m, flagged);
      if (fresh && i === 0) li.classList.add("fresh");  // a new move flashes once
      if (s.at !== null && s.at !== undefined && m.n > s.at) li.classList.add("future");
      if (s.at !== null && s.at !== undefined && m.n === s.at) li.classList.add("current");
      return li;
    }));
  }

  function headline(s) {
    if (!s.game) return t("Waiting for a game");
    if (s.error) return t("Record problem: %(error)s", {error: s.error_text || s.error});
    const deal = currentDeal(s);
    const onTable = (s.layout || []).length;
    const parts = [variantName(s)];
    if (deal) parts.push(t("deal %(num)s", {num: deal.number}));
    if (deal && deal.end && deal.end !== "unfinished") {
      parts.push(deal.winner ? t("won by %(winner)s", {winner: deal.winner})
        : t("ended: %(end)s", {end: (s.end_words || {})[deal.end] || deal.end}));
      if ((s.waiting || []).length) parts.push(t("waiting for the recount"));
    } else {
      parts.push(t("tiles down: %(num)s", {num: onTable}));
      if (s.to_move) parts.push(t("%(player)s to play", {player: s.to_move}));
    }
    if (s.finished) parts.push(t("game over"));
    return parts.join(" · ");
  }

  function renderCamera(cam) {
    const pill = $("camera");
    if (!pill || !cam) return;
    pill.dataset.state = cam.state;
    pill.className = `pill pill-${cam.state}` + (pill.classList.contains("ov-camera") ? " ov-camera" : "");
    pill.textContent = cam.text || cam.state;
    pill.title = cam.message || "";
    const off = $("video-off");
    if (off) {
      const bad = ["reconnecting", "missing", "lost", "stalled", "none"].includes(cam.state);
      off.hidden = !bad;
      off.dataset.state = cam.state;
      $("video-off-title").textContent = cam.text || cam.state;
      $("video-off-text").textContent = cam.hint || "";
    }
  }

  function render(s) {
    shown = s;
    const flagged = {};
    (s.flags || []).forEach((f) => { if (f.id) (flagged[f.id] = flagged[f.id] || []).push(f); });
    renderScores(s);
    renderFlags(s, flagged);
    renderLiveFlags();
    renderMoves(s, flagged);
    const h = $("headline");
    if (h) h.textContent = headline(s);
    const ds = $("deal-state");
    if (ds) ds.textContent = headline(s);
    const banner = $("banner");
    if (banner) {
      banner.hidden = !s.banner;
      if (s.banner) {
        banner.dataset.kind = s.banner.kind;
        $("banner-title").textContent = s.banner.title;
        $("banner-text").textContent = s.banner.text || "";
      }
    }
    renderCamera(live ? live.camera : s.camera);
    syncVideo();
    const bar = $("history-bar");
    document.body.classList.toggle("history", viewingAt !== null);
    if (bar) {
      bar.hidden = viewingAt === null;
      const total = (live && live.moves ? live.moves.length : 0) - 1;
      if ($("history-pos")) $("history-pos").textContent = t("move %(at)s of %(total)s", {at: viewingAt, total: total});
    }
    document.body.dataset.lastEventId = String(live ? live.last_event_id : s.last_event_id);
    if (opts.onRender) opts.onRender(s);
  }

  function toast(text) {
    const t = $("toast");
    if (!t) return;
    t.textContent = text;
    t.hidden = false;
    clearTimeout(toast.timer);
    toast.timer = setTimeout(() => { t.hidden = true; }, 6000);
  }

  function setLink(state, text) {
    const p = $("link");
    if (!p) return;
    p.dataset.state = state;
    p.textContent = text;
    p.className = "pill link-" + state + (p.classList.contains("ov-link") ? " ov-link" : "");
  }

  function connect(lastId) {
    source = new EventSource(`/api/events?last_id=${encodeURIComponent(lastId)}&lang=${LANG}`);
    source.addEventListener("open", () => {
      setLink("up", t("in sync"));
      if (disconnected) missed = 0;
    });
    source.addEventListener("entry", (ev) => {
      const entry = JSON.parse(ev.data);
      received.push(entry.id);
      if (disconnected) missed += 1;
    });
    source.addEventListener("state", (ev) => {
      live = JSON.parse(ev.data);
      if (disconnected) {
        disconnected = false;
        toast(missed ? t("Reconnected: events caught up: %(num)s", {num: missed}) : t("Reconnected"));
        document.body.dataset.caughtUp = String(missed);
      }
      if (viewingAt === null) render(live);
      else { shown.moves = live.moves; renderMoves(shown, {}); renderLiveFlags(); }
      if (opts.onLive) opts.onLive(live);  // the table now, even while stepping back
    });
    source.addEventListener("error", () => {
      disconnected = true;
      setLink("down", t("connection lost · retrying"));
    });
  }

  async function stepTo(at) {
    if (!live) return;
    const last = live.moves.length - 1;
    if (at === null || at >= last) { viewingAt = null; render(live); return; }
    viewingAt = Math.max(1, at);
    const r = await fetch(`/api/state?at=${viewingAt}&lang=${LANG}`);
    if (r.ok) render(await r.json());
  }

  function bindStepper() {
    const last = () => (live ? live.moves.length - 1 : 0);
    const prev = $("prev"), next = $("next");
    if (prev) prev.onclick = () => stepTo((viewingAt ?? last()) - 1);
    if (next) next.onclick = () => stepTo(viewingAt === null ? null : viewingAt + 1);
    ["live", "back-to-live"].forEach((id) => { if ($(id)) $(id).onclick = () => stepTo(null); });
    document.addEventListener("keydown", (e) => {
      if (e.target.closest && e.target.closest("input,select,textarea")) return;
      if (e.key === "ArrowLeft") stepTo((viewingAt ?? last()) - 1);
      else if (e.key === "ArrowRight" && viewingAt !== null) stepTo(viewingAt + 1);
      else if (e.key === "Escape" || e.key === "l" || e.key === "L") stepTo(null);
    });
  }

  // The MJPEG stream starts after the page's load event (an endless image would hold it back) and
  // only while there is a camera; it reconnects when the server restarts.
  function syncVideo() {
    const img = $("video");
    if (!img || !live || document.readyState !== "complete") return;
    if (new URLSearchParams(location.search).get("video") === "0") return;
    const want = live.camera && live.camera.state !== "none";
    if (want && !img.getAttribute("src")) img.src = "/stream.mjpg?t=" + Date.now();
    if (!want && img.getAttribute("src")) img.removeAttribute("src");
  }

  function bindVideo() {
    const img = $("video");
    if (!img) return;
    img.addEventListener("error", () => setTimeout(() => { img.removeAttribute("src"); syncVideo(); }, 2000));
    window.addEventListener("load", syncVideo);
  }

  async function start(options) {
    opts = options || {};
    bindStepper();
    bindVideo();
    const r = await fetch(`/api/state?lang=${LANG}`);
    live = await r.json();
    render(live);
    if (opts.onLive) opts.onLive(live);
    connect(live.last_event_id);
  }

  return { start, stepTo, received, state: () => live, shown: () => shown, domino, t };
})();
