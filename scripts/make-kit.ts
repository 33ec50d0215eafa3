/**
 * `npm run kit`: builds dist/gpu-transfer-perf-kit-<version>-<platform>-<arch>.tar.gz, a folder
 * that runs doctor and the perf suite on a machine with only Node >= 20 (see scripts/kit/KIT.md).
 */
import { relative } from 'node:path';
import { buildKit } from '../src/kit/build.js';

const MB = 1e6;
const kit = await buildKit(process.cwd(), 'dist');
console.log(
  `kit: ${relative(process.cwd(), kit.archive)}: ${(kit.archiveBytes / MB).toFixed(1)} MB (${(kit.unpackedBytes / MB).toFixed(0)} MB unpacked, ${kit.files.toLocaleString('en-US')} files) in ${kit.seconds.toFixed(1)} s`,
);
console.log(`run it: tar -xzf ${kit.name}.tar.gz && cd ${kit.name} && ./run`);
