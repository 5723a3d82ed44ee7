// The web board in a real browser: for each game, starts `azg serve`, plays a whole game
// by clicking (the person's side plays the first legal action, clicking its squares; the
// other side is a fast agent that wins: on Truchet alpha-beta and on Intercept MCTS on the
// game's evaluation, where random playouts would play to the turn cap), checks the result
// the page shows against the server's, and saves screenshots. Exit 77 (skipped) when no
// Chromium is installed.
//   node tests/browser/board_e2e.mjs [AZG_BINARY] [SCREENSHOT_DIR] [GAME...]
import { execFileSync, spawn } from "node:child_process";
import { existsSync, mkdirSync } from "node:fs";
import { createInterface } from "node:readline";

const azg = process.argv[2] || "build/bin/azg";
const shots = process.argv[3] || "build/browser-shots";
const games = process.argv.slice(4).length ? process.argv.slice(4) : ["imbriqua", "truchet", "imperator", "lignes", "intercept", "connect4"];
const chromium = process.env.CHROMIUM || ["/usr/bin/chromium", "/usr/bin/chromium-browser"].find(existsSync);
if (!chromium) {
  console.log("SKIPPED: no Chromium found (install it with: bash tools/setup.sh, or set CHROMIUM=/path)");
  process.exit(77);
}
let puppeteer;
try {
  puppeteer = (await import("puppeteer-core")).default;
} catch {
  console.log("SKIPPED: puppeteer-core is not installed (cd tests/browser && npm ci)");
  process.exit(77);
}
mkdirSync(shots, { recursive: true });

function fail(message) {
  console.error(`FAIL: ${message}`);
  process.exitCode = 1;
}

// The other side's agent where "fast" (random playouts) would draw at the turn cap:
// alpha-beta ends Truchet in about 60 actions (360 before), the evaluation's MCTS Intercept.
const opponent = { truchet: "ab", intercept: "heur" };

// The server on a free port; resolves with its address once it listens.
function startServer() {
  const child = spawn(azg, ["serve", "--port", "0", "--agent", "fast=mcts:sims=16",
                             "--agent", "ab=ab:depth=2",
                             "--agent", "heur=mcts:sims=16,evaluator=heuristic", "--agent", "random=random"],
                      { stdio: ["ignore", "pipe", "inherit"] });
  return new Promise((resolve, reject) => {
    const lines = createInterface({ input: child.stdout });
    lines.on("line", (line) => {
      const m = line.match(/(http:\/\/[\d.]+:\d+\/)/);
      if (m) resolve({ child, url: m[1] });
    });
    child.on("exit", (code) => reject(new Error(`azg serve exited with ${code} before listening`)));
  });
}

async function waitSettled(page) {
  await page.waitForFunction(() => ["idle", "over"].includes(document.body.dataset.state), { timeout: 60000 });
}

// The analysis view mid-game: an agent's search as a heat map on the board and a table.
async function analyse(page, game) {
  await page.select("#analyse-agent", "fast");
  await page.$eval("#analyse-sims", (e) => { e.value = "400"; });
  await page.click("#analyse");
  await waitSettled(page);
  const heat = await page.$$eval("#board .heat", (e) => e.length);
  const rows = await page.$$eval("#analysis tbody tr", (e) => e.length);
  const bar = await page.$eval("#value-text", (e) => e.textContent);
  if (!heat || !rows || !bar.includes("400 sims")) fail(`${game}: the analysis shows ${heat} heat marks, ${rows} rows, "${bar}"`);
  await page.screenshot({ path: `${shots}/${game}-analysis.png`, clip: { x: 0, y: 0, width: 1300, height: 700 } });
}

// Intercept: replaying a ball move draws the ball's path through the mover's pawns. The
// game is a random one with a ball move (azg play-random, seed 6), loaded as a record.
async function checkBallPath(page) {
  const moves = execFileSync(azg, ["play-random", "--game", "intercept", "--seed", "6"], { encoding: "utf8" })
    .split("\n")[1].trim().split(" ");
  const ply = moves.findIndex((a) => a.startsWith("B")) + 1;
  if (ply === 0) return fail("intercept: play-random seed 6 has no ball move any more; choose another seed");
  const record = { actions: moves.slice(0, ply), result: "1/2-1/2", termination: "unfinished" };
  await page.$eval("#record", (e, text) => { e.value = text; }, JSON.stringify(record));
  await page.$eval("#record-line", (e) => { e.value = "1"; });
  await page.click("#load");
  await page.waitForFunction(() => window.azgUi.viewPly === 0 && document.body.dataset.state !== "busy");
  await page.evaluate((i) => document.querySelectorAll("#moves li")[i - 1].click(), ply);
  // The last ply of the record is the game now (viewPly null): either way the view is at `ply`.
  await page.waitForFunction((i) => (window.azgUi.viewPly ?? window.azgUi.state.ply) === i &&
                                    document.body.dataset.state !== "busy", {}, ply);
  await page.waitForSelector("#board .ball-path", { timeout: 5000 }).catch(() => {});
  const points = await page.$eval("#board .ball-path", (e) => e.getAttribute("points").split(" ").length).catch(() => 0);
  if (points < 3) fail(`intercept: the ball move ${moves[ply - 1]} at ply ${ply} shows no path through pawns (${points} points)`);
  else console.log(`intercept: the ball move ${moves[ply - 1]} at ply ${ply} is drawn through ${points} squares`);
  await page.screenshot({ path: `${shots}/intercept-ball-path.png`, clip: { x: 0, y: 0, width: 1300, height: 700 } });
}

// The record goes out (Export) and comes back (Load) as a new game shown from its start;
// stepping forward replays it.
async function replayRecord(page, game, history) {
  await page.click("#export");
  await page.waitForFunction(() => document.querySelector("#record").value.includes("actions"));
  await page.click("#load");
  await page.waitForFunction(() => window.azgUi.viewPly === 0 && document.body.dataset.state !== "busy");
  await page.click("#next");
  await page.waitForFunction(() => window.azgUi.viewPly === 1 && document.body.dataset.state !== "busy");
  const s = await page.evaluate(() => ({ history: window.azgUi.state.history, status: document.querySelector("#status").textContent }));
  if (JSON.stringify(s.history) !== JSON.stringify(history)) fail(`${game}: the loaded record has ${s.history.length} actions, not ${history.length}`);
  if (!s.status.startsWith("Replay: after 1 of")) fail(`${game}: replay shows "${s.status}"`);
}

async function playOneGame(page, url, game) {
  await page.goto(url);
  await page.waitForFunction(() => document.body.dataset.state === "idle");
  await page.select("#game", game);
  await page.select("#p1", "human");
  await page.select("#p2", opponent[game] || "fast");
  await page.click("#new");
  await waitSettled(page);
  let clicks = 0, actions = 0;
  for (let step = 0; step < 5000; ++step) {
    const s = await page.evaluate(() => window.azgUi.state);
    if (s.over) break;
    if (s.seats[s.to_act] !== "human") throw new Error(`${game}: the agent's turn at ply ${s.ply} but the page is idle`);
    const action = s.legal[0].action;
    const keys = await page.evaluate((g, a) => boardFor(g).keys(a), game, action);
    for (const key of keys) {
      await page.click(`#board .target[data-key="${key}"]`);
      ++clicks;
    }
    // Clicks that fit several actions (or an action without a square) end with a choice.
    const played = await page.evaluate((ply) => window.azgUi.state.ply !== ply || document.body.dataset.state !== "idle", s.ply);
    if (!played) {
      await page.click(`#choices button[data-action="${action.replace(/["\\]/g, "\\$&")}"]`);
      ++clicks;
    }
    await page.waitForFunction((ply) => window.azgUi.state.ply > ply && ["idle", "over"].includes(document.body.dataset.state),
                               { timeout: 60000 }, s.ply);
    ++actions;
    if (actions === 6 && !(await page.evaluate(() => window.azgUi.state.over))) await analyse(page, game);
  }
  const s = await page.evaluate(() => window.azgUi.state);
  await page.screenshot({ path: `${shots}/${game}.png` });
  const server = await (await fetch(`${url}api/games/${s.id}`)).json();
  const shown = await page.$eval("#status", (e) => ({ text: e.textContent, result: e.dataset.result }));
  if (!server.over) fail(`${game}: the page stopped but the server's game is not over`);
  if (shown.result !== server.result || !shown.text.includes(server.result))
    fail(`${game}: the page shows ${JSON.stringify(shown)}, the server says ${server.result}`);
  if (server.history.length !== s.history.length) fail(`${game}: the page has ${s.history.length} actions, the server ${server.history.length}`);
  await replayRecord(page, game, server.history);
  if (game === "intercept") await checkBallPath(page);
  console.log(`${game}: ${server.history.length} actions (${actions} by clicking, ${clicks} clicks), result ${server.result}, shown "${shown.text}"`);
}

const { child, url } = await startServer();
const browser = await puppeteer.launch({ executablePath: chromium, headless: true,
                                         args: ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"] });
try {
  const page = await browser.newPage();
  await page.setViewport({ width: 1300, height: 900 });
  page.on("pageerror", (e) => fail(`page error: ${e.message}`));
  page.on("console", (m) => { if (m.type() === "error") fail(`console error: ${m.text()}`); });
  for (const game of games) {
    try {
      await playOneGame(page, url, game);
    } catch (e) {
      fail(`${game}: ${e.message}`);
      await page.screenshot({ path: `${shots}/${game}-failed.png` }).catch(() => {});
    }
  }
} finally {
  await browser.close();
  child.kill("SIGTERM");
}
if (!process.exitCode) console.log(`PASS: ${games.length} games played by clicking; screenshots in ${shots}/`);
