// `gtp doctor --browser chromium`'s page (run by vitest's browser mode in one Chromium launch, as
// perf's browser runs are): asks Node for doctor's upload sizes, finds what the page offers
// (page.ts) and hands it back. It asserts nothing: what it found, missing APIs included, is the
// finding, and Node judges it (src/doctor/browser-section.ts).
// Both backends load with the page, not when asked for (browser-start.ts imports each then): while
// Vite re-optimizes the page's dependencies (its config hash changed since the last browser run:
// another root, NODE_ENV), a late import was answered 'Failed to fetch dynamically imported
// module', which would read as that API missing (seen for both here).
import '@tensorflow/tfjs-backend-webgl';
import '@tensorflow/tfjs-backend-webgpu';
import { it } from 'vitest';
import { commands } from 'vitest/browser';
import type { PageFindings, PagePlan } from './findings.js';
import { pageFindings } from './page.js';

declare module 'vitest/browser' {
  interface BrowserCommands {
    /** Doctor's upload sizes of this run (src/cli/doctor/measure.ts). */
    gtpDoctorPlan: () => Promise<PagePlan>;
    /** What the page found, to Node. */
    gtpDoctorFindings: (findings: PageFindings) => Promise<void>;
    /** Why the page could not find it (an error it did not expect), to Node: said with the lost launch. */
    gtpDoctorFailed: (message: string) => Promise<void>;
  }
}

it('finds what this browser offers tfjs: WebGPU adapter and limits, WebGPU and WebGL started or why not, upload rates', async () => {
  let findings: PageFindings;
  try {
    findings = await pageFindings(await commands.gtpDoctorPlan());
  } catch (error) {
    await commands.gtpDoctorFailed(error instanceof Error ? `${error.name}: ${error.message}` : String(error));
    throw error;
  }
  await commands.gtpDoctorFindings(findings);
});
