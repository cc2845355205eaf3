// A tiny HTTP server for the wrk example: answers on 127.0.0.1 only.
// GET / returns a small text body; GET /work does a little CPU work first,
// so a change to the work shows up as fewer requests per second.
// FAIL_EVERY=N answers every Nth request with FAIL_STATUS (default 503), to see the errors budget fail.
import { createServer } from 'node:http';

const port = Number(process.env.PORT ?? 18473);
const rounds = Number(process.env.WORK_ROUNDS ?? 2000);
const failEvery = Number(process.env.FAIL_EVERY ?? 0);
const failStatus = Number(process.env.FAIL_STATUS ?? 503);
let served = 0;

function work(n) {
  let x = 1;
  for (let i = 0; i < n; i++) x = (x * 1103515245 + 12345) % 2147483648;
  return x;
}

const server = createServer((req, res) => {
  const body = req.url === '/work' ? `work ${work(rounds)}\n` : 'hello from perf-gate\n';
  served++;
  res.writeHead(failEvery > 0 && served % failEvery === 0 ? failStatus : 200, { 'content-type': 'text/plain', 'content-length': Buffer.byteLength(body) });
  res.end(body);
});
server.listen(port, '127.0.0.1', () => console.log(`listening on http://127.0.0.1:${port}/`));
for (const signal of ['SIGTERM', 'SIGINT']) process.on(signal, () => server.close(() => process.exit(0)));
