/**
 * The COCO instances JSON (instances_train2017.json and the like): its schema, and reading it
 * with errors that name the file and the field. Segmentations are only checked later, one
 * annotation at a time (segmentation.ts), so that one bad annotation is skipped, not fatal.
 * Format: the COCO data format page ("Object Detection" section), cocodataset.org/#format-data.
 */
import { NotRegularFileError, readRegularFile } from '../../base/regular-file.js';
import { z } from 'zod';
import { printable } from '../media-errors.js';

/** Thrown for an annotations file that is missing, not JSON, or not COCO instances data. */
export class CocoFormatError extends Error {
  override readonly name = 'CocoFormatError';
  constructor(
    readonly fileName: string,
    problem: string,
  ) {
    // `problem` may quote the file (JSON.parse's excerpt, field names): made printable, so a
    // binary or hostile file cannot put NULs or escape sequences into the one-line error.
    super(
      `${fileName}: ${printable(problem, 400)}. Expected COCO instances JSON ({"images": [...], "annotations": [...], ` +
        '"categories": [...]}, as annotations/instances_val2017.json of the COCO download)',
    );
  }
}

const id = z.int({ error: 'must be an integer id' });

const imageSchema = z.looseObject({
  id,
  file_name: z.string({ error: 'must be the image file name (a string)' }).min(1, 'must not be empty'),
  height: z.int({ error: 'must be the image height in pixels' }).positive('must be > 0'),
  width: z.int({ error: 'must be the image width in pixels' }).positive('must be > 0'),
});

const categorySchema = z.looseObject({
  id,
  name: z.string({ error: 'must be the category name (a string)' }),
  supercategory: z.string().optional(),
});

const annotationSchema = z.looseObject({
  id,
  image_id: id,
  category_id: id,
  // Checked per annotation (segmentation.ts): a malformed one is skipped, not fatal. Optional:
  // real files carry bbox-only annotations (pycocotools loads them; only annToMask fails).
  segmentation: z.unknown().optional(),
  iscrowd: z.union([z.literal(0), z.literal(1)], { error: 'must be 0 or 1' }).optional(),
});

export const cocoInstancesSchema = z.looseObject({
  images: z.array(imageSchema, { error: 'must be an array of images' }),
  annotations: z.array(annotationSchema, { error: 'must be an array of annotations' }),
  categories: z.array(categorySchema, { error: 'must be an array of categories' }),
});

export type CocoImage = z.infer<typeof imageSchema>;
export type CocoCategory = z.infer<typeof categorySchema>;
export type CocoAnnotation = z.infer<typeof annotationSchema>;
export type CocoInstances = z.infer<typeof cocoInstancesSchema>;

/** The first few schema problems, each as `field.path: message`. */
function describeIssues(error: z.ZodError): string {
  const shown = error.issues.slice(0, 3).map((i) => `${i.path.length ? i.path.join('.') : '(top level)'}: ${i.message}`);
  const more = error.issues.length > 3 ? ` (and ${error.issues.length - 3} more)` : '';
  return shown.join('; ') + more;
}

/** The first id that occurs twice in `items`, if any. */
function firstDuplicateId(items: ReadonlyArray<{ id: number }>): number | undefined {
  const seen = new Set<number>();
  for (const { id: value } of items) {
    if (seen.has(value)) return value;
    seen.add(value);
  }
  return undefined;
}

/** Validates parsed JSON as COCO instances data; `fileName` is only for the messages. */
export function parseCocoInstances(json: unknown, fileName: string): CocoInstances {
  if (typeof json !== 'object' || json === null || Array.isArray(json)) {
    throw new CocoFormatError(fileName, `the top level is ${Array.isArray(json) ? 'an array' : String(json === null ? 'null' : typeof json)}, not an object`);
  }
  const missing = ['images', 'annotations', 'categories'].filter((key) => !(key in json));
  if (missing.length > 0) {
    throw new CocoFormatError(
      fileName,
      `no ${missing.map((k) => `"${k}"`).join(', ')} field (found ${Object.keys(json).slice(0, 8).join(', ') || 'no fields'})`,
    );
  }
  const result = cocoInstancesSchema.safeParse(json);
  if (!result.success) throw new CocoFormatError(fileName, describeIssues(result.error));
  const data = result.data;
  // Ids are how annotations point at images and categories: a repeated one is ambiguous.
  const imageDup = firstDuplicateId(data.images);
  if (imageDup !== undefined) throw new CocoFormatError(fileName, `image id ${imageDup} occurs more than once in "images"`);
  const categoryDup = firstDuplicateId(data.categories);
  if (categoryDup !== undefined) throw new CocoFormatError(fileName, `category id ${categoryDup} occurs more than once in "categories"`);
  if (data.categories.length === 0) throw new CocoFormatError(fileName, '"categories" is empty: there is nothing to segment');
  if (data.categories.length > 255) {
    throw new CocoFormatError(fileName, `${data.categories.length} categories; a uint8 class mask holds at most 255 plus background`);
  }
  return data;
}

/** File signatures worth naming: a COCO user who passes one of these swapped or mistyped a path. */
const SIGNATURES: ReadonlyArray<readonly [string, readonly number[]]> = [
  ['a JPEG image', [0xff, 0xd8, 0xff]],
  ['a PNG image', [0x89, 0x50, 0x4e, 0x47]],
  ['a gzip file', [0x1f, 0x8b]],
  ['a zip file', [0x50, 0x4b, 0x03, 0x04]],
];

/** Why `bytes` cannot be JSON text at all, or null: a NUL byte never occurs in UTF-8 JSON. */
function binaryProblem(bytes: Uint8Array): string | null {
  if (!bytes.subarray(0, 65_536).includes(0)) return null;
  const head = [...bytes.subarray(0, 8)].map((b) => b.toString(16).padStart(2, '0')).join(' ');
  const kind = SIGNATURES.find(([, magic]) => magic.every((b, i) => bytes[i] === b))?.[0];
  return `a binary file, not JSON text (it starts with bytes ${head}${kind ? `: ${kind}` : ''})`;
}

/** Reads and validates a COCO instances JSON file. */
export async function readCocoInstances(path: string): Promise<CocoInstances> {
  let bytes: Buffer;
  try {
    bytes = await readRegularFile(path);
  } catch (error) {
    // A FIFO or a device is never opened (it could block or never end): named as what it is.
    if (error instanceof NotRegularFileError) throw new CocoFormatError(path, `${error.reason}, so not read; name the annotations file`);
    throw new CocoFormatError(path, `cannot read it (${(error as NodeJS.ErrnoException).code ?? String(error)})`);
  }
  const binary = binaryProblem(bytes);
  if (binary) throw new CocoFormatError(path, binary);
  let json: unknown;
  try {
    json = JSON.parse(bytes.toString('utf8'));
  } catch (error) {
    throw new CocoFormatError(path, `not valid JSON, the file is corrupt or truncated (${(error as Error).message})`);
  }
  return parseCocoInstances(json, path);
}

/** Categories sorted by id: class index = 1 + position (0 = background), as a class map. */
export function classIndexByCategory(categories: readonly CocoCategory[]): Map<number, number> {
  const sorted = [...categories].sort((a, b) => a.id - b.id);
  return new Map(sorted.map((c, i) => [c.id, i + 1]));
}
