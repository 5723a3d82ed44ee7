// ONNX for browser clients: `azg export --onnx` converts exported models (both head shapes
// of the reference models), and onnxruntime-web in Debian's chromium must reproduce
// LibTorch's outputs on the real positions of m.onnx.check.json. Exit 77 (skipped) when no
// Chromium is installed.
//   node tests/browser/onnx_e2e.mjs AZG_BINARY MODEL.pt...
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { createServer } from "node:http";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const [azg, ...models] = process.argv.slice(2);
if (!azg || !models.length) {
  console.error("usage: node onnx_e2e.mjs AZG_BINARY MODEL.pt...");
  process.exit(2);
}
const chromium = process.env.CHROMIUM || ["/usr/bin/chromium", "/usr/bin/chromium-browser"].find(existsSync);
const ortDir = join(here, "node_modules", "onnxruntime-web", "dist");
if (!chromium || !existsSync(ortDir)) {
  console.log(`SKIPPED: ${!chromium ? "no Chromium found" : "onnxruntime-web is not installed"} (bash tools/setup.sh installs both)`);
  process.exit(77);
}
const puppeteer = (await import("puppeteer-core")).default;

// Largest differences allowed: float32 convolutions summed in another order.
const POLICY_TOLERANCE = 1e-3, VALUE_TOLERANCE = 1e-4;

const files = {};
for (const [i, model] of models.entries()) {
  const out = execFileSync(azg, ["export", "--model", model, "--onnx"], { encoding: "utf8" });
  process.stdout.write(out);
  const onnx = model.replace(/\.pt$/, "") + ".onnx";
  files[`/m${i}.onnx`] = readFileSync(onnx);
  files[`/m${i}.json`] = readFileSync(onnx + ".check.json");
}

const types = { ".js": "text/javascript", ".mjs": "text/javascript", ".wasm": "application/wasm", ".json": "application/json" };
const server = createServer((req, res) => {
  const path = req.url.split("?")[0];
  let body = files[path];
  if (!body && path.startsWith("/ort/") && !path.includes("..")) {
    const file = join(ortDir, path.slice(5));
    if (existsSync(file)) body = readFileSync(file);
  }
  if (path === "/") body = Buffer.from("<!doctype html><title>onnx check</title>");
  if (!body) { res.writeHead(404); res.end(); return; }
  const ext = path.slice(path.lastIndexOf("."));
  res.writeHead(200, { "Content-Type": path === "/" ? "text/html" : types[ext] || "application/octet-stream" });
  res.end(body);
});
await new Promise((r) => server.listen(0, "127.0.0.1", r));
const url = `http://127.0.0.1:${server.address().port}/`;

const browser = await puppeteer.launch({ executablePath: chromium, headless: true,
                                         args: ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"] });
let failed = false;
try {
  const page = await browser.newPage();
  page.on("pageerror", (e) => { console.error(`page error: ${e.message}`); failed = true; });
  await page.goto(url);
  await page.addScriptTag({ url: "/ort/ort.min.js" });
  for (const [i, model] of models.entries()) {
    const r = await page.evaluate(async (i) => {
      ort.env.wasm.wasmPaths = "/ort/";
      ort.env.wasm.numThreads = 1;
      const bytes = new Uint8Array(await (await fetch(`/m${i}.onnx`)).arrayBuffer());
      const check = await (await fetch(`/m${i}.json`)).json();
      const session = await ort.InferenceSession.create(bytes, { executionProviders: ["wasm"] });
      let policy = 0, value = 0;
      for (const p of check.positions) {
        const input = new ort.Tensor("float32", Float32Array.from(p.input), [1, ...check.planes]);
        const out = await session.run({ planes: input });
        if (out.policy.data.length !== check.policy_size) throw new Error(`policy has ${out.policy.data.length} logits, not ${check.policy_size}`);
        for (let k = 0; k < check.policy_size; ++k) policy = Math.max(policy, Math.abs(out.policy.data[k] - p.policy[k]));
        value = Math.max(value, Math.abs(out.value.data[0] - p.value));
      }
      return { game: check.game, positions: check.positions.length, policy, value };
    }, i);
    const ok = r.policy <= POLICY_TOLERANCE && r.value <= VALUE_TOLERANCE;
    if (!ok) failed = true;
    console.log(`${ok ? "ok  " : "FAIL"} ${model}: ${r.game}, ${r.positions} positions, onnxruntime-web vs LibTorch: ` +
                `policy logits within ${r.policy.toExponential(2)}, value within ${r.value.toExponential(2)}`);
  }
} finally {
  await browser.close();
  server.close();
}
process.exit(failed ? 1 : 0);
