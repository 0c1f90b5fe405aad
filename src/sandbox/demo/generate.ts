// Rewrites demoWorkspace.generated.ts from demo/: `npx tsx src/sandbox/demo/generate.ts`.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { readDemoWorkspace, renderDemoModule } from './readWorkspace';

export const DEMO_ROOT = path.join(__dirname, '..', '..', '..', 'demo');
export const DEMO_MODULE = path.join(__dirname, 'demoWorkspace.generated.ts');

if (require.main === module) {
  writeFileSync(DEMO_MODULE, renderDemoModule(readDemoWorkspace(DEMO_ROOT)));
  process.stderr.write(`wrote ${path.relative(process.cwd(), DEMO_MODULE)}\n`);
}
