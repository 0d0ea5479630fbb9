// The promise of packages/cli, checked as an integrator's CI would use it: the package is packed
// (scripts/pack-cli.mjs), installed with `npm install -g` into an empty temporary prefix and with npx,
// and run from an empty folder outside the repository, with nothing on PATH but Node and npm:
//   1. multiposting-sandbox started on port 0; multiposting-test runs a copy of examples/ against it
//      (--url, credentials from MP_* variables) and writes JUnit;
//   2. npx multiposting-test runs the same copy against a sandbox it starts itself (--env sandbox).
// Usage: node scripts/test-package.mjs [--node <path to another node binary>]   (npm run test:package)
import { execFileSync, spawn } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createInterface } from 'node:readline';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const nodeIndex = process.argv.indexOf('--node');
const nodeBinary = nodeIndex > 0 ? resolve(process.argv[nodeIndex + 1]) : process.execPath;

const temp = mkdtempSync(join(tmpdir(), 'multiposting-package-'));
const prefix = join(temp, 'global');
const work = join(temp, 'ci');
// Only Node (the one given), npm and the system's tools: not the repository's node_modules/.bin.
const npmDir = dirname(execFileSync('bash', ['-c', 'command -v npm'], { encoding: 'utf8' }).trim());
const env = {
	...process.env,
	PATH: [join(prefix, 'bin'), dirname(nodeBinary), npmDir, '/usr/bin', '/bin'].join(delimiter),
	npm_config_update_notifier: 'false',
	npm_config_fund: 'false',
	npm_config_audit: 'false',
	npm_config_cache: join(temp, 'npm-cache'),
};
for (const name of Object.keys(env)) if (name.startsWith('MP_')) delete env[name];

function step(text) {
	console.log(`== ${text}`);
}

function run(command, args, options = {}) {
	console.log(`$ ${command} ${args.join(' ')}`);
	execFileSync(command, args, { cwd: work, env, stdio: 'inherit', timeout: 300_000, ...options });
}

/** Starts the installed sandbox and resolves with its JSON line once it is ready. */
function startSandbox() {
	const child = spawn('multiposting-sandbox', ['--port', '0', '--size', 'small', '--data', join(temp, 'data')], {
		cwd: work,
		env,
		stdio: ['ignore', 'pipe', 'inherit'],
	});
	const ready = new Promise((resolvePromise, reject) => {
		const timer = setTimeout(
			() => reject(new Error('the sandbox did not print its JSON line within 60 s')),
			60_000,
		);
		child.once('error', reject);
		child.once('exit', (code) => reject(new Error(`the sandbox exited with ${code} before it was ready`)));
		createInterface({ input: child.stdout }).once('line', (line) => {
			clearTimeout(timer);
			resolvePromise(JSON.parse(line));
		});
	});
	return { child, ready };
}

let sandbox;
try {
	step(`node ${execFileSync(nodeBinary, ['--version'], { encoding: 'utf8' }).trim()} at ${nodeBinary}`);
	const tarball = execFileSync(process.execPath, [join(root, 'scripts/pack-cli.mjs')], {
		cwd: root,
		encoding: 'utf8',
		stdio: ['ignore', 'pipe', 'inherit'],
	})
		.trim()
		.split('\n')
		.pop();
	const packed = execFileSync('tar', ['tzf', tarball], { encoding: 'utf8' }).split('\n');
	const unexpected = packed.filter(
		(file) => file && !/^package\/(dist\/|package\.json$|README\.md$|LICENSE$)/.test(file),
	);
	if (unexpected.length > 0) throw new Error(`the tarball carries more than the CLIs: ${unexpected.join(', ')}`);
	step(`${tarball}: ${packed.filter(Boolean).length} files`);

	mkdirSync(work, { recursive: true });
	cpSync(join(root, 'examples'), join(work, 'examples'), { recursive: true });

	step('npm install -g (into an empty prefix), offline: the package has no dependencies');
	run('npm', ['install', '--global', '--prefix', prefix, '--offline', tarball]);
	run('multiposting-test', ['--help'], { stdio: ['ignore', 'ignore', 'inherit'] });

	step('multiposting-sandbox, then multiposting-test --url against it');
	sandbox = startSandbox();
	const ready = await sandbox.ready;
	run(
		'multiposting-test',
		['examples', '--url', ready.baseUrl, '--namespace', ready.namespace, '--junit', 'reports/url.xml'],
		{ env: { ...env, MP_API_KEY: ready.apiKey, MP_USERNAME: ready.username, MP_PASSWORD: ready.password } },
	);
	if (!readFileSync(join(work, 'reports/url.xml'), 'utf8').includes('failures="0" errors="0"')) {
		throw new Error('reports/url.xml does not report a clean run');
	}
	sandbox.child.kill();
	sandbox = undefined;

	step('npx multiposting-test against a sandbox it starts itself, with the examples environment');
	run('npx', [
		'--yes',
		'--offline',
		'--package',
		tarball,
		'multiposting-test',
		'examples',
		'--env',
		'sandbox',
		'--junit',
		'reports/npx.xml',
	]);
	if (!existsSync(join(work, 'reports/npx.xml'))) throw new Error('npx wrote no JUnit report');
	step('the package installs and runs from any folder');
} finally {
	sandbox?.child.kill();
	rmSync(temp, { recursive: true, force: true });
}
