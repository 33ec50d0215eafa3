/**
 * Writes fixtures/coco-odd/: the COCO inputs real data sets carry that the default fixture does
 * not (a CMYK JPEG, a palette PNG, a progressive JPEG, a 13x199 image, a truncated JPEG and a
 * bbox-only annotation), apart from fixtures/coco so that the benchmark's default data and the
 * baseline's exact metrics stay as they are.
 *
 * The CMYK JPEG is made of flat 8x8 blocks of chosen ink values at quality 100: such blocks
 * survive JPEG exactly (DC only, quantizer 1), so the ink values a decoder must find are known
 * without any decoder, and written to cmyk-blocks.json for the test to compute PIL's RGB from.
 * Run: npx tsx scripts/make-coco-odd-fixture.ts [outDir]   (default: fixtures/coco-odd)
 */
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';
import { rasterizePolygon } from '../src/data/coco/polygon.js';
import { decodeRle } from '../src/data/coco/rle.js';
import { seededRng } from '../src/base/random.js';

const outDir = process.argv[2] ?? fileURLToPath(new URL('../fixtures/coco-odd/', import.meta.url));
const SEED = 20260421;
const rng = seededRng(SEED);

/** Non-contiguous ids on purpose (class index 1 = id 2, class index 2 = id 7). */
const CATEGORIES = [
  { id: 7, name: 'kite', supercategory: 'sports' },
  { id: 2, name: 'bicycle', supercategory: 'vehicle' },
];

// ---- the CMYK JPEG ----------------------------------------------------------------------

const BLOCK = 8;
const CMYK_ROWS = 6;
const CMYK_COLS = 8;

/** Ink values per block: the corners of the ink cube, PIL's rounding edges, then seeded values. */
function cmykBlocks(): number[][] {
  const fixed = [
    [0, 0, 0, 0],
    [255, 255, 255, 255],
    [255, 0, 0, 0],
    [0, 255, 0, 0],
    [0, 0, 255, 0],
    [0, 0, 0, 255],
    [128, 128, 128, 127],
    [1, 127, 254, 1],
    [127, 128, 129, 128],
    [64, 32, 16, 200],
  ];
  const seeded = Array.from({ length: CMYK_ROWS * CMYK_COLS - fixed.length }, () => [rng.int(256), rng.int(256), rng.int(256), rng.int(256)]);
  return [...fixed, ...seeded];
}

/**
 * An uncompressed CMYK TIFF (PhotometricInterpretation 5, 4 x 8-bit samples): libvips loads it as
 * CMYK values unchanged, the only way found to hand sharp chosen ink values (raw input is sRGB).
 */
function cmykTiff(cmyk: Uint8Array, width: number, height: number): Buffer {
  // [tag, type (3 SHORT, 4 LONG), count, value]; null values are offsets filled in below.
  const entries: Array<[number, number, number, number | null]> = [
    [256, 3, 1, width],
    [257, 3, 1, height],
    [258, 3, 4, null],
    [259, 3, 1, 1],
    [262, 3, 1, 5],
    [273, 4, 1, null],
    [277, 3, 1, 4],
    [278, 3, 1, height],
    [279, 4, 1, cmyk.length],
    [284, 3, 1, 1],
  ];
  const ifd = 8;
  const bitsAt = ifd + 2 + entries.length * 12 + 4;
  const dataAt = bitsAt + 8;
  const tiff = Buffer.alloc(dataAt + cmyk.length);
  tiff.write('II', 0, 'latin1');
  tiff.writeUInt16LE(42, 2);
  tiff.writeUInt32LE(ifd, 4);
  tiff.writeUInt16LE(entries.length, ifd);
  entries.forEach(([tag, type, count, value], i) => {
    const at = ifd + 2 + i * 12;
    const v = tag === 258 ? bitsAt : tag === 273 ? dataAt : value!;
    tiff.writeUInt16LE(tag, at);
    tiff.writeUInt16LE(type, at + 2);
    tiff.writeUInt32LE(count, at + 4);
    if (type === 3 && count === 1) tiff.writeUInt16LE(v, at + 8);
    else tiff.writeUInt32LE(v, at + 8);
  });
  for (let k = 0; k < 4; k++) tiff.writeUInt16LE(8, bitsAt + k * 2);
  tiff.set(cmyk, dataAt);
  return tiff;
}

/** The CMYK JPEG (Adobe marker, as libjpeg writes CMYK) and the ink values of its blocks. */
async function cmykJpeg(): Promise<{ jpeg: Buffer; blocks: number[][] }> {
  const blocks = cmykBlocks();
  const width = CMYK_COLS * BLOCK;
  const height = CMYK_ROWS * BLOCK;
  const cmyk = new Uint8Array(width * height * 4);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) cmyk.set(blocks[Math.floor(y / BLOCK) * CMYK_COLS + Math.floor(x / BLOCK)]!, (y * width + x) * 4);
  }
  // Quality 100 without mozjpeg's trellis and deringing, which may move coefficients: the flat
  // blocks then decode to exactly these values (checked by the test through libvips' CMYK path).
  const jpeg = await sharp(cmykTiff(cmyk, width, height))
    .pipelineColourspace('cmyk')
    .toColourspace('cmyk')
    .jpeg({ quality: 100, chromaSubsampling: '4:4:4', trellisQuantisation: false, overshootDeringing: false, optimiseScans: false, optimiseCoding: false })
    .toBuffer();
  return { jpeg, blocks };
}

// ---- the RGB images ---------------------------------------------------------------------

/** A seeded gradient with the polygon painted on it, so a viewer sees the object. */
function picture(height: number, width: number, polygon: readonly number[]): Uint8Array {
  const inside = decodeRle(rasterizePolygon(polygon, height, width));
  const rgb = new Uint8Array(height * width * 3);
  const tint = [rng.int(60), rng.int(60), rng.int(60)];
  for (let p = 0; p < height * width; p++) {
    const x = p % width;
    const y = Math.floor(p / width);
    const background = [40 + (150 * x) / width, 60 + (120 * y) / height, 200 - (100 * x) / width];
    for (let c = 0; c < 3; c++) rgb[p * 3 + c] = Math.round(inside[p] ? 230 - tint[c]! : background[c]! + tint[c]! / 4);
  }
  return rgb;
}

const raw = (rgb: Uint8Array, height: number, width: number) => sharp(rgb, { raw: { width, height, channels: 3 } });

const POLYGONS = {
  cmyk: [8, 8, 56, 8, 56, 40, 8, 40],
  palette: [4, 30, 28, 4, 52, 30, 28, 36],
  progressive: [10, 6, 54, 10, 40, 44, 12, 40],
  narrow: [3, 2, 195, 1.5, 190, 11, 6, 10.5],
  truncated: [5, 5, 35, 5, 20, 25],
};

async function main(): Promise<void> {
  // Only what this script makes: the README beside them is written by hand.
  for (const sub of ['images', 'annotations']) rmSync(join(outDir, sub), { recursive: true, force: true });
  mkdirSync(join(outDir, 'images'), { recursive: true });
  mkdirSync(join(outDir, 'annotations'), { recursive: true });

  const { jpeg, blocks } = await cmykJpeg();
  const palette = await raw(picture(40, 56, POLYGONS.palette), 40, 56)
    .png({ palette: true, colours: 16, dither: 0, compressionLevel: 9 })
    .toBuffer();
  const progressive = await raw(picture(48, 64, POLYGONS.progressive), 48, 64)
    .jpeg({ quality: 85, progressive: true })
    .toBuffer();
  const narrow = await raw(picture(13, 199, POLYGONS.narrow), 13, 199)
    .jpeg({ quality: 85 })
    .toBuffer();
  // The header survives, the entropy-coded data is cut: a header-only check finds nothing wrong.
  const whole = await raw(picture(30, 40, POLYGONS.truncated), 30, 40)
    .jpeg({ quality: 85 })
    .toBuffer();
  const truncated = whole.subarray(0, Math.floor(whole.length * 0.6));

  const files: Array<[string, Uint8Array, number, number]> = [
    ['cmyk.jpg', jpeg, CMYK_ROWS * BLOCK, CMYK_COLS * BLOCK],
    ['palette.png', palette, 40, 56],
    ['progressive.jpg', progressive, 48, 64],
    ['narrow.jpg', narrow, 13, 199],
    ['truncated.jpg', truncated, 30, 40],
  ];
  for (const [name, bytes] of files) writeFileSync(join(outDir, 'images', name), bytes);
  const images = files.map(([file_name, , height, width], i) => ({ id: 201 + i, file_name, height, width }));
  const ann = (id: number, image_id: number, category_id: number, segmentation: number[]) => ({
    id,
    image_id,
    category_id,
    iscrowd: 0,
    segmentation: [segmentation],
  });
  const annotations = [
    ann(301, 201, 2, POLYGONS.cmyk),
    ann(302, 202, 7, POLYGONS.palette),
    ann(303, 203, 2, POLYGONS.progressive),
    // Detection-only: a bbox and no segmentation, as real COCO-format files carry.
    { id: 304, image_id: 203, category_id: 7, iscrowd: 0, bbox: [30, 20, 20, 16], area: 320 },
    ann(305, 204, 7, POLYGONS.narrow),
    ann(306, 205, 2, POLYGONS.truncated),
  ];
  const json = { info: { description: 'gpu-transfer-perf odd COCO inputs (synthetic)', year: 2026 }, images, annotations, categories: CATEGORIES };
  writeFileSync(join(outDir, 'annotations', 'instances.json'), `${JSON.stringify(json)}\n`);
  const table = { image: 'cmyk.jpg', block: BLOCK, rows: CMYK_ROWS, cols: CMYK_COLS, cmyk: blocks };
  writeFileSync(join(outDir, 'cmyk-blocks.json'), `${JSON.stringify(table)}\n`);
}

await main();
