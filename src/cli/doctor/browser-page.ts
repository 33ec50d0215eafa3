/**
 * `gtp doctor --browser`'s one launch: doctor's page (src/doctor/browser/doctor.perf.ts) run by
 * vitest's browser mode as perf's browser processes are (runner/run-scenarios.ts
 * openScenarioSession, runner/browser-process.ts runBrowserProcess: the same flags, deadline and
 * crash detection), with two page commands: the plan in, the findings out.
 */
import { fileURLToPath } from 'node:url';
import type { BrowserOutcome } from '../../doctor/browser-section.js';
import type { PageFindings, PagePlan } from '../../doctor/browser/findings.js';
import type { BrowserLaunch } from '../../runner/browser.js';
import type { ScenarioFile } from '../../runner/scenarios.js';

/** The page file: src/doctor/browser/ here, dist/doctor/browser/ in the built package (package.json "files": dist/**\/*.js). */
const PAGE: ScenarioFile = {
  number: null,
  id: 'doctor-browser',
  kind: 'perf',
  path: fileURLToPath(new URL(`../../doctor/browser/doctor.perf.${import.meta.url.endsWith('.ts') ? 'ts' : 'js'}`, import.meta.url)),
};

/** Runs doctor's page once in `browser`: what it found, or why it found nothing (crashed, hung past --browser-timeout, or failed before reporting). */
export async function runDoctorPage(browser: BrowserLaunch, plan: PagePlan): Promise<BrowserOutcome> {
  const { openScenarioSession } = await import('../../runner/run-scenarios.js');
  const { runBrowserProcess } = await import('../../runner/browser-process.js');
  const { ProcessLostError } = await import('../../runner/process-lost.js');
  const { defaultRunConfig } = await import('../../run-config.js');
  const got: { findings: PageFindings | null; failed: string | null } = { findings: null, failed: null };
  const commands = {
    gtpDoctorPlan: () => plan,
    gtpDoctorFindings: (_context: unknown, found: PageFindings) => {
      got.findings = found;
    },
    gtpDoctorFailed: (_context: unknown, message: string) => {
      got.failed = message;
    },
  };
  const config = defaultRunConfig({ backend: 'auto', requireBackend: null, scale: 'quick' });
  const session = await openScenarioSession([PAGE], config, { quiet: true, browser, commands });
  try {
    await runBrowserProcess(session, browser, "doctor's page");
  } catch (error) {
    if (error instanceof ProcessLostError) return { lost: error.message };
    throw error;
  } finally {
    await session.close();
  }
  if (got.findings) return { findings: got.findings };
  const said = got.failed ?? [...session.fileErrors(), ...session.unhandledErrors()][0]?.split('\n')[0];
  return { lost: `the page ended without its findings${said ? ` (it said: ${said})` : ''}` };
}
