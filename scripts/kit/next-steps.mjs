// The kit launcher's closing lines: what to run back in the repository with a kit run's folder.
// Plain JavaScript beside run.mjs (kit/next-steps.mjs in the kit); src/kit/next-steps.test.ts
// parses each command with the CLI's own parser, so every one named exists as typed.
import { readFileSync } from 'node:fs';

/** The profile id a run record names, or null when it cannot be read (then the envelope path says <profile>). */
export function recordProfile(record) {
  try {
    const id = JSON.parse(readFileSync(record, 'utf8'))?.profile?.id;
    return typeof id === 'string' && id.length > 0 ? id : null;
  } catch {
    return null;
  }
}

/**
 * The commands, as typed in the repository (`npm run gtp -- <command>`), for the run's folder
 * `dir`, its record and its profile: [command, what it does] pairs.
 */
export function nextCommands(dir, record, profile) {
  const folder = dir.endsWith('/') ? dir : `${dir}/`;
  return [
    [`npm run gtp -- compare ${record}`, "judge it against its profile's baseline"],
    [`npm run gtp -- baseline ${record}`, "accept it as its profile's baseline"],
    [`npm run gtp -- doctor --write-envelope baselines/${profile ?? '<profile>'}.doctor.json --from ${folder}`, "its profile's doctor envelope"],
    [`npm run gtp -- report ${record}`, "rebuild its HTML report, with the doctor reports' upload references"],
  ];
}

/** The closing text: bring the folder back, then these commands, aligned. */
export function nextSteps(dir, record, profile) {
  const commands = nextCommands(dir, record, profile);
  const width = Math.max(...commands.map(([c]) => c.length));
  return [`Bring ${dir}/ back to the repository, then:`, ...commands.map(([c, what]) => `  ${c.padEnd(width)}  # ${what}`)].join('\n');
}
