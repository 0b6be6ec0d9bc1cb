// The start-up benches' in-run reference: the least a launch can cost on this machine, measured the
// way the app's launch is. A bare Node HTTP server prints the same "running at" line as `npm start`
// and serves a page whose one module script puts a single message row on screen. No framework, no
// data: what remains is Node's own start, the browser's new page, and one HTML and script fetch.
import http from 'node:http';

const page = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>floor</title>
<script type="module" src="./floor.js"></script></head><body><div id="root"></div></body></html>`;
const script = `const row = document.createElement('div');
row.dataset.testid = 'message';
row.textContent = 'The first message';
document.getElementById('root').append(row);`;

const server = http.createServer((request, response) => {
  const isScript = request.url?.startsWith('/floor.js');
  response.writeHead(200, { 'content-type': isScript ? 'text/javascript' : 'text/html' });
  response.end(isScript ? script : page);
});
server.listen(0, '127.0.0.1', () => {
  console.log(`Tributary is running at http://127.0.0.1:${server.address().port}/#floor`);
});
