import * as assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
	describeCommandLine,
	describeHolder,
	findFreePortNear,
	findPortHolder,
	isPortFree,
	parseProcNetTcp,
} from '../../../src/emulator/portHolder';

const HEADER = '  sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode\n';

describe('who holds a port', function () {
	this.timeout(20_000);

	it('reads listening sockets from /proc/net/tcp text and ignores connections', () => {
		const text =
			HEADER +
			'   0: 0100007F:6131 00000000:0000 0A 00000000:00000000 00:00000000 00000000  1000        0 12345 1 0 100 0 0 10 0\n' +
			'   1: 0100007F:C3A8 0100007F:6131 01 00000000:00000000 02:000005AE 00000000  1000        0 30683 2 0 22 4 0 18 -1\n';
		assert.deepEqual(parseProcNetTcp(text), [{ port: 0x6131, uid: 1000, inode: '12345' }]);
		assert.deepEqual(parseProcNetTcp(''), []);
	});

	it('describes a process by its program and script, never by its options', () => {
		assert.equal(
			describeCommandLine('/usr/bin/node\0--api-key=s3cret\0/home/u/app/dist/sandbox.js\0--port\0 24817\0'),
			'node sandbox.js',
		);
		assert.equal(describeCommandLine('python3\0'), 'python3');
		assert.equal(describeCommandLine(''), undefined);
		assert.equal(describeHolder({ pid: 12, command: 'node x.js' }), 'process 12 (node x.js)');
		assert.equal(describeHolder({ uid: 0 }), 'a process of another user (uid 0)');
		assert.equal(describeHolder(undefined), 'another program');
	});

	it('finds the process whose file descriptor links to the listening socket (fake /proc)', () => {
		const root = mkdtempSync(join(tmpdir(), 'mp-proc-'));
		try {
			mkdirSync(join(root, 'net'));
			writeFileSync(
				join(root, 'net', 'tcp'),
				HEADER +
					'   0: 0100007F:6131 00000000:0000 0A 00000000:00000000 00:00000000 00000000  1000        0 12345 1 0 100 0 0 10 0\n',
			);
			// Process 5 is someone else's (no fd folder readable); process 77 holds the socket.
			mkdirSync(join(root, '5'));
			mkdirSync(join(root, '77', 'fd'), { recursive: true });
			symlinkSync('/dev/null', join(root, '77', 'fd', '0'));
			symlinkSync('socket:[12345]', join(root, '77', 'fd', '3'));
			writeFileSync(join(root, '77', 'cmdline'), 'java\0-jar\0/opt/wiremock.jar\0');
			assert.deepEqual(findPortHolder(0x6131, root), { pid: 77, command: 'java wiremock.jar', uid: 1000 });
			assert.equal(findPortHolder(9, root), undefined, 'nobody listens on 9');
			rmSync(join(root, '77'), { recursive: true });
			assert.deepEqual(findPortHolder(0x6131, root), { uid: 1000 }, 'socket seen, process not visible');
			assert.equal(findPortHolder(0x6131, join(root, 'missing')), undefined, 'no /proc at all');
		} finally {
			rmSync(root, { recursive: true, force: true });
		}
	});

	it('names another process listening on a port, and finds a free port next to it', async function () {
		const child = spawn(
			process.execPath,
			[
				'-e',
				"require('node:net').createServer().listen(0,'127.0.0.1',function(){console.log(this.address().port)})",
			],
			{ stdio: ['ignore', 'pipe', 'inherit'] },
		);
		try {
			const port = await new Promise<number>((resolve) =>
				child.stdout.once('data', (chunk: Buffer) => resolve(Number(chunk.toString().trim()))),
			);
			assert.equal(await isPortFree('127.0.0.1', port), false);
			const holder = findPortHolder(port);
			if (process.platform === 'linux') {
				assert.equal(holder?.pid, child.pid);
				assert.match(holder?.command ?? '', /^node/);
			} else {
				assert.equal(holder, undefined, 'no /proc: the holder is unknown');
			}
			const free = await findFreePortNear('127.0.0.1', port);
			assert.ok(free !== undefined && free > port && free <= port + 20);
			const probe = createServer();
			await new Promise<void>((resolve) => probe.listen(free, '127.0.0.1', resolve));
			probe.close();
		} finally {
			child.kill();
		}
	});
});
