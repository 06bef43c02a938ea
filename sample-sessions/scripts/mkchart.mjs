#!/usr/bin/env node
// Draw a small line chart (hourly mean temperature) of a readings CSV as a real PNG,
// with nothing but node:zlib. Deterministic output.
// Usage: node mkchart.mjs <readings.csv> <out.png> [width=200] [height=120]
import fs from 'node:fs';
import zlib from 'node:zlib';

const [csvPath, outPath, wArg, hArg] = process.argv.slice(2);
const W = Number(wArg || 200), H = Number(hArg || 120);
const rows = fs.readFileSync(csvPath, 'utf8').trim().split('\n').slice(1).map((l) => l.split(','));
// hourly mean over all sensors (sentinel values included: this is the "buggy dashboard")
const byHour = new Map();
for (const [ts, , temp] of rows) { const k = ts.slice(0, 13); const a = byHour.get(k) || []; a.push(Number(temp)); byHour.set(k, a); }
const series = [...byHour.values()].map((a) => a.reduce((s, x) => s + x, 0) / a.length);

const px = Buffer.alloc(W * H * 3, 255);
const set = (x, y, [r, g, b]) => { if (x < 0 || y < 0 || x >= W || y >= H) return; const i = (y * W + x) * 3; px[i] = r; px[i + 1] = g; px[i + 2] = b; };
const L = 16, R = W - 4, T = 6, B = H - 12;            // plot area
const tMin = 15, tMax = 30;                           // y axis in degrees C
const yOf = (t) => Math.round(B - ((Math.min(tMax, Math.max(tMin, t)) - tMin) / (tMax - tMin)) * (B - T));
for (let t = tMin; t <= tMax; t += 5) for (let x = L; x <= R; x += 2) set(x, yOf(t), [210, 210, 210]);   // grid
for (let y = T; y <= B; y++) set(L, y, [0, 0, 0]);                                                      // y axis
for (let x = L; x <= R; x++) set(x, B, [0, 0, 0]);                                                      // x axis
for (let d = 0; d <= 25; d += 5) { const x = Math.round(L + (d / 25) * (R - L)); for (let y = B; y < B + 4; y++) set(x, y, [0, 0, 0]); }
let prev = null;
series.forEach((t, i) => {
  const x = Math.round(L + (i / (series.length - 1)) * (R - L)), y = yOf(t);
  if (prev) { const [x0, y0] = prev; const n = Math.max(Math.abs(x - x0), Math.abs(y - y0), 1);
    for (let k = 0; k <= n; k++) set(Math.round(x0 + ((x - x0) * k) / n), Math.round(y0 + ((y - y0) * k) / n), [200, 30, 30]); }
  prev = [x, y];
});

const crcTable = Array.from({ length: 256 }, (_, n) => { let c = n; for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1; return c >>> 0; });
const crc32 = (buf) => { let c = 0xffffffff; for (const b of buf) c = crcTable[(c ^ b) & 255] ^ (c >>> 8); return (c ^ 0xffffffff) >>> 0; };
const chunk = (type, data) => { const len = Buffer.alloc(4); len.writeUInt32BE(data.length); const td = Buffer.concat([Buffer.from(type, 'ascii'), data]); const crc = Buffer.alloc(4); crc.writeUInt32BE(crc32(td)); return Buffer.concat([len, td, crc]); };
const ihdr = Buffer.alloc(13); ihdr.writeUInt32BE(W, 0); ihdr.writeUInt32BE(H, 4); ihdr[8] = 8; ihdr[9] = 2; // 8-bit RGB
const raw = Buffer.alloc((W * 3 + 1) * H);
for (let y = 0; y < H; y++) px.copy(raw, y * (W * 3 + 1) + 1, y * W * 3, (y + 1) * W * 3);
fs.writeFileSync(outPath, Buffer.concat([Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]), chunk('IHDR', ihdr), chunk('IDAT', zlib.deflateSync(raw, { level: 9 })), chunk('IEND', Buffer.alloc(0))]));
