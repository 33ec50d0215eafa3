import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

/**
 * The environment is read in one place, src/cli/args.ts (docs/usage.md: "read in one place, the
 * argument parser"), and handed on in the command line and the RunConfig. dependency-cruiser sees
 * imports, not property reads, so this test reads the source with the TypeScript compiler: every
 * `process.env` outside args.ts fails it, but forwarding the whole environment to a child
 * (`{ ...process.env }`), which names no variable.
 */
const SRC = fileURLToPath(new URL('.', import.meta.url));
const READER = 'cli/args.ts';

/**
 * The one access outside args.ts, by file (relative to src/) and variable; any other read in
 * that file fails too. It is no configuration: Dawn's Vulkan loader prints an error line when
 * XDG_RUNTIME_DIR is unset, so the process that loads Dawn sets one if none is set, for itself
 * and its children, whoever started it (the CLI, a plain vitest run, or a user's own code).
 */
const ALLOWED: Readonly<Record<string, readonly string[]>> = {
  'backend/webgpu.ts': ['XDG_RUNTIME_DIR'],
  // Likewise fontconfig prints an error line on a machine with no fonts.conf while sharp draws a chart.
  'report/fontconfig.ts': ['FONTCONFIG_FILE', 'FONTCONFIG_PATH', 'FONTCONFIG_SYSROOT'],
  // The doctor's filtered child learns from its parent that its stderr is filtered and when the command started: the harness's own hand-over.
  'cli/filtered-stderr.ts': ['GTP_STDERR_FILTERED', 'GTP_STARTED_AT_MS'],
  // TensorFlow's C library reads its log level when it loads: set (if the user has not) just before tfjs-node loads it, so its CPU-feature INFO lines stay off stderr.
  'backend/tensorflow.ts': ['TF_CPP_MIN_LOG_LEVEL'],
};

/** One read: where, and the variable it names ('*': the whole environment, e.g. passed as an argument). */
interface EnvRead {
  readonly line: number;
  readonly variable: string;
}

/** The `process.env` reads of one source text (a spread into an object literal is a forward, not a read). */
function envReads(fileName: string, text: string): EnvRead[] {
  const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true);
  const reads: EnvRead[] = [];
  const at = (node: ts.Node, variable: string) => reads.push({ line: source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1, variable });
  const isProcessEnv = (node: ts.Node): boolean =>
    (ts.isPropertyAccessExpression(node) && ts.isIdentifier(node.expression) && node.expression.text === 'process' && node.name.text === 'env') ||
    (ts.isElementAccessExpression(node) &&
      ts.isIdentifier(node.expression) &&
      node.expression.text === 'process' &&
      ts.isStringLiteralLike(node.argumentExpression) &&
      node.argumentExpression.text === 'env');
  const visit = (node: ts.Node): void => {
    // `import { env } from 'node:process'` reaches the same object by another name.
    if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier) && /^(node:)?process$/.test(node.moduleSpecifier.text)) {
      const bindings = node.importClause?.namedBindings;
      if (bindings && ts.isNamedImports(bindings)) {
        for (const element of bindings.elements) if ((element.propertyName ?? element.name).text === 'env') at(element, '*');
      }
    }
    if (isProcessEnv(node)) {
      const parent = node.parent;
      if (ts.isPropertyAccessExpression(parent) && parent.expression === node) at(node, parent.name.text);
      else if (ts.isElementAccessExpression(parent) && parent.expression === node)
        at(node, ts.isStringLiteralLike(parent.argumentExpression) ? parent.argumentExpression.text : '*');
      else if (ts.isVariableDeclaration(parent) && ts.isObjectBindingPattern(parent.name))
        for (const element of parent.name.elements) at(element, (element.propertyName ?? element.name).getText(source));
      else if (!ts.isSpreadAssignment(parent)) at(node, '*');
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return reads;
}

/** The harness's own source files, relative to src/: no tests or declarations. */
async function sourceFiles(): Promise<string[]> {
  const all = await readdir(SRC, { recursive: true });
  return all
    .map((path) => path.split('\\').join('/'))
    .filter((path) => path.endsWith('.ts') && !/\.(test|d)\.ts$/.test(path))
    .sort();
}

describe('environment variables (read in src/cli/args.ts only)', () => {
  it("no source file but src/cli/args.ts reads process.env (Dawn's runtime folder aside)", async () => {
    const outside: string[] = [];
    for (const path of await sourceFiles()) {
      if (path === READER) continue;
      const reads = envReads(path, await readFile(join(SRC, path), 'utf8'));
      for (const read of reads.filter((r) => !ALLOWED[path]?.includes(r.variable))) {
        outside.push(
          `src/${path}:${read.line} reads ${read.variable === '*' ? 'process.env' : read.variable}: read it in src/cli/args.ts and pass the value on`,
        );
      }
    }
    expect(outside).toEqual([]);
  });

  it('finds every way of reading, and lets a forward to a child pass', () => {
    const text = [
      'const a = process.env.PERF_A;',
      "const b = process.env['PERF_B'];",
      'const { PERF_C, D: renamed } = process.env;',
      'run(process.env);',
      "import { env } from 'node:process';",
      'spawn(cmd, args, { env: { ...process.env, EXTRA: "1" } });',
      'const copy = { ...process.env };',
    ].join('\n');
    expect(envReads('x.ts', text)).toEqual([
      { line: 1, variable: 'PERF_A' },
      { line: 2, variable: 'PERF_B' },
      { line: 3, variable: 'PERF_C' },
      { line: 3, variable: 'D' },
      { line: 4, variable: '*' },
      { line: 5, variable: '*' },
    ]);
  });
});
