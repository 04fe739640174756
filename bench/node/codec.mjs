#!/usr/bin/env node
// Codec throughput on files: node bench/node/codec.mjs [--profile paper|compact] FILE...
// (MB/s of UTF-8 input, one pass each)
import { readFileSync } from 'node:fs';
import { encode, decode } from '../../js/src/index.mjs';

const argv = process.argv.slice(2);
const at = argv.indexOf('--profile');
const profile = at >= 0 ? argv.splice(at, 2)[1] : 'paper';
for (const file of argv) {
  const text = readFileSync(file, 'utf8');
  const mb = Buffer.byteLength(text) / 1e6;
  let t = performance.now();
  const stream = encode(text, { profile });
  const te = (performance.now() - t) / 1000;
  t = performance.now();
  const back = decode(stream);
  const td = (performance.now() - t) / 1000;
  t = performance.now();
  encode(text, { profile });
  const te2 = (performance.now() - t) / 1000;
  console.log(JSON.stringify({ file, profile, mb: +mb.toFixed(2), encode_mb_s: +(mb / te).toFixed(2),
    encode_warm_mb_s: +(mb / te2).toFixed(2), decode_mb_s: +(mb / td).toFixed(2) }));
}
