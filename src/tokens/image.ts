// Image token estimates from the image's own header: Anthropic counts about (w*h)/750 tokens
// after scaling the image down to a long edge of 1568 px and to about 1,600 tokens (~1.2 MP).
// Only the first bytes of the base64 are decoded.

export const DEFAULT_IMAGE_TOKENS = 1600; // a full-size image (~1.2 MP) when the header cannot be read
const MAX_LONG_EDGE = 1568;
const MAX_PIXELS = DEFAULT_IMAGE_TOKENS * 750;
const HEADER_BASE64_CHARS = 64 * 1024; // enough for PNG/GIF/WebP, and for JPEGs whose SOF comes early

export interface ImageSize {
  width: number;
  height: number;
}

export function imageSize(bytes: Buffer): ImageSize | undefined {
  if (bytes.length >= 24 && bytes.readUInt32BE(0) === 0x89504e47 && bytes.toString('latin1', 12, 16) === 'IHDR') {
    return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
  }
  if (bytes.length >= 10 && bytes.toString('latin1', 0, 3) === 'GIF') {
    return { width: bytes.readUInt16LE(6), height: bytes.readUInt16LE(8) };
  }
  if (bytes.length >= 30 && bytes.toString('latin1', 0, 4) === 'RIFF' && bytes.toString('latin1', 8, 12) === 'WEBP') {
    const kind = bytes.toString('latin1', 12, 16);
    if (kind === 'VP8X') return { width: 1 + bytes.readUIntLE(24, 3), height: 1 + bytes.readUIntLE(27, 3) };
    if (kind === 'VP8 ') return { width: bytes.readUInt16LE(26) & 0x3fff, height: bytes.readUInt16LE(28) & 0x3fff };
    if (kind === 'VP8L') {
      const b = bytes.readUInt32LE(21);
      return { width: (b & 0x3fff) + 1, height: ((b >> 14) & 0x3fff) + 1 };
    }
  }
  if (bytes.length >= 4 && bytes[0] === 0xff && bytes[1] === 0xd8) {
    let i = 2;
    while (i + 9 < bytes.length) {
      if (bytes[i] !== 0xff) return undefined;
      const marker = bytes[i + 1];
      const length = bytes.readUInt16BE(i + 2);
      // SOF0..SOF15 except DHT (c4), JPG (c8) and DAC (cc) carry the frame size.
      if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
        return { width: bytes.readUInt16BE(i + 7), height: bytes.readUInt16BE(i + 5) };
      }
      i += 2 + length;
    }
  }
  return undefined;
}

export function tokensForSize(size: ImageSize): number {
  let { width, height } = size;
  if (width <= 0 || height <= 0) return DEFAULT_IMAGE_TOKENS;
  const longEdge = Math.max(width, height);
  if (longEdge > MAX_LONG_EDGE) {
    const scale = MAX_LONG_EDGE / longEdge;
    width = Math.round(width * scale);
    height = Math.round(height * scale);
  }
  if (width * height > MAX_PIXELS) {
    // e.g. a 1568x1568 screenshot: the API sends about 1092x1092, not 3,278 tokens' worth
    const scale = Math.sqrt(MAX_PIXELS / (width * height));
    width = Math.floor(width * scale);
    height = Math.floor(height * scale);
  }
  return Math.max(1, Math.ceil((width * height) / 750));
}

/** Tokens of a base64 image; DEFAULT_IMAGE_TOKENS when its header cannot be read. */
export function imageTokens(base64: string | undefined): number {
  if (!base64) return DEFAULT_IMAGE_TOKENS;
  const size = imageSize(Buffer.from(base64.slice(0, HEADER_BASE64_CHARS), 'base64'));
  return size ? tokensForSize(size) : DEFAULT_IMAGE_TOKENS;
}
