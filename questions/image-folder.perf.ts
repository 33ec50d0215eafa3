// `gtp perf --image-folder DIR [--size HxW] [--fit resize|letterbox] [--batch N]
// [--mean R,G,B --std R,G,B]`: a real folder in torchvision's ImageFolder layout
// (DIR/<class>/<image>) end to end: decoded by sharp, resized or letterboxed, collated, and moved
// to the device both ways with the user's normalization (ImageNet's by default), as the COCO
// scenario does. A timed scenario: nothing about time is asserted.
import { describe, it } from 'vitest';
import { measureImageFolder, recordMetrics, useBackend, useConfig, useMediaSizes } from 'gpu-transfer-perf';

const config = useConfig();
const question = config.question?.kind === 'image-folder' ? config.question : null;

describe('your image folder: cpu-normalize vs device-normalize', () => {
  it(`reads ${question?.root ?? '(no --image-folder)'} end to end and moves its batches both ways`, async ({ task }) => {
    if (!question) throw new Error('questions/image-folder.perf.ts runs through `gtp perf --image-folder DIR`; no folder was given');
    await recordMetrics(task, ...(await measureImageFolder(await useBackend(), question, useMediaSizes().coco)));
  });
});
