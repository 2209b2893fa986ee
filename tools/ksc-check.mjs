// Compiles every spec given on the command line with Kaitai Struct's own compiler (to Python), so
// each spec stays valid Kaitai. Prints one line per file; exits 1 if any file fails. With
// `--write`, also writes the compiled Python beside each spec (for tests that read with it).
import { createRequire } from 'node:module';
import fs from 'node:fs';
import path from 'node:path';
const require = createRequire(import.meta.url);
const ksc = require('kaitai-struct-compiler');
const yaml = require('js-yaml');

const args = process.argv.slice(2);
const write = args.includes('--write');
let failed = 0;
for (const file of args.filter((a) => a !== '--write')) {
  try {
    const spec = yaml.load(fs.readFileSync(file, 'utf8'));
    const out = await ksc.compile('python', spec, null, false);
    if (write) {
      for (const [name, text] of Object.entries(out)) {
        fs.writeFileSync(path.join(path.dirname(file), name), text);
      }
    }
    console.log(`ok ${file} -> ${Object.keys(out).join(', ')}`);
  } catch (e) {
    failed++;
    console.log(`FAIL ${file}: ${String(e).replace(/\s+/g, ' ')}`);
  }
}
process.exit(failed ? 1 : 0);
