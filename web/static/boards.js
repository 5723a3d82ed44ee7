// The five boards, drawn as SVG from the server's board data (web/board_data.cpp).
// Each game gives:
//   draw(svg, board): the picture; every square, cell, tile or junction a person can click
//                     is an element with class "target" and data-key = its name;
//   keys(action):     the targets a person clicks, in order, to make an action string
//                     (empty for actions without a square: stop, pass, done, flip, keep);
//   heatKey(action):  the target where the analysis view shows an action's share.
// Names follow the rules' notation (../shared/rules/): a1..h8, x,y, and so on.
"use strict";

const SVG_NS = "http://www.w3.org/2000/svg";

function el(parent, tag, attrs, text) {
  const e = document.createElementNS(SVG_NS, tag);
  for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, v);
  if (text !== undefined) e.textContent = text;
  parent.appendChild(e);
  return e;
}

function fileLetter(i) { return String.fromCharCode(97 + i); }
function squareName(file, rank) { return fileLetter(file) + (rank + 1); }
function parseSquare(name) { return [name.charCodeAt(0) - 97, parseInt(name.slice(1), 10) - 1]; }
const lastKey = (keys) => (keys.length ? keys[keys.length - 1] : null);

// A square grid of files x ranks with rank 1 at the bottom; returns the square's corner.
function drawSquareGrid(svg, files, ranks, size, origin, shade) {
  const pos = (f, r) => [origin[0] + f * size, origin[1] + (ranks - 1 - r) * size];
  for (let r = 0; r < ranks; ++r) {
    for (let f = 0; f < files; ++f) {
      const [x, y] = pos(f, r);
      el(svg, "rect", { x, y, width: size, height: size, class: "target square " + (shade ? shade(f, r) : ""),
                        "data-key": squareName(f, r) });
    }
  }
  for (let f = 0; f < files; ++f)
    el(svg, "text", { x: pos(f, 0)[0] + size / 2, y: origin[1] + ranks * size + 16, class: "label" }, fileLetter(f));
  for (let r = 0; r < ranks; ++r)
    el(svg, "text", { x: origin[0] - 12, y: pos(0, r)[1] + size / 2 + 5, class: "label" }, String(r + 1));
  return pos;
}

// The card in hand while it is carried out; before (placement, reveal) the turn's card
// if already known.
function cardText(b) {
  if (["card", "chain", "second pawn", "penalty"].includes(b.phase)) return `card ${b.card}`;
  if (b.turn === 0) return "cards from turn 1";
  const next = b.cards[b.turn - 1];
  return `this turn's card ${next || "hidden"}`;
}

const Imbriqua = {
  draw(svg, b) {
    const size = 52, origin = [28, 8];
    svg.setAttribute("viewBox", `0 0 ${28 + 8 * size + 10} ${8 + 8 * size + 150}`);
    const inner = (f, r) => f > 0 && f < 7 && r > 0 && r < 7;
    const pos = drawSquareGrid(svg, 8, 8, size, origin, (f, r) => (inner(f, r) ? "inner" : "edge"));
    for (const [sq, p] of Object.entries(b.pawns)) {
      const [f, r] = parseSquare(sq);
      const [x, y] = pos(f, r);
      el(svg, "circle", { cx: x + size / 2, cy: y + size / 2, r: size * 0.36, class: `piece p${p}` });
    }
    // The card in hand, then the 44 turns' cards: hidden ones as "?".
    const top = origin[1] + 8 * size + 28;
    el(svg, "text", { x: origin[0], y: top, class: "caption" },
       `Turn ${b.turn || "opening"} · ${b.phase} · ${cardText(b)} · score Light ${b.score[0]}, Dark ${b.score[1]}`);
    const w = (8 * size) / 11;
    b.cards.forEach((c, i) => {
      const x = origin[0] + (i % 11) * w, y = top + 12 + Math.floor(i / 11) * 26;
      const current = i + 1 === b.turn;
      el(svg, "rect", { x, y, width: w - 3, height: 22, rx: 3,
                        class: "card" + (c ? "" : " hidden") + (current ? " current" : "") + (c === "P2" ? " p2" : "") });
      el(svg, "text", { x: x + (w - 3) / 2, y: y + 16, class: "card-text" }, c || "?");
    });
  },
  keys(a) {
    if (a === "stop") return [];
    let m = a.match(/^([a-h][1-8])[-x]([a-h][1-8])$/);
    if (m) return [m[1], m[2]];
    m = a.match(/^-?([a-h][1-8])$/);
    return m ? [m[1]] : [];
  },
};

const TRUCHET_BASES = { a1: 1, c1: 1, e1: 1, g1: 1, a8: 0, c8: 0, e8: 0, g8: 0 };  // whose home base

const Truchet = {
  draw(svg, b) {
    const size = 60, origin = [40, 24];
    svg.setAttribute("viewBox", `0 0 ${origin[0] + 7 * size + 40} ${origin[1] + 7 * size + 70}`);
    const at = (x, y) => [origin[0] + x * size, origin[1] + (7 - y) * size];
    // Tiles: bit 0 joins SW-NE ("/"), bit 1 NW-SE ("\"); a band in its diagonal's colour.
    for (let y = 0; y < 7; ++y) {
      for (let x = 0; x < 7; ++x) {
        const bit = b.tiles[y * 7 + x] === "1";
        const [left, topY] = at(x, y + 1);
        const name = squareName(x, y);
        el(svg, "rect", { x: left, y: topY, width: size, height: size, class: "target tile", "data-key": "T" + name });
        const dark = bit ? (x + y + 1) % 2 === 0 : (x + y) % 2 === 0;
        const [x1, y1] = bit ? at(x, y + 1) : at(x, y);
        const [x2, y2] = bit ? at(x + 1, y) : at(x + 1, y + 1);
        el(svg, "line", { x1, y1, x2, y2, class: "band " + (dark ? "dark" : "light") });
      }
    }
    // Junctions with their fixed colour; bases ringed; stacks with their height.
    for (let y = 0; y < 8; ++y) {
      for (let x = 0; x < 8; ++x) {
        const [cx, cy] = at(x, y);
        const name = squareName(x, y);
        if (name in TRUCHET_BASES) el(svg, "rect", { x: cx - 15, y: cy - 15, width: 30, height: 30, class: `base base${TRUCHET_BASES[name]}` });
        el(svg, "circle", { cx, cy, r: 13, class: "target junction " + ((x + y) % 2 === 0 ? "dark" : "light"), "data-key": name });
        const s = b.stacks[name];
        if (s) {
          el(svg, "circle", { cx, cy, r: 11, class: `piece p${s.colour}` });
          el(svg, "text", { x: cx, y: cy + 5, class: `height h${s.colour}` }, String(s.height));
        }
      }
    }
    for (let x = 0; x < 8; ++x) el(svg, "text", { x: at(x, 0)[0], y: at(0, 0)[1] + 32, class: "label" }, fileLetter(x));
    for (let y = 0; y < 8; ++y) el(svg, "text", { x: origin[0] - 28, y: at(0, y)[1] + 5, class: "label" }, String(y + 1));
    el(svg, "text", { x: origin[0], y: origin[1] + 7 * size + 52, class: "caption" },
       `Turn ${b.turn + 1} · ${b.phase} · position seen ${b.repetitions}×`);
  },
  keys(a) {
    let m = a.match(/^F([a-g][1-7])$/);
    if (m) return ["T" + m[1]];
    m = a.match(/^([a-h][1-8])-([a-h][1-8])$/);
    if (m) return [m[1], m[2]];
    const step = { N: [0, 1], E: [1, 0], S: [0, -1], W: [-1, 0] };
    const near = (sq, d) => { const [f, r] = parseSquare(sq); return squareName(f + step[d][0], r + step[d][1]); };
    m = a.match(/^([a-h][1-8])\/([NESW])/);  // a split: the stack, then its first destination
    if (m) return [m[1], near(m[1], m[2])];
    m = a.match(/^([a-h][1-8])<([NESW])/);  // a merge: its first source, then the centre
    if (m) return [near(m[1], m[2]), m[1]];
    return [];
  },
};

const Imperator = {
  draw(svg, b) {
    const unit = 46, h = unit * Math.sqrt(3) / 2, rows = b.rows.length;
    const widest = Math.max(...b.rows.map((k) => (k + 1) / 2));
    const cx0 = 34 + (widest * unit) / 2;
    svg.setAttribute("viewBox", `0 0 ${cx0 * 2 + 10} ${rows * h + 60}`);
    const px = (x) => cx0 + x * unit, py = (y) => 10 + (rows - y) * h;
    for (const c of b.cells) {
      const k = b.rows[c.row], j = c.number - 1, x0 = -(k + 1) / 4 + j / 2;
      const pts = c.up
        ? [[x0, c.row], [x0 + 1, c.row], [x0 + 0.5, c.row + 1]]
        : [[x0, c.row + 1], [x0 + 1, c.row + 1], [x0 + 0.5, c.row]];
      const points = pts.map(([x, y]) => `${px(x)},${py(y)}`).join(" ");
      const rim = c.rim === null ? "" : c.rim === 0 ? " rim holed" : " rim plain";
      el(svg, "polygon", { points, class: "target cell" + rim, "data-key": c.name });
      const gx = px(x0 + 0.5), gy = py(c.up ? c.row + 1 / 3 : c.row + 2 / 3);
      if (c.rim === 0) el(svg, "circle", { cx: gx, cy: gy, r: 4, class: "hole" });
      if (c.piece !== null) {
        // The piece: the cell's triangle shrunk about its centre.
        const inset = pts.map(([x, y]) => `${gx + (px(x) - gx) * 0.72},${gy + (py(y) - gy) * 0.72}`).join(" ");
        el(svg, "polygon", { points: inset, class: `piece p${c.piece}` });
      }
      if (j === 0) el(svg, "text", { x: px(x0) - 16, y: py(c.row + 0.5) + 5, class: "label" }, fileLetter(c.row));
    }
    el(svg, "text", { x: 10, y: rows * h + 44, class: "caption" },
       `${b.phase} · moves ${b.moves} · Red ${b.pieces[0]}, White ${b.pieces[1]} · ◯ holed rim: Red's`);
  },
  keys(a) {
    const m = a.match(/^([a-z]\d+)(?:-([a-z]\d+))?$/);
    if (!m) return [];
    return m[2] ? [m[1], m[2]] : [m[1]];
  },
};

const LIGNES_STEP = { N: [0, 1], E: [1, 0], S: [0, -1], W: [-1, 0] };

const Lignes = {
  draw(svg, b) {
    // A window on the plane: every pawn and two cells around them.
    let x0 = 0, x1 = 0, y0 = 0, y1 = 0;
    for (const [x, y] of b.pawns) { x0 = Math.min(x0, x); x1 = Math.max(x1, x); y0 = Math.min(y0, y); y1 = Math.max(y1, y); }
    x0 -= 2; y0 -= 2; x1 += 2; y1 += 2;
    const w = x1 - x0 + 1, hgt = y1 - y0 + 1;
    const size = Math.max(18, Math.min(52, Math.floor(460 / Math.max(w, hgt))));
    const origin = [40, 10];
    // At least 460 wide, so that the caption fits.
    svg.setAttribute("viewBox", `0 0 ${Math.max(460, origin[0] + w * size + 10)} ${origin[1] + hgt * size + 60}`);
    const at = (x, y) => [origin[0] + (x - x0) * size, origin[1] + (y1 - y) * size];
    for (let y = y0; y <= y1; ++y)
      for (let x = x0; x <= x1; ++x) {
        const [px, py] = at(x, y);
        el(svg, "rect", { x: px, y: py, width: size, height: size, class: "target square plane", "data-key": `${x},${y}` });
      }
    for (const [x, y, p] of b.pawns) {
      const [px, py] = at(x, y);
      el(svg, "rect", { x: px + size * 0.14, y: py + size * 0.14, width: size * 0.72, height: size * 0.72, rx: 3, class: `piece p${p}` });
    }
    const every = size < 26 ? 2 : 1;
    for (let x = x0; x <= x1; x += every) el(svg, "text", { x: at(x, 0)[0] + size / 2, y: origin[1] + hgt * size + 16, class: "label small" }, String(x));
    for (let y = y0; y <= y1; y += every) el(svg, "text", { x: origin[0] - 16, y: at(0, y)[1] + size / 2 + 4, class: "label small" }, String(y));
    el(svg, "text", { x: origin[0], y: origin[1] + hgt * size + 44, class: "caption" },
       `${b.phase} · placed ${b.placed}/40 · captures ${b.captures[0]}–${b.captures[1]}`);
  },
  keys(a) {
    let m = a.match(/^[PX](-?\d+),(-?\d+)$/);
    if (m) return [`${m[1]},${m[2]}`];
    m = a.match(/^M(-?\d+),(-?\d+)([NESW])$/);  // the lead, then the cell it moves into
    if (m) {
      const [dx, dy] = LIGNES_STEP[m[3]];
      return [`${m[1]},${m[2]}`, `${+m[1] + dx},${+m[2] + dy}`];
    }
    return [];
  },
};

const Intercept = {
  draw(svg, b) {
    const size = 38, origin = [30, 8];
    svg.setAttribute("viewBox", `0 0 ${origin[0] + 13 * size + 10} ${origin[1] + 13 * size + 56}`);
    const pos = drawSquareGrid(svg, 13, 13, size, origin, (f, r) => (f === 6 && (r === 0 || r === 12) ? "goal" : ""));
    const drawPawn = (p, cx, cy, r) => {
      // Passage face: a filled disc; rest face: a ring (the hollow pawn); the double says D.
      el(svg, "circle", { cx, cy, r, class: `pawn p${p.colour}` });
      if (p.face === "rest") el(svg, "circle", { cx, cy, r: r * 0.5, class: "pawn-hole" });
      if (p.kind === "double") el(svg, "text", { x: cx, y: cy + 4, class: `pawn-text ${p.face === "rest" ? "on-hole" : "h" + p.colour}` }, p.face === "passage" ? "D·P" : "D·R");
    };
    for (const [sq, s] of Object.entries(b.squares)) {
      const [f, r] = parseSquare(sq);
      const [x, y] = pos(f, r);
      if (s.covered) drawPawn(s.covered, x + size * 0.34, y + size * 0.34, size * 0.22);
      drawPawn(s.top, x + size / 2, y + size / 2, size * 0.36);
    }
    const [bf, br] = parseSquare(b.ball);
    const [bx, by] = pos(bf, br);
    el(svg, "circle", { cx: bx + size * 0.78, cy: by + size * 0.22, r: size * 0.16, class: "ball" });
    el(svg, "text", { x: origin[0], y: origin[1] + 13 * size + 40, class: "caption" },
       `Turn ${b.turn + 1} · ${b.phase} · ball ${b.ball} · disc passage, ring rest, D double`);
  },
  keys(a) {
    let m = a.match(/^([a-m]\d+)[-x]([a-m]\d+)$/);
    if (m) return [m[1], m[2]];
    m = a.match(/^F([a-m]\d+)$/);  // the double flipped in place: the pawn, twice
    if (m) return [m[1], m[1]];
    m = a.match(/^B([a-m]\d+)$/);
    if (m) return [m[1]];
    return [];
  },
};

// Connect Four: a person clicks a column (any cell of it); the stone falls to its lowest
// empty cell. Targets are the columns, named by their digit as the notation does.
const Connect4 = {
  draw(svg, b) {
    const size = 52, origin = [20, 8], cols = 7, rows = 6;
    svg.setAttribute("viewBox", `0 0 ${origin[0] + cols * size + 20} ${origin[1] + rows * size + 60}`);
    el(svg, "rect", { x: origin[0], y: origin[1], width: cols * size, height: rows * size, class: "c4-frame" });
    for (let c = 0; c < cols; ++c) {
      el(svg, "rect", { x: origin[0] + c * size, y: origin[1], width: size, height: rows * size,
                        class: "target square c4-column", "data-key": String(c + 1) });
      el(svg, "text", { x: origin[0] + c * size + size / 2, y: origin[1] + rows * size + 18, class: "label" }, String(c + 1));
    }
    b.rows.forEach((row, r) => row.forEach((p, c) => {
      el(svg, "circle", { cx: origin[0] + c * size + size / 2, cy: origin[1] + (rows - 1 - r) * size + size / 2,
                          r: size * 0.4, class: p < 0 ? "c4-hole" : `piece p${p}` });
    }));
    el(svg, "text", { x: origin[0], y: origin[1] + rows * size + 44, class: "caption" },
       `${b.stones} stones · X (player 0) moves first · four in a row wins`);
  },
  keys(a) { return /^[1-7]$/.test(a) ? [a] : []; },
};

const Generic = {
  draw(svg, b) {
    svg.setAttribute("viewBox", "0 0 480 320");
    (b.text || "").split("\n").forEach((line, i) => el(svg, "text", { x: 8, y: 20 + 16 * i, class: "mono" }, line));
  },
  keys() { return []; },
};

const Boards = { imbriqua: Imbriqua, truchet: Truchet, imperator: Imperator, imperator3: Imperator, imperator5: Imperator,
                 lignes: Lignes, intercept: Intercept, connect4: Connect4 };
for (const b of Object.values(Boards)) if (!b.heatKey) b.heatKey = (a) => lastKey(b.keys(a));

function boardFor(game) { return Boards[game] || Generic; }

// Seat names as the rules call the players.
const SIDE_NAMES = { imperator: ["Red", "White"], imperator3: ["Red", "White"], imperator5: ["Red", "White"],
                     connect4: ["X", "O"] };
function sideName(game, seat) {
  const names = SIDE_NAMES[game] || ["Light", "Dark"];
  return seat === "p1" ? names[0] : seat === "p2" ? names[1] : seat;
}
