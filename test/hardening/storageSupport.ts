/** Runs the storage child process (storageChild.ts) for the storage hardening tests. */
import * as assert from 'node:assert/strict';
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, realpathSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { openSandbox } from '../../src/emulator/sandbox';
import type { ChildTask } from './storageChild';

const CHILD = join(__dirname, 'storageChild.js');
const SHIM_SOURCE = join(__dirname, '../../../test/hardening/faultShim.c');
const SHIM = join(__dirname, 'faultShim.so');

/**
 * The fault shim (faultShim.c), built on first use with the system's C compiler. It works on Linux
 * (LD_PRELOAD, /proc/self/fd), where the project's tests run.
 */
function faultShim(): string {
	if (existsSync(SHIM) && statSync(SHIM).mtimeMs >= statSync(SHIM_SOURCE).mtimeMs) return SHIM;
	try {
		execFileSync('cc', ['-shared', '-fPIC', '-O2', '-Wall', '-o', SHIM, SHIM_SOURCE, '-ldl'], { stdio: 'pipe' });
	} catch (error) {
		throw new Error(
			`The storage tests inject file-system faults with ${SHIM_SOURCE}, built by a C compiler (cc), ` +
				`which failed or is missing (on Debian: apt-get install build-essential): ${(error as Error).message}`,
			{ cause: error },
		);
	}
	return SHIM;
}

/** The folder's path as the kernel names its files (/proc/self/fd), for the shim; the folder itself may not exist yet. */
function kernelPath(dir: string): string {
	return join(realpathSync(dirname(dir)), basename(dir));
}

interface ChildResult {
	lines: string[];
	code: number | null;
	signal: NodeJS.Signals | null;
	stderr: string;
}

/** Runs the storage child to its end (bounded: killed after 120 s). */
export function runChild(task: ChildTask, onLine?: (line: string, child: ChildProcess) => void): Promise<ChildResult> {
	const controlDir = mkdtempSync(join(tmpdir(), 'mp-fault-'));
	const env = {
		...process.env,
		LD_PRELOAD: faultShim(),
		MP_FAULT_DIR: kernelPath(task.dataDir),
		MP_FAULT_CONTROL: join(realpathSync(controlDir), 'control'),
	};
	return new Promise((resolve) => {
		const child = spawn(process.execPath, [CHILD, JSON.stringify(task)], { stdio: ['pipe', 'pipe', 'pipe'], env });
		const lines: string[] = [];
		let stdout = '';
		let stderr = '';
		const timer = setTimeout(() => child.kill('SIGKILL'), 120_000);
		child.stdout.on('data', (chunk: Buffer) => {
			stdout += chunk.toString();
			let end: number;
			while ((end = stdout.indexOf('\n')) >= 0) {
				const line = stdout.slice(0, end);
				stdout = stdout.slice(end + 1);
				lines.push(line);
				onLine?.(line, child);
			}
		});
		child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
		child.on('exit', (code, signal) => {
			clearTimeout(timer);
			rmSync(controlDir, { recursive: true, force: true });
			resolve({ lines, code, signal, stderr });
		});
	});
}

/** What the bookkeeping transactions left, read through the product's own open (recovery included). */
function committedState(dataDir: string): {
	notes: number[];
	texts: Set<string>;
	scores: Set<number>;
	integrity: string;
} {
	const sandbox = openSandbox({ dataDir, passwordCost: 1024 });
	try {
		let state = { notes: [] as number[], texts: new Set<string>(), scores: new Set<number>(), integrity: '' };
		sandbox.store.bulkLoad((_prepare, query) => {
			const notes = query("SELECT body FROM note WHERE subject = 'crash test' ORDER BY id") as { body: string }[];
			const rows = query(
				'SELECT DISTINCT processing_messages AS text, score_extra AS score FROM application',
			) as {
				text: string | null;
				score: number;
			}[];
			const integrity = query('PRAGMA integrity_check') as { integrity_check: string }[];
			state = {
				notes: notes.map((note) => Number(note.body.slice(3))),
				texts: new Set(rows.map((row) => String(row.text))),
				scores: new Set(rows.map((row) => row.score)),
				integrity: integrity.map((row) => row.integrity_check).join('; '),
			};
		});
		return state;
	} finally {
		sandbox.close();
	}
}

/** Checks that exactly transactions 1..m committed, m being the last acknowledged one or the one in flight. */
export function assertLastCommitted(dataDir: string, acknowledged: number, inFlight: number | undefined): number {
	const state = committedState(dataDir);
	assert.equal(state.integrity, 'ok');
	const m = state.notes.length === 0 ? 0 : state.notes[state.notes.length - 1];
	assert.deepEqual(
		state.notes,
		Array.from({ length: m }, (_, i) => i + 1),
		'the notes are those of transactions 1..m, each once',
	);
	assert.ok(
		m === acknowledged || (inFlight !== undefined && m === inFlight),
		`committed ${m}, acknowledged ${acknowledged}`,
	);
	if (m > 0) {
		assert.deepEqual(
			[...state.texts],
			[`tx ${m} ${String(m).padStart(400, '0')}`],
			'every application has the text of transaction m',
		);
		assert.deepEqual([...state.scores], [m % 100]);
	}
	return m;
}
