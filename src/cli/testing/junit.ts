import { type CaseResult, totals } from './results';

/**
 * The JUnit XML that CI test reporters read (Jenkins' junit step, GitLab's `artifacts:reports:junit`,
 * GitHub actions that publish test results): `testsuites` › one `testsuite` per action › one
 * `testcase` per input set, a `failure` for a verdict of no and an `error` for a case that could not
 * run, the counts on each suite and on the whole, times in seconds.
 */
export function junitXml(results: readonly CaseResult[], options: { name: string; timestamp: Date; environment: string }): string {
  const suites = new Map<string, CaseResult[]>();
  for (const r of results) suites.set(r.action, [...(suites.get(r.action) ?? []), r]);
  const all = totals(results);
  const stamp = options.timestamp.toISOString().replace(/\.\d{3}Z$/, '');
  const lines = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites${attrs({ name: options.name, tests: all.tests, failures: all.failed, errors: all.errors, skipped: 0, time: seconds(all.time) })}>`,
  ];
  for (const [action, cases] of suites) {
    const t = totals(cases);
    lines.push(
      `  <testsuite${attrs({ name: action, tests: t.tests, failures: t.failed, errors: t.errors, skipped: 0, time: seconds(t.time), timestamp: stamp })}>`,
    );
    lines.push(`    <properties>`, `      <property${attrs({ name: 'environment', value: options.environment })}/>`, `    </properties>`);
    for (const c of cases) {
      const open = `    <testcase${attrs({ name: c.name, classname: c.action.replace('/', '.'), file: c.file, time: seconds(c.duration ?? 0) })}`;
      const body: string[] = [];
      if (c.status === 'failed') body.push(`      <failure${attrs({ message: firstLine(c.message), type: 'AssertionError' })}>${text(fullText(c))}</failure>`);
      if (c.status === 'error') body.push(`      <error${attrs({ message: firstLine(c.message), type: 'Error' })}>${text(fullText(c))}</error>`);
      if (c.logs.length > 0) body.push(`      <system-out>${text(c.logs.join('\n'))}</system-out>`);
      if (body.length === 0) lines.push(`${open}/>`);
      else lines.push(`${open}>`, ...body, '    </testcase>');
    }
    lines.push('  </testsuite>');
  }
  lines.push('</testsuites>');
  return lines.join('\n') + '\n';
}

function fullText(c: CaseResult): string {
  return [c.message ?? '', c.detail ?? ''].filter(Boolean).join('\n\n');
}

function firstLine(message: string | undefined): string {
  return (message ?? '').split('\n')[0]!;
}

function seconds(ms: number): string {
  return (ms / 1000).toFixed(3);
}

function attrs(values: Record<string, string | number>): string {
  return Object.entries(values)
    .map(([name, value]) => ` ${name}="${attribute(String(value))}"`)
    .join('');
}

/** Characters XML 1.0 cannot carry at all (most C0 controls, lone surrogates, U+FFFE/U+FFFF) are dropped. */
function xmlChars(value: string): string {
  return value.replace(/[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu, '');
}

function text(value: string): string {
  return xmlChars(value).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

function attribute(value: string): string {
  return text(value).replace(/"/g, '&quot;').replace(/\n/g, '&#10;').replace(/\r/g, '&#13;').replace(/\t/g, '&#9;');
}
