// The web board's page: talks to azg serve's JSON API (docs/web-api.md), draws the board
// (boards.js), turns clicks into action strings, lets the agents on the seats move, and
// shows their analysis. document.body.dataset.state says what the page is doing
// ("idle", "thinking", "busy", "over"), for people and for the browser test alike.
"use strict";

const ui = {
  info: null,
  id: null,
  state: null,      // the game now, as the server last sent it
  view: null,       // the position shown: the game now, or an earlier ply when replaying
  viewPly: null,    // null: the game now
  selection: [],    // the targets clicked so far for the next action
  polling: false,
};
window.azgUi = ui;

const $ = (id) => document.getElementById(id);

async function api(method, path, body) {
  const res = await fetch(path, {
    method,
    headers: body ? { "Content-Type": "application/json" } : {},
    body: body ? JSON.stringify(body) : undefined,
  });
  const data = await res.json().catch(() => ({ error: `HTTP ${res.status}` }));
  if (!res.ok) throw new Error(data.error || `HTTP ${res.status}`);
  return data;
}

function setState(s) { document.body.dataset.state = s; }

function showError(e) { $("error").textContent = e ? String(e.message || e) : ""; }

function option(select, value, text) {
  const o = document.createElement("option");
  o.value = value;
  o.textContent = text || value;
  select.appendChild(o);
}

function agentsFor(game) { return ui.info.agents.filter((a) => !a.game || a.game === game); }

function fillSeats() {
  const game = $("game").value;
  for (const id of ["p1", "p2", "analyse-agent"]) {
    const sel = $(id), before = sel.value;
    sel.innerHTML = "";
    if (id !== "analyse-agent") option(sel, "human", "person");
    for (const a of agentsFor(game)) option(sel, a.name, `${a.name} (${a.spec})`);
    if ([...sel.options].some((o) => o.value === before)) sel.value = before;
  }
  if ($("p2").value === "human" && agentsFor(game).length) $("p2").value = agentsFor(game)[0].name;
  $("p1-label").textContent = sideName(game, "p1");
  $("p2-label").textContent = sideName(game, "p2");
}

async function init() {
  ui.info = await api("GET", "/api/info");
  for (const g of ui.info.games) option($("game"), g);
  $("game").addEventListener("change", fillSeats);
  fillSeats();
  $("new").addEventListener("click", () => act(newGame));
  $("undo").addEventListener("click", () => act(() => post("undo", { to_human: true })));
  $("analyse").addEventListener("click", () => act(analyse));
  $("stop").addEventListener("click", () => act(() => post("stop", {})));
  $("first").addEventListener("click", () => act(() => viewPly(0)));
  $("prev").addEventListener("click", () => act(() => viewPly(Math.max(0, currentPly() - 1))));
  $("next").addEventListener("click", () => act(() => viewPly(Math.min(ui.state.ply, currentPly() + 1))));
  $("live").addEventListener("click", () => act(() => viewPly(null)));
  $("load").addEventListener("click", () => act(loadRecord));
  $("export").addEventListener("click", () => act(exportRecord));
  $("heat").addEventListener("change", () => render());
  $("autoplay").addEventListener("change", () => act(async () => { render(); await maybeAgentMove(); }));
  $("record-file").addEventListener("change", async (ev) => {
    const file = ev.target.files[0];
    if (file) $("record").value = await file.text();
  });
  setState("idle");
}

// Runs a user's request: one at a time, errors shown in one line.
async function act(f) {
  showError(null);
  setState("busy");
  try {
    await f();
  } catch (e) {
    showError(e);
  }
  settle();
}

function settle() {
  if (!ui.state) return setState("idle");
  if (ui.state.thinking) return setState("thinking");
  setState(ui.state.over ? "over" : "idle");
}

async function newGame() {
  const body = { game: $("game").value, p1: $("p1").value, p2: $("p2").value };
  if ($("setup").value.trim()) body.setup = $("setup").value.trim();
  if ($("seed").value.trim()) body.seed = Number($("seed").value.trim());
  if (ui.id && ui.state && ui.state.thinking) await api("POST", `/api/games/${ui.id}/stop`, {}).catch(() => {});
  const s = await api("POST", "/api/games", body);
  ui.id = s.id;
  update(s);
  await maybeAgentMove();
}

async function post(verb, body) {
  if (!ui.id) throw new Error("start a game first");
  update(await api("POST", `/api/games/${ui.id}/${verb}`, body));
  if (verb === "undo") await maybeAgentMove();
}

function update(s) {
  ui.state = s;
  ui.selection = [];
  if (ui.viewPly === null || ui.viewPly > s.ply) ui.viewPly = null;
  if (ui.viewPly === null) ui.view = s;
  render();
}

function currentPly() { return ui.viewPly === null ? ui.state.ply : ui.viewPly; }

async function viewPly(ply) {
  if (!ui.state) return;
  if (ply === null || ply >= ui.state.ply) {
    ui.viewPly = null;
    ui.view = ui.state;
  } else {
    ui.view = await api("GET", `/api/games/${ui.id}?ply=${ply}`);
    ui.viewPly = ply;
  }
  ui.selection = [];
  render();
}

function seatOf(s, side) { return side === "p1" ? s.seats.p1 : side === "p2" ? s.seats.p2 : null; }

// The agent on the seat to act plays, when agents move by themselves.
async function maybeAgentMove() {
  const s = ui.state;
  if (!s || s.over || s.thinking || !$("autoplay").checked) return;
  const seat = seatOf(s, s.to_act);
  if (!seat || seat === "human") return;
  update(await api("POST", `/api/games/${ui.id}/think`, { agent: seat, play: true }));
  await pollThinking();
}

async function analyse() {
  if (!ui.id) throw new Error("start a game first");
  const body = { agent: $("analyse-agent").value, play: false };
  if ($("analyse-sims").value.trim()) body.simulations = Number($("analyse-sims").value.trim());
  update(await api("POST", `/api/games/${ui.id}/think`, body));
  await pollThinking();
}

async function pollThinking() {
  setState("thinking");
  // A fast agent is done in milliseconds, a deep search takes seconds: poll soon, then less.
  for (let delay = 10; ui.state && ui.state.thinking; delay = Math.min(150, delay * 2)) {
    await new Promise((r) => setTimeout(r, delay));
    update(await api("GET", `/api/games/${ui.id}`));
  }
  const t = ui.state.last_thought;
  if (t && t.error) showError(new Error(`${t.agent}: ${t.error}`));
  else await maybeAgentMove();
}

async function playAction(action) {
  ui.selection = [];
  await post("play", { action });
  await maybeAgentMove();
}

async function loadRecord() {
  const lines = $("record").value.split("\n").filter((l) => l.trim());
  if (!lines.length) throw new Error("paste a record, or choose a games.jsonl file");
  const n = Number($("record-line").value || 1);
  if (!Number.isInteger(n) || n < 1 || n > lines.length) throw new Error(`line must be 1 to ${lines.length}`);
  const s = await api("POST", "/api/games", { game: $("game").value, record: lines[n - 1], p1: "human", p2: "human" });
  ui.id = s.id;
  ui.viewPly = null;
  update(s);
  await viewPly(0);
}

async function exportRecord() {
  if (!ui.id) throw new Error("start a game first");
  const r = await api("GET", `/api/games/${ui.id}/record`);
  $("record").value = JSON.stringify(r);
}

// --- clicks -------------------------------------------------------------------------

function humanToAct() {
  const s = ui.state;
  return s && ui.viewPly === null && !s.over && !s.thinking && seatOf(s, s.to_act) === "human";
}

// The legal actions consistent with the clicks so far.
function candidates() {
  const board = boardFor(ui.state.game);
  return ui.state.legal
    .map((l) => ({ action: l.action, keys: board.keys(l.action) }))
    .filter((c) => c.keys.length && ui.selection.every((k, i) => c.keys[i] === k));
}

function onTarget(key) {
  if (!humanToAct()) return;
  ui.selection.push(key);
  if (!candidates().length) ui.selection = [key];  // another piece: start over from it
  if (!candidates().length) ui.selection = [];
  const c = candidates();
  const complete = c.filter((x) => x.keys.length === ui.selection.length);
  const longer = c.filter((x) => x.keys.length > ui.selection.length);
  if (complete.length === 1 && !longer.length) return act(() => playAction(complete[0].action));
  render();
}

// --- drawing ------------------------------------------------------------------------

function render() {
  const s = ui.view;
  const svg = $("board");
  svg.innerHTML = "";
  if (!s) return;
  const board = boardFor(s.game);
  board.draw(svg, s.board);
  // Every square, cell, tile and junction names itself on hover, in the rules' notation.
  for (const t of svg.querySelectorAll(".target"))
    el(t, "title", {}, s.game === "truchet" && t.dataset.key.startsWith("T") ? `tile ${t.dataset.key.slice(1)}` : t.dataset.key);
  const live = ui.viewPly === null;
  // Targets: the clicks so far, and where the next click may go.
  if (live && humanToAct()) {
    const c = candidates();
    const next = new Set(c.filter((x) => x.keys.length > ui.selection.length).map((x) => x.keys[ui.selection.length]));
    for (const t of svg.querySelectorAll(".target")) {
      if (next.has(t.dataset.key)) t.classList.add("candidate");
      if (ui.selection.includes(t.dataset.key)) t.classList.add("selected");
    }
  }
  const thought = ui.state.thinking || ui.state.last_thought;
  // The heat map belongs on the position searched; the table and bar show the latest search.
  const usable = thought && !thought.error;
  if (usable && thought.ply === currentPly() && $("heat").checked) drawHeat(svg, board, thought);
  drawBallMove(svg, s);
  renderStatus(s, live);
  renderChoices(s, live);
  renderMoves();
  renderLegal(s, live);
  renderAnalysis(usable ? thought : null);
  $("undo").disabled = !live;
}

function drawHeat(svg, board, thought) {
  const share = new Map();
  for (const [action, v] of Object.entries(thought.shares || {})) {
    const key = board.heatKey(action);
    if (key) share.set(key, (share.get(key) || 0) + v);
  }
  for (const [key, v] of share) {
    const t = svg.querySelector(`.target[data-key="${CSS.escape(key)}"]`);
    if (!t || v < 0.005) continue;
    const b = t.getBBox();
    const cx = b.x + b.width / 2, cy = b.y + b.height / 2, r = Math.min(b.width, b.height) / 2;
    el(svg, "circle", { cx, cy, r: r * (0.25 + 0.75 * Math.sqrt(v)), class: "heat", "fill-opacity": 0.25 + 0.5 * v });
    el(svg, "text", { x: cx, y: cy + 4, class: "heat-text" }, `${Math.round(v * 100)}`);
  }
}

// Intercept: after a ball move, the ball's path drawn on the board. The action names
// only where the ball ends, so the page finds a path the rules allow on the position
// before it: from the ball's square through the mover's pawns, alternately passage face
// (P) and rest face (R), each adjacent to the last, straight on through every P after the
// first, ending on a rest pawn or on the opponent's goal.
const ballPaths = new Map();  // "id:ply" -> [square, ...]
function interceptPath(before, to) {
  const b = before.board, mover = before.to_act === "p1" ? 0 : 1;
  const goal = mover === 0 ? "g13" : "g1";
  const sq = (f, r) => (f >= 0 && f < 13 && r >= 0 && r < 13 ? squareName(f, r) : null);
  const top = (name) => (b.squares[name] ? b.squares[name].top : null);
  const mine = (name, face) => { const t = top(name); return t && t.colour === mover && t.face === face; };
  const start = b.ball;
  let found = null;
  const walk = (path, lastR) => {
    if (found) return;
    const [rf, rr] = parseSquare(lastR);
    for (let df = -1; df <= 1; ++df)
      for (let dr = -1; dr <= 1; ++dr) {
        if (!df && !dr) continue;
        const p = sq(rf + df, rr + dr);
        if (!p || path.includes(p) || !mine(p, "passage")) continue;
        // After the first P the path goes straight on; at the first it may turn.
        const turns = path.length === 1 ? [[-1, -1], [-1, 0], [-1, 1], [0, -1], [0, 1], [1, -1], [1, 0], [1, 1]] : [[df, dr]];
        for (const [ef, er] of turns) {
          const [pf, pr] = parseSquare(p);
          const r = sq(pf + ef, pr + er);
          if (!r || path.includes(r) || r === p) continue;
          const next = [...path, p, r];
          if (r === goal && (!top(r) || top(r).colour === mover)) { if (r === to) found = next; continue; }
          if (!mine(r, "rest")) continue;
          if (r === to) { found = next; return; }
          walk(next, r);
        }
      }
  };
  walk([start], start);
  return found;
}

async function drawBallMove(svg, s) {
  const ply = currentPly();
  const last = ui.state.history[ply - 1];
  if (s.game !== "intercept" || !last || !last.startsWith("B")) return;
  const key = `${ui.id}:${ply}`;
  if (!ballPaths.has(key)) {
    const before = await api("GET", `/api/games/${ui.id}?ply=${ply - 1}`);
    ballPaths.set(key, interceptPath(before, last.slice(1)) || [before.board.ball, last.slice(1)]);
  }
  if (currentPly() !== ply) return;  // the view moved on meanwhile
  const centres = ballPaths.get(key).map((name) => {
    const t = svg.querySelector(`.target[data-key="${name}"]`);
    if (!t) return null;
    const bb = t.getBBox();
    return `${bb.x + bb.width / 2},${bb.y + bb.height / 2}`;
  });
  if (centres.includes(null)) return;
  el(svg, "polyline", { points: centres.join(" "), class: "ball-path" });
}

function resultText(game, r) {
  if (r === "1-0") return `${sideName(game, "p1")} wins (1-0)`;
  if (r === "0-1") return `${sideName(game, "p2")} wins (0-1)`;
  return `Draw (${r})`;
}

function renderStatus(s, live) {
  let text;
  if (s.over) text = `Game over: ${resultText(s.game, s.result)}`;
  else {
    const seat = seatOf(ui.state, s.to_act);
    text = `${sideName(s.game, s.to_act)} to act (${seat === "human" ? "you" : seat})`;
    if (live && ui.state.thinking) text += ` · ${ui.state.thinking.agent} is thinking (${ui.state.thinking.simulations} sims)`;
  }
  if (!live) text = `Replay: after ${s.ply} of ${ui.state.ply} · ` + text;
  $("status").textContent = text;
  $("status").dataset.result = s.over ? s.result : "";
}

function actionButton(parent, action, onClick) {
  const b = document.createElement("button");
  b.textContent = action;
  b.dataset.action = action;
  b.addEventListener("click", onClick);
  parent.appendChild(b);
}

// Actions without a square (stop, pass, done, ...), and the choice when the clicks so far
// fit several actions (a split's shares, a merge's sources).
function renderChoices(s, live) {
  const box = $("choices");
  box.innerHTML = "";
  if (!live || !humanToAct()) return;
  const board = boardFor(s.game);
  const shown = [];
  for (const l of s.legal) if (!board.keys(l.action).length) shown.push(l.action);
  if (ui.selection.length)
    for (const c of candidates()) if (c.keys.length === ui.selection.length) shown.push(c.action);
  for (const a of shown) actionButton(box, a, () => act(() => playAction(a)));
}

function renderLegal(s, live) {
  const box = $("legal");
  box.innerHTML = "";
  for (const l of s.legal) {
    const label = l.probability ? `${l.action} (${(l.probability * 100).toFixed(0)}%)` : l.action;
    actionButton(box, l.action, () => act(() => playAction(l.action)));
    box.lastChild.textContent = label;
    box.lastChild.disabled = !live || !humanToAct();
  }
}

function renderMoves() {
  const list = $("moves");
  list.innerHTML = "";
  const s = ui.state;
  s.history.forEach((a, i) => {
    const li = document.createElement("li");
    li.textContent = a;
    if (s.by_chance[i]) li.classList.add("chance");
    if (ui.viewPly !== null && i + 1 === ui.viewPly) li.classList.add("viewed");
    li.addEventListener("click", () => act(() => viewPly(i + 1)));
    list.appendChild(li);
  });
}

function renderAnalysis(t) {
  const body = $("analysis").querySelector("tbody");
  body.innerHTML = "";
  if (!t) {
    $("value-fill").style.width = "50%";
    $("value-text").textContent = "—";
    return;
  }
  // The value is the acting player's; the bar shows the first player's side (white part).
  const v1 = t.player === "p2" ? -t.value : t.value;
  $("value-fill").style.width = `${(50 + 50 * v1).toFixed(1)}%`;
  $("value-text").textContent = `${v1 >= 0 ? "+" : ""}${v1.toFixed(2)} for ${sideName(ui.state.game, "p1")} · ${t.agent}, ${t.simulations} sims at ply ${t.ply}`;
  for (const a of t.actions) {
    const tr = document.createElement("tr");
    for (const v of [a.action, a.visits, `${(a.share * 100).toFixed(1)}%`, a.value.toFixed(2), a.prior.toFixed(3)]) {
      const td = document.createElement("td");
      td.textContent = v;
      tr.appendChild(td);
    }
    tr.title = a.pv.join(" ");
    body.appendChild(tr);
  }
}

document.addEventListener("click", (ev) => {
  const t = ev.target.closest && ev.target.closest("#board .target");
  if (t) onTarget(t.dataset.key);
});

init().catch((e) => { showError(e); setState("idle"); });
