// Starts ONE `legion serve` for the whole run: a free port, a fresh database
// in a temporary folder, a short engine time. The address is handed to the
// workers through LEGION_BASE_URL; the function returned stops the server.

const { spawn, spawnSync } = require('node:child_process');
const fs = require('node:fs');
const net = require('node:net');
const os = require('node:os');
const path = require('node:path');

const ROOT = path.resolve(__dirname, '..');
const BIN = process.env.LEGION_BIN || path.join(ROOT, 'target', 'release', 'legion');
const READY_TIMEOUT_MS = 30_000;

/** A port nobody listens on: bind to port 0, read it, release it. */
function freePort() {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}

/** Writes the tables of KQ vs K (and what it leads to) into `dir`. */
function buildEndgames(dir) {
  const r = spawnSync(BIN, ['endgame', 'build', '--dir', dir, '--material', 'KQ vs K'], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`legion endgame build failed: ${r.stderr || r.error}`);
}

/** Starts the server and resolves with {url, stop} once it prints its ready line. */
async function startServer({ movetime = 150 } = {}) {
  if (!fs.existsSync(BIN)) {
    throw new Error(`${BIN} is missing: build it with 'cargo build --release -p legion-cli'`);
  }
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'legion-e2e-'));
  // Solved endings for the analysis pages (endgame.spec.js): King and
  // Queen against King and every ending it leads to, a few seconds.
  const endgames = path.join(dir, 'endgames');
  buildEndgames(endgames);
  const port = await freePort();
  // Every test comes from one address: the per-address limit on new games
  // and invite claims (30 a minute by default), and on new studies (30 an
  // hour), is raised so that a fast run never meets it.
  const args = ['serve', '--port', String(port), '--db', path.join(dir, 'e2e.db'), '--engine-movetime', String(movetime),
    '--games-per-minute', '600', '--studies-per-hour', '600', '--endgames', endgames];
  const child = spawn(BIN, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stderr.setEncoding('utf8');
  child.stderr.on('data', (d) => { err += d; });
  const url = await new Promise((resolve, reject) => {
    const timer = setTimeout(() => fail(new Error(`legion serve did not say it was ready within ${READY_TIMEOUT_MS} ms`)), READY_TIMEOUT_MS);
    function fail(e) {
      clearTimeout(timer);
      child.kill('SIGKILL');
      reject(new Error(`${e.message}\nstdout: ${out}\nstderr: ${err}`));
    }
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (d) => {
      out += d;
      const m = out.match(/Legion is ready: (http:\/\/\S+?)\/?\s/);
      if (m) { clearTimeout(timer); resolve(m[1]); }
    });
    child.on('error', fail);
    child.on('exit', (code, signal) => fail(new Error(`legion serve exited early (code ${code}, signal ${signal})`)));
  });
  child.removeAllListeners('exit');
  child.stdout.resume(); // keep draining: a full pipe would block the server

  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      const t = setTimeout(() => child.kill('SIGKILL'), 5000);
      await exited;
      clearTimeout(t);
    }
    fs.rmSync(dir, { recursive: true, force: true });
  };
  return { url, stop, child };
}

module.exports = async function globalSetup() {
  const server = await startServer({ movetime: 150 });
  process.env.LEGION_BASE_URL = server.url;
  return async () => { await server.stop(); };
};
module.exports.startServer = startServer;
