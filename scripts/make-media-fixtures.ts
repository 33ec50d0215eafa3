/**
 * Writes the COCO and Kinetics fixtures: fixtures/coco/ (12 small JPEG/PNG images and an
 * instances JSON using polygons, compressed RLE, uncompressed RLE and iscrowd) and
 * fixtures/kinetics/ (H.264 mp4 files from ffmpeg's lavfi test sources, Kinetics layout).
 * Seeded and reproducible with the same sharp (libvips) and ffmpeg/x264 builds.
 * Run: npx tsx scripts/make-media-fixtures.ts [outDir]   (default: fixtures/)
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';
import { encodeRle, encodeRleString } from '../src/data/coco/rle.js';
import { parseSegmentation } from '../src/data/coco/segmentation.js';
import { type MaskLayer, paintSemanticMask } from '../src/data/coco/semantic-mask.js';
import { seededRng } from '../src/base/random.js';

const outDir = process.argv[2] ?? fileURLToPath(new URL('../fixtures/', import.meta.url));
const SEED = 20240807;

// ---- COCO -------------------------------------------------------------------------------

/** Listed out of id order on purpose: class index follows the sorted ids 1, 3, 18, 44. */
const CATEGORIES = [
  { id: 18, name: 'dog', supercategory: 'animal' },
  { id: 1, name: 'person', supercategory: 'person' },
  { id: 44, name: 'bottle', supercategory: 'kitchen' },
  { id: 3, name: 'car', supercategory: 'vehicle' },
];
/** Object colours by category id, so a viewer sees the objects in the images. */
const COLOURS: Record<number, [number, number, number]> = { 1: [220, 60, 60], 3: [60, 60, 220], 18: [60, 200, 60], 44: [200, 200, 40] };
const CLASS_OF: Record<number, number> = { 1: 1, 3: 2, 18: 3, 44: 4 };

type Segmentation = number[][] | { size: [number, number]; counts: string | number[] };
interface AnnotationSpec {
  category: number;
  iscrowd?: 0 | 1;
  segmentation: (h: number, w: number) => Segmentation;
}
interface ImageSpec {
  file: string;
  height: number;
  width: number;
  kind: 'rgb' | 'grey' | 'rgba';
  annotations: AnnotationSpec[];
}

/** A row-major mask of the pixels whose centre satisfies `inside(x + 0.5, y + 0.5)`. */
function maskOf(h: number, w: number, inside: (x: number, y: number) => boolean): Uint8Array {
  const mask = new Uint8Array(h * w);
  for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) mask[y * w + x] = inside(x + 0.5, y + 0.5) ? 1 : 0;
  return mask;
}

/** A compressed RLE segmentation (as COCO writes for iscrowd=0 RLE and for results). */
function compressed(inside: (x: number, y: number) => boolean): (h: number, w: number) => Segmentation {
  return (h, w) => ({ size: [h, w], counts: encodeRleString(encodeRle(maskOf(h, w, inside), h, w)) });
}

/** An uncompressed RLE segmentation (as the COCO files write iscrowd=1 regions). */
function uncompressed(inside: (x: number, y: number) => boolean): (h: number, w: number) => Segmentation {
  return (h, w) => ({ size: [h, w], counts: [...encodeRle(maskOf(h, w, inside), h, w).counts] });
}

const polygons =
  (...parts: number[][]) =>
  (): Segmentation =>
    parts;
const ellipse = (cx: number, cy: number, rx: number, ry: number) => (x: number, y: number) => ((x - cx) / rx) ** 2 + ((y - cy) / ry) ** 2 <= 1;

const IMAGES: ImageSpec[] = [
  {
    file: '000000000001.jpg',
    height: 48,
    width: 64,
    kind: 'rgb',
    annotations: [
      { category: 1, segmentation: polygons([8, 6, 30, 6, 30, 40, 8, 40]) },
      { category: 3, segmentation: polygons([34, 40, 60, 40, 47, 12]) },
    ],
  },
  { file: '000000000002.png', height: 60, width: 80, kind: 'rgb', annotations: [{ category: 18, segmentation: compressed(ellipse(40, 30, 20, 12)) }] },
  {
    file: '000000000003.jpg',
    height: 64,
    width: 48,
    kind: 'rgb',
    annotations: [
      // One person in two parts (head and body): two polygons, their union is the object.
      { category: 1, segmentation: polygons([18.5, 4.2, 29.5, 4.2, 29.5, 15.8, 18.5, 15.8], [12, 18, 36, 18, 40, 60, 8, 60]) },
    ],
  },
  {
    file: '000000000004.jpg',
    height: 40,
    width: 50,
    kind: 'grey',
    annotations: [{ category: 3, segmentation: polygons([5.3, 30.1, 12.7, 10.4, 37.2, 8.9, 46.6, 28.3, 24.1, 36.6]) }],
  },
  {
    file: '000000000005.jpg',
    height: 72,
    width: 96,
    kind: 'rgb',
    annotations: [
      { category: 1, iscrowd: 1, segmentation: uncompressed((x, y) => y > 44 || (y > 30 && (x < 20 || x > 80))) },
      // Painted after the crowd: it covers part of it.
      { category: 18, segmentation: polygons([30, 20, 66, 20, 70, 60, 26, 60]) },
    ],
  },
  { file: '000000000006.jpg', height: 40, width: 40, kind: 'rgb', annotations: [] },
  {
    file: '000000000007.png',
    height: 56,
    width: 72,
    kind: 'rgb',
    annotations: [
      // A frame (a rectangle with a hole): one RLE, not expressible as one polygon.
      { category: 3, segmentation: compressed((x, y) => x > 6 && x < 50 && y > 6 && y < 44 && !(x > 18 && x < 38 && y > 16 && y < 34)) },
      { category: 1, segmentation: polygons([30, 2, 68, 2, 68, 52, 30, 52]) },
    ],
  },
  {
    file: '000000000008.jpg',
    height: 30,
    width: 100,
    kind: 'rgb',
    annotations: [
      { category: 18, segmentation: polygons([4, 26, 44, 26, 24, 3]) },
      { category: 1, segmentation: polygons([56.25, 4.75, 95.5, 4.75, 95.5, 25.25, 56.25, 25.25]) },
    ],
  },
  { file: '000000000009.png', height: 32, width: 32, kind: 'rgba', annotations: [{ category: 3, segmentation: polygons([4, 4, 28, 6, 26, 28, 6, 26]) }] },
  {
    file: '000000000010.jpg',
    height: 80,
    width: 60,
    kind: 'rgb',
    annotations: [
      { category: 1, segmentation: compressed(ellipse(24, 40, 14, 30)) },
      // The same class overlapping: the union counts once in the class mask.
      { category: 1, segmentation: polygons([30, 10, 56, 10, 56, 70, 30, 70]) },
    ],
  },
  {
    file: '000000000011.jpg',
    height: 50,
    width: 50,
    kind: 'rgb',
    annotations: [{ category: 18, iscrowd: 1, segmentation: uncompressed((x, y) => (Math.floor(x / 10) + Math.floor(y / 10)) % 2 === 0) }],
  },
  {
    file: '000000000012.png',
    height: 45,
    width: 70,
    kind: 'rgb',
    annotations: [
      { category: 1, segmentation: polygons([2, 2, 30, 2, 30, 43, 2, 43]) },
      { category: 18, segmentation: polygons([20, 10, 50, 10, 50, 35, 20, 35]) },
      { category: 3, segmentation: polygons([40.4, 20.6, 67.9, 20.6, 54.2, 42.8]) },
    ],
  },
];

/** JPEG (quality 85) or PNG bytes of an RGB image, made grey or given an alpha channel per spec. */
async function encodeImage(rgb: Uint8Array, h: number, w: number, spec: ImageSpec): Promise<Buffer> {
  let image = sharp(rgb, { raw: { width: w, height: h, channels: 3 } });
  if (spec.kind === 'grey') image = image.toColourspace('b-w');
  if (spec.kind === 'rgba') {
    // A varying alpha that the reader must drop (PIL convert('RGB') drops it, not composites).
    const rgba = new Uint8Array(h * w * 4);
    for (let p = 0; p < h * w; p++) {
      rgba.set(rgb.subarray(p * 3, p * 3 + 3), p * 4);
      rgba[p * 4 + 3] = 64 + (p % 192);
    }
    image = sharp(rgba, { raw: { width: w, height: h, channels: 4 } });
  }
  return spec.file.endsWith('.png') ? image.png({ compressionLevel: 9 }).toBuffer() : image.jpeg({ quality: 85 }).toBuffer();
}

async function writeCoco(dir: string): Promise<void> {
  const rng = seededRng(SEED);
  // Only what this script makes: the README beside them is written by hand.
  for (const sub of ['images', 'annotations']) rmSync(join(dir, sub), { recursive: true, force: true });
  mkdirSync(join(dir, 'images'), { recursive: true });
  mkdirSync(join(dir, 'annotations'), { recursive: true });
  const images: object[] = [];
  const annotations: object[] = [];
  let annotationId = 101;
  for (const [i, spec] of IMAGES.entries()) {
    const { height: h, width: w } = spec;
    const imageId = i + 1;
    images.push({ id: imageId, file_name: spec.file, height: h, width: w, license: 1 });
    const layers: MaskLayer[] = [];
    const categoryOfClass: number[] = [];
    for (const ann of spec.annotations) {
      const segmentation = ann.segmentation(h, w);
      // The reader's own path from JSON to pixels, so the picture shows what the masks hold.
      layers.push({ classIndex: CLASS_OF[ann.category]!, rles: parseSegmentation(segmentation, h, w).rles });
      categoryOfClass[CLASS_OF[ann.category]!] = ann.category;
      annotations.push({ id: annotationId++, image_id: imageId, category_id: ann.category, iscrowd: ann.iscrowd ?? 0, segmentation });
    }
    const { mask } = paintSemanticMask(h, w, layers);
    // Background: a seeded colour gradient; objects: their colour; both with a little noise.
    const grey = 70 + rng.int(80);
    const base = [grey + rng.int(30), grey + rng.int(30), grey + rng.int(30)];
    const rgb = new Uint8Array(h * w * 3);
    for (let p = 0; p < h * w; p++) {
      const cls = mask[p]!;
      const colour = cls === 0 ? undefined : COLOURS[categoryOfClass[cls]!];
      for (let c = 0; c < 3; c++) {
        const value = colour ? colour[c]! : base[c]! + ((p % w) * 40) / w;
        rgb[p * 3 + c] = Math.max(0, Math.min(255, Math.round(value + rng.int(17) - 8)));
      }
    }
    const path = join(dir, 'images', spec.file);
    writeFileSync(path, await encodeImage(rgb, h, w, spec));
  }
  const json = {
    info: { description: 'gpu-transfer-perf COCO fixture (synthetic)', version: '1.0', year: 2024 },
    licenses: [{ id: 1, name: 'CC0 (generated)', url: '' }],
    images,
    annotations,
    categories: CATEGORIES,
  };
  writeFileSync(join(dir, 'annotations', 'instances.json'), `${JSON.stringify(json)}\n`);
}

// ---- Kinetics ---------------------------------------------------------------------------

/** One video: its path under the kinetics folder, a lavfi source and its frame count. */
interface VideoSpec {
  readonly path: string;
  readonly source: string;
  readonly frames: number;
}

const FRAME = '64x48';
const VIDEOS: VideoSpec[] = [
  { path: 'train/abseiling/abseiling_001.mp4', source: `testsrc2=size=${FRAME}:rate=25`, frames: 40 },
  { path: 'train/abseiling/abseiling_002.mp4', source: `smptebars=size=${FRAME}:rate=25`, frames: 48 },
  { path: 'train/air_drumming/air_drumming_001.mp4', source: `rgbtestsrc=size=${FRAME}:rate=25`, frames: 45 },
  // Shorter than one 32-frame clip: listed, gives no clip.
  { path: 'train/air_drumming/air_drumming_002.mp4', source: `testsrc=size=${FRAME}:rate=25`, frames: 20 },
  { path: 'val/abseiling/abseiling_101.mp4', source: `cellauto=size=${FRAME}:rate=25:seed=${SEED}:rule=110`, frames: 36 },
  { path: 'val/air_drumming/air_drumming_101.mp4', source: `life=size=${FRAME}:rate=25:seed=${SEED}:mold=10`, frames: 36 },
];

/** Encodes one lavfi test source to H.264 mp4, single-threaded and without varying metadata. */
function writeVideo(dir: string, spec: VideoSpec): void {
  const path = join(dir, spec.path);
  mkdirSync(join(path, '..'), { recursive: true });
  const args = ['-v', 'error', '-y', '-f', 'lavfi', '-i', spec.source, '-frames:v', String(spec.frames)];
  args.push('-c:v', 'libx264', '-preset', 'medium', '-crf', '28', '-pix_fmt', 'yuv420p', '-threads', '1');
  // bitexact + no metadata: no encoder version string in the container, no creation time.
  args.push('-fflags', '+bitexact', '-flags:v', '+bitexact', '-map_metadata', '-1', '-movflags', '+faststart', path);
  const result = spawnSync(process.env.FFMPEG_PATH || 'ffmpeg', args, { encoding: 'utf8' });
  if (result.error || result.status !== 0) {
    throw new Error(`ffmpeg failed for ${path}: ${result.error?.message ?? result.stderr}; install it (apt-get install ffmpeg)`);
  }
}

function writeKinetics(dir: string): void {
  for (const sub of ['train', 'val']) rmSync(join(dir, sub), { recursive: true, force: true });
  for (const spec of VIDEOS) writeVideo(dir, spec);
}

// ---- main -------------------------------------------------------------------------------

await writeCoco(join(outDir, 'coco'));
writeKinetics(join(outDir, 'kinetics'));
for (const file of [...IMAGES.map((i) => join('coco/images', i.file)), 'coco/annotations/instances.json', ...VIDEOS.map((v) => join('kinetics', v.path))]) {
  console.log(`${join(outDir, file)}: ${statSync(join(outDir, file)).size} bytes`);
}
