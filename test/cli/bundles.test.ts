/**
 * The shipped command lines, as bundled (dist/sandbox.js, dist/multiposting-test.js), start and work
 * on the Node that runs this test: Node 24 in `npm run test:integration`, Node 22.17 (the oldest one
 * engines.node allows) in `npm run test:node22`. Neither prints a warning: Node 22 calls node:sqlite
 * experimental, which the sandbox keeps quiet.
 */
import * as assert from 'node:assert/strict';
import { execFile, execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const ROOT = join(__dirname, '..', '..', '..');
const SANDBOX = join(ROOT, 'dist', 'sandbox.js');
const RUNNER = join(ROOT, 'dist', 'multiposting-test.js');

describe(`the bundled command lines on Node ${process.versions.node}`, function () {
	this.timeout(180_000);
	let folder: string;

	before(() => {
		// Bundles of this very source, built by the project's own build.
		execFileSync(process.execPath, ['esbuild.mjs'], { cwd: ROOT, stdio: 'pipe' });
	});
	beforeEach(() => {
		folder = mkdtempSync(join(tmpdir(), 'mp-bundles-'));
	});
	afterEach(() => rmSync(folder, { recursive: true, force: true }));

	it('starts the sandbox on a data folder, answers, and stops on SIGTERM, without a warning', async () => {
		const child = spawn(process.execPath, [SANDBOX, '--port', '0', '--data', folder, '--size', 'small'], {
			stdio: ['ignore', 'pipe', 'pipe'],
		});
		let stdout = '';
		let stderr = '';
		child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
		child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
		const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
		const timer = setTimeout(() => child.kill('SIGKILL'), 120_000);
		try {
			const ready = await new Promise<{ postingWsdl: string }>((resolve, reject) => {
				child.stdout.on('data', () => {
					if (stdout.includes('\n')) resolve(JSON.parse(stdout.split('\n')[0]) as { postingWsdl: string });
				});
				void exited.then((code) => reject(new Error(`the sandbox exited with ${code}: ${stderr}`)));
			});
			const wsdl = await fetch(ready.postingWsdl);
			assert.equal(wsdl.status, 200);
			assert.match(await wsdl.text(), /<wsdl:definitions/);
			child.kill('SIGTERM');
			assert.equal(await exited, 0, stderr);
		} finally {
			clearTimeout(timer);
			child.kill('SIGKILL');
		}
		assert.doesNotMatch(stderr, /Warning/);
	});

	it('runs a request file against its own sandbox, without a warning', async () => {
		const result = await new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
			execFile(
				process.execPath,
				[RUNNER, '--size', 'small', join(ROOT, 'examples', 'feeds-and-quota.mpreq')],
				{ cwd: folder, timeout: 120_000 },
				(error, stdout, stderr) =>
					resolve({ code: error === null ? 0 : ((error as { code?: number }).code ?? null), stdout, stderr }),
			);
		});
		assert.equal(result.code, 0, result.stdout + result.stderr);
		assert.match(result.stdout, /passed/);
		assert.doesNotMatch(result.stderr, /Warning/);
	});
});
