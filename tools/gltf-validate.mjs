// Validates .glb/.gltf files with Khronos' glTF-Validator. Prints the number of errors and
// warnings per file (and each error); exits 1 if any file has an error.
import { createRequire } from 'node:module';
import fs from 'node:fs';
import path from 'node:path';
const require = createRequire(import.meta.url);
const validator = require('gltf-validator');

let failed = 0;
for (const file of process.argv.slice(2)) {
  const data = new Uint8Array(fs.readFileSync(file));
  const report = await validator.validateBytes(data, {
    uri: path.basename(file),
    externalResourceFunction: (uri) =>
      Promise.resolve(new Uint8Array(fs.readFileSync(path.join(path.dirname(file), uri)))),
  });
  const i = report.issues;
  console.log(`${i.numErrors ? 'FAIL' : 'ok'} ${file}: ${i.numErrors} errors, ${i.numWarnings} warnings`);
  for (const m of i.messages) {
    if (m.severity === 0) console.log(`  error ${m.code} at ${m.pointer}: ${m.message}`);
  }
  if (i.numErrors) failed++;
}
process.exit(failed ? 1 : 0);
