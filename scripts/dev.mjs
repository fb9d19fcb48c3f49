#!/usr/bin/env node
// `npm run dev`: the API with reload on change (port 3000) and the Vite dev server with hot
// reload (port 5173, forwarding /api to the API). Stops both on Ctrl+C.
import { spawn } from 'node:child_process';

const children = [
  spawn('npm', ['run', 'dev', '--workspace', '@gradewise/server'], { stdio: 'inherit' }),
  spawn('npm', ['run', 'dev', '--workspace', '@gradewise/web'], { stdio: 'inherit' }),
];
const stopAll = () => children.forEach((child) => child.kill('SIGTERM'));
process.on('SIGINT', stopAll);
process.on('SIGTERM', stopAll);
for (const child of children)
  child.on('exit', (code) => {
    stopAll();
    process.exitCode = code ?? 0;
  });
console.log('Gradewise dev: web on http://localhost:5173 (API on http://localhost:3000)');
