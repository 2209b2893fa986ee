// Compiles every spec given on the command line with Kaitai Struct's own compiler (to Python), so
// each spec stays valid Kaitai. Prints one line per file; exits 1 if any file fails.
import { createRequire } from 'node:module';
import fs from 'node:fs';
const require = createRequire(import.meta.url);
const ksc = require('kaitai-struct-compiler');
const yaml = require('js-yaml');

let failed = 0;
for (const file of process.argv.slice(2)) {
  try {
    const spec = yaml.load(fs.readFileSync(file, 'utf8'));
    const out = await ksc.compile('python', spec, null, false);
    console.log(`ok ${file} -> ${Object.keys(out).join(', ')}`);
  } catch (e) {
    failed++;
    console.log(`FAIL ${file}: ${String(e).replace(/\s+/g, ' ')}`);
  }
}
process.exit(failed ? 1 : 0);
