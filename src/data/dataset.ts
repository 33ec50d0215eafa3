/** Images as raw bytes plus one label per image; the shape every loader in src/data returns. */
export interface ImageDataset {
  /** count*height*width*channels bytes, each image stored HWC, images back to back. */
  readonly images: Uint8Array;
  /** One class label per image. */
  readonly labels: Uint8Array;
  readonly count: number;
  readonly height: number;
  readonly width: number;
  readonly channels: number;
  /** Human-readable: where the data came from (package name, file paths). */
  readonly source: string;
}

function checkDimension(name: string, value: number, min: number): void {
  if (!Number.isSafeInteger(value) || value < min) {
    throw new RangeError(`ImageDataset: ${name} must be an integer >= ${min}, got ${value}`);
  }
}

/** An ImageDataset after checking that the byte and label counts match the declared shape. */
export function makeImageDataset(fields: ImageDataset): ImageDataset {
  const { images, labels, count, height, width, channels, source } = fields;
  checkDimension('count', count, 0);
  checkDimension('height', height, 1);
  checkDimension('width', width, 1);
  checkDimension('channels', channels, 1);
  const expectedBytes = count * height * width * channels;
  if (images.length !== expectedBytes) {
    throw new RangeError(
      `ImageDataset from ${source}: images holds ${images.length} bytes, but ` +
        `${count}x${height}x${width}x${channels} needs ${expectedBytes}`,
    );
  }
  if (labels.length !== count) {
    throw new RangeError(`ImageDataset from ${source}: ${labels.length} labels for ${count} images`);
  }
  // Copy the fields so a caller's object (maybe with extra properties) is not aliased.
  return Object.freeze({ images, labels, count, height, width, channels, source });
}
