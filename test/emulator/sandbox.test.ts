import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openSandbox, SANDBOX_FILE_NAME } from '../../src/emulator/sandbox';

describe('sandbox database file', () => {
	let dir: string;
	const small = { demoSize: { adverts: 5, applications: 20 }, passwordCost: 1024 };

	beforeEach(() => {
		dir = mkdtempSync(join(tmpdir(), 'mpw-sandbox-'));
	});
	afterEach(() => rmSync(dir, { recursive: true, force: true }));

	function deadPid(): number {
		const child = spawnSync(process.execPath, ['-e', '0']);
		return child.pid ?? 999999;
	}

	it('recovers from a lock left by a process that was killed mid-write', () => {
		openSandbox({ dataDir: dir, ...small }).close();
		const file = join(dir, SANDBOX_FILE_NAME);
		mkdirSync(`${file}.lock`);
		writeFileSync(`${file}.owner`, String(deadPid()));
		const sandbox = openSandbox({ dataDir: dir, ...small });
		try {
			assert.equal(
				sandbox.handlers.GetCurrency(
					{ sAPIKey: sandbox.demo.apiKey },
					{ endpoint: 'posting', binding: 'soap11', baseUrl: 'http://127.0.0.1', now: new Date() },
				).length > 0,
				true,
			);
		} finally {
			sandbox.close();
		}
	});

	it('has one owner: a second sandbox on the folder is refused, naming the first, until the first closes', () => {
		const first = openSandbox({ dataDir: dir, ...small, owner: 'the first sandbox' });
		try {
			assert.throws(
				() => openSandbox({ dataDir: dir, ...small }),
				/The sandbox data folder .* is in use by this process \(the first sandbox, since /,
			);
			assert.ok(first.store.isOpen, 'the first keeps working');
		} finally {
			first.close();
		}
		openSandbox({ dataDir: dir, ...small }).close();
	});

	it('refuses to open a database whose lock is held by a running process', () => {
		openSandbox({ dataDir: dir, ...small }).close();
		const file = join(dir, SANDBOX_FILE_NAME);
		mkdirSync(`${file}.lock`);
		writeFileSync(`${file}.owner`, String(process.ppid));
		assert.throws(() => openSandbox({ dataDir: dir, ...small }), /in use by process/);
		assert.equal(existsSync(`${file}.lock`), true);
	});
});
