// Lays out the npm package as it is published, in a directory of its own (scripts/dist.sh packs it
// there): wasm/dist and the npm README from `npm run build`, the license files, and a package.json
// for users. That one drops the build scripts and devDependencies (they need the repository) and
// takes `repository` and `homepage` from the Rust crate's manifest, so the URL is written once
// (an npm manifest without them is what a crate without them gets too).
// usage: node scripts/release/npm-stage.mjs STAGE_DIR
import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const stage = process.argv[2];
if (!stage) throw new Error('usage: node scripts/release/npm-stage.mjs STAGE_DIR');
const LICENSES = ['LICENSE-MIT', 'LICENSE-APACHE'];

const manifest = JSON.parse(readFileSync(join(root, 'wasm', 'package.json'), 'utf8'));
const metadata = JSON.parse(execFileSync('cargo', ['metadata', '--format-version', '1', '--no-deps'],
  { cwd: root, maxBuffer: 64 << 20 }));
const crate = metadata.packages.find((p) => p.name === 'seeded-backoff');
if (crate.version !== manifest.version) {
  throw new Error(`wasm/package.json is ${manifest.version}, the crate ${crate.version}: one version`);
}
if (crate.license !== manifest.license) {
  throw new Error(`wasm/package.json's license is ${manifest.license}, the crate's ${crate.license}`);
}
delete manifest.scripts;
delete manifest.devDependencies;
manifest.files = [...new Set([...manifest.files, ...LICENSES])];
if (crate.repository) manifest.repository = { type: 'git', url: crate.repository };
if (crate.homepage ?? crate.repository) manifest.homepage = crate.homepage ?? crate.repository;

rmSync(stage, { recursive: true, force: true });
mkdirSync(stage, { recursive: true });
cpSync(join(root, 'wasm', 'dist'), join(stage, 'dist'), { recursive: true });
// wasm/README.md less its lines for a clone of the repository (how to build the package), which
// a reader of the registry page or of node_modules cannot use.
const readme = readFileSync(join(root, 'wasm', 'README.md'), 'utf8');
const published = readme.replace(/<!-- clone -->[\s\S]*?<!-- end clone -->\n+/g, '');
if (published.includes('<!--')) throw new Error('wasm/README.md has an unmatched <!-- clone --> marker');
writeFileSync(join(stage, 'README.md'), published);
for (const name of LICENSES) cpSync(join(root, name), join(stage, name));
writeFileSync(join(stage, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);
