/**
 * A large sandbox as users make it: the production CLI (dist/sandbox.js from `node esbuild.mjs
 * --production`) seeding `--size` into a fresh data folder, in its own process, timed from spawn to
 * the ready line it prints once the database is seeded, durable and open.
 */
import { execFileSync, spawn } from 'node:child_process';
import { copyFileSync, mkdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { SANDBOX_FILE_NAME } from '../src/emulator/sandbox';
import { openDatabase } from '../src/emulator/store/database';

const ROOT = join(__dirname, '..', '..');
/** Linux's clock ticks per second for /proc/<pid>/stat times (USER_HZ, 100 on every common kernel). */
const CLOCK_TICKS = 100;

export interface SeededSandbox {
	/** Wall time from spawn to the ready line. */
	ms: number;
	/** CPU time (user + system) of the sandbox process at that moment, or NaN where /proc is missing. */
	cpuMs: number;
	applications: number;
	adverts: number;
	sizeMb: number;
	/** The three lowest FeedIDs, for a destination filter. */
	feedIds: number[];
}

/**
 * Builds the production bundles and copies the sandbox CLI into `dir`, then puts
 * the development build back in dist/ for the rest of the tooling. Returns the CLI's path.
 */
export function shippedSandboxBundle(dir: string): string {
	execFileSync(process.execPath, ['esbuild.mjs', '--production'], { cwd: ROOT, stdio: 'ignore', timeout: 300_000 });
	try {
		mkdirSync(dir, { recursive: true });
		copyFileSync(join(ROOT, 'dist', 'sandbox.js'), join(dir, 'sandbox.js'));
	} finally {
		execFileSync(process.execPath, ['esbuild.mjs'], { cwd: ROOT, stdio: 'ignore', timeout: 300_000 });
	}
	return join(dir, 'sandbox.js');
}

/** Seeds `applications` (`--size`, adverts = applications / 20) into `dataDir` with the CLI, then stops it. */
export async function seedWithCli(bundle: string, dataDir: string, applications: number): Promise<SeededSandbox> {
	const size = applications === 1_000_000 ? 'large' : String(applications);
	const started = process.hrtime.bigint();
	const child = spawn(process.execPath, [bundle, '--size', size, '--data', dataDir, '--port', '0', '--seed', '1'], {
		stdio: ['ignore', 'pipe', 'ignore'],
	});
	const stopped = new Promise<void>((resolve) => child.once('exit', () => resolve()));
	let ms: number;
	let cpuMs: number;
	try {
		await new Promise<void>((resolve, reject) => {
			const timer = setTimeout(() => reject(new Error('the sandbox did not seed within 15 minutes')), 900_000);
			child.once('exit', (code) => {
				clearTimeout(timer);
				reject(new Error(`the sandbox exited with ${code} before it was ready`));
			});
			createInterface({ input: child.stdout! }).once('line', () => {
				clearTimeout(timer);
				resolve();
			});
		});
		ms = Number(process.hrtime.bigint() - started) / 1e6;
		cpuMs = cpuMsOf(child.pid);
	} finally {
		child.kill('SIGINT');
		const kill = setTimeout(() => child.kill('SIGKILL'), 30_000);
		await stopped;
		clearTimeout(kill);
	}
	const file = join(dataDir, SANDBOX_FILE_NAME);
	const db = openDatabase(file);
	try {
		const count = (sql: string) => Number((db.get(sql) as { n: number | bigint }).n);
		return {
			ms,
			cpuMs,
			applications: count('SELECT count(*) AS n FROM application'),
			adverts: count('SELECT count(*) AS n FROM advert'),
			sizeMb: statSync(file).size / 1e6,
			feedIds: (db.all('SELECT id FROM feed ORDER BY id LIMIT 3') as { id: number }[]).map((row) =>
				Number(row.id),
			),
		};
	} finally {
		db.close();
	}
}

/** utime + stime of a process from /proc/<pid>/stat (fields 14 and 15, counted after the command name). */
function cpuMsOf(pid: number | undefined): number {
	try {
		const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
		const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
		return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS;
	} catch {
		return NaN;
	}
}
