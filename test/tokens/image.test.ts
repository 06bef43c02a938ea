// Image tokens from real image headers built byte by byte: PNG (IHDR), GIF, JPEG (SOF0, SOF2,
// with segments before the frame header), WebP, and what happens when no header can be read.

import { deflateSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { DEFAULT_IMAGE_TOKENS, imageSize, imageTokens, tokensForSize } from '../../src/tokens/image.js';

function crc32(bytes: Buffer): number {
  let crc = 0xffffffff;
  for (const byte of bytes) {
    crc ^= byte;
    for (let k = 0; k < 8; k++) crc = crc & 1 ? (crc >>> 1) ^ 0xedb88320 : crc >>> 1;
  }
  return (crc ^ 0xffffffff) >>> 0;
}

function pngChunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

/** A complete, valid grey PNG of the given size. */
function png(width: number, height: number): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 0; // greyscale
  const rows = Buffer.alloc((width + 1) * Math.min(height, 4)); // a few filter-0 rows are enough for a header test
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), pngChunk('IHDR', ihdr), pngChunk('IDAT', deflateSync(rows)), pngChunk('IEND', Buffer.alloc(0))]);
}

function gif(width: number, height: number): Buffer {
  const header = Buffer.alloc(13);
  header.write('GIF89a', 0, 'latin1');
  header.writeUInt16LE(width, 6);
  header.writeUInt16LE(height, 8);
  return Buffer.concat([header, Buffer.from([0x2c, 0, 0, 0, 0, 1, 0, 1, 0, 0, 0x02, 0x02, 0x44, 0x01, 0x00, 0x3b])]);
}

function segment(marker: number, body: Buffer): Buffer {
  const head = Buffer.from([0xff, marker, 0, 0]);
  head.writeUInt16BE(body.length + 2, 2);
  return Buffer.concat([head, body]);
}

/** A JPEG with APP0 (JFIF), DQT and DHT before the frame header `sof` (0xc0 baseline, 0xc2 progressive). */
function jpeg(width: number, height: number, sof = 0xc0): Buffer {
  const frame = Buffer.from([8, 0, 0, 0, 0, 3, 1, 0x22, 0, 2, 0x11, 1, 3, 0x11, 1]);
  frame.writeUInt16BE(height, 1);
  frame.writeUInt16BE(width, 3);
  return Buffer.concat([
    Buffer.from([0xff, 0xd8]),
    segment(0xe0, Buffer.from('JFIF\0\x01\x01\0\0\x01\0\x01\0\0', 'latin1')),
    segment(0xdb, Buffer.alloc(65, 1)),
    segment(0xc4, Buffer.alloc(30, 0)), // DHT: a 0xc_ marker that is not a frame header
    segment(sof, frame),
    Buffer.from([0xff, 0xd9]),
  ]);
}

function webpVp8x(width: number, height: number): Buffer {
  const b = Buffer.alloc(30);
  b.write('RIFF', 0, 'latin1');
  b.writeUInt32LE(22, 4);
  b.write('WEBP', 8, 'latin1');
  b.write('VP8X', 12, 'latin1');
  b.writeUInt32LE(10, 16);
  b.writeUIntLE(width - 1, 24, 3);
  b.writeUIntLE(height - 1, 27, 3);
  return b;
}

const b64 = (bytes: Buffer) => bytes.toString('base64');

describe('image sizes from headers', () => {
  it('reads width and height from a PNG IHDR', () => {
    expect(imageSize(png(640, 480))).toEqual({ width: 640, height: 480 });
  });

  it('reads width and height from a GIF header', () => {
    expect(imageSize(gif(320, 200))).toEqual({ width: 320, height: 200 });
  });

  it('reads the frame size of a JPEG past APP0, DQT and DHT segments', () => {
    expect(imageSize(jpeg(1024, 768))).toEqual({ width: 1024, height: 768 });
    expect(imageSize(jpeg(800, 1200, 0xc2))).toEqual({ width: 800, height: 1200 });
  });

  it('reads the canvas size of an extended WebP', () => {
    expect(imageSize(webpVp8x(1920, 1080))).toEqual({ width: 1920, height: 1080 });
  });

  it('reads nothing from bytes that are no image', () => {
    expect(imageSize(Buffer.from('not an image at all, just text'))).toBeUndefined();
    expect(imageSize(png(10, 10).subarray(0, 20))).toBeUndefined();
  });
});

describe('image tokens', () => {
  it('counts (w*h)/750 tokens for an image within the limits', () => {
    expect(imageTokens(b64(png(640, 480)))).toBe(Math.ceil((640 * 480) / 750)); // 410
    expect(imageTokens(b64(gif(200, 200)))).toBe(54);
    expect(imageTokens(b64(jpeg(1000, 1000)))).toBe(1334);
  });

  it('scales the long edge down to 1568 px first', () => {
    // 3136x700 -> 1568x350: 548,800 px -> 732 tokens
    expect(imageTokens(b64(png(3136, 700)))).toBe(732);
    expect(imageTokens(b64(jpeg(700, 3136)))).toBe(732);
  });

  it('scales a large image down to about 1,600 tokens, as the API does', () => {
    // 1568x1568 would be 3,278 tokens; the API scales it to about 1092x1092 (~1,590)
    const square = imageTokens(b64(png(4000, 4000)));
    expect(square).toBeGreaterThan(1550);
    expect(square).toBeLessThanOrEqual(DEFAULT_IMAGE_TOKENS);
    // The screenshot of entire-26dcd5518f (1421x1999): the prompt grew only 1,920 tokens with
    // that whole message, so the 2,331 of a long-edge-only rule cannot be right.
    expect(imageTokens(b64(png(1421, 1999)))).toBeLessThanOrEqual(DEFAULT_IMAGE_TOKENS);
  });

  it('never counts fewer than one token', () => {
    expect(tokensForSize({ width: 1, height: 1 })).toBe(1);
  });

  it('falls back to DEFAULT_IMAGE_TOKENS when the header cannot be read', () => {
    expect(imageTokens(undefined)).toBe(DEFAULT_IMAGE_TOKENS);
    expect(imageTokens('')).toBe(DEFAULT_IMAGE_TOKENS);
    expect(imageTokens(b64(Buffer.from('plain text, not an image')))).toBe(DEFAULT_IMAGE_TOKENS);
    expect(imageTokens('%%% not base64 %%%')).toBe(DEFAULT_IMAGE_TOKENS);
    expect(tokensForSize({ width: 0, height: 100 })).toBe(DEFAULT_IMAGE_TOKENS);
  });

  it('reads only the head of a large base64 image', () => {
    const big = Buffer.concat([png(1200, 900), Buffer.alloc(3_000_000, 7)]);
    expect(imageTokens(b64(big))).toBe(1440);
  });
});
