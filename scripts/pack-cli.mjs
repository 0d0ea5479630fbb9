// Builds the publishable package of the two command-line tools, multiposting-test and
// multiposting-sandbox (packages/cli): the CLIs bundled self-contained into out/cli-package/dist with
// what they load at run time, the manifest of packages/cli with the root's version, then npm pack.
// Prints the tarball's path. Usage: node scripts/pack-cli.mjs [--out <folder>] (default out/).
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const outIndex = process.argv.indexOf('--out');
const out = resolve(root, outIndex > 0 ? process.argv[outIndex + 1] : 'out');
const stage = join(out, 'cli-package');

rmSync(stage, { recursive: true, force: true });
mkdirSync(stage, { recursive: true });
execFileSync(process.execPath, ['esbuild.mjs', `--cli-package=${stage}`], { cwd: root, stdio: 'inherit' });

const manifest = JSON.parse(readFileSync(join(root, 'packages/cli/package.json'), 'utf8'));
manifest.version = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).version;
writeFileSync(join(stage, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);
copyFileSync(join(root, 'packages/cli/README.md'), join(stage, 'README.md'));
copyFileSync(join(root, 'LICENSE'), join(stage, 'LICENSE'));

// npm pack prints the tarball's file name last; --json gives it without guessing.
const packed = JSON.parse(
	execFileSync('npm', ['pack', '--json', '--pack-destination', out], {
		cwd: stage,
		encoding: 'utf8',
		env: { ...process.env, npm_config_update_notifier: 'false', npm_config_fund: 'false' },
	}),
);
console.log(join(out, packed[0].filename));
