/**
 * Where a CPU profile (node --cpu-prof) spends its time: self time per function and per area of the
 * code, with bundle positions mapped back to their source files through the bundle's source map.
 */
import { existsSync, readFileSync } from 'node:fs';
import { SourceMap } from 'node:module';

interface ProfileNode {
	id: number;
	callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number };
}

interface CpuProfile {
	startTime: number;
	nodes: ProfileNode[];
	samples: number[];
	timeDeltas: number[];
}

/** Self time of one function. */
export interface FunctionTime {
	name: string;
	/** Source file and line (after the source map), or the script's URL. */
	where: string;
	area: string;
	/** Share of busy time (idle excluded). */
	share: number;
}

export interface ProfileSummary {
	busyMs: number;
	idleShare: number;
	/** Areas by share of busy time, largest first. */
	areas: { area: string; share: number }[];
	top: FunctionTime[];
}

/** The area of the code a source file or frame belongs to. */
function areaOf(name: string, source: string): string {
	if (name === '(garbage collector)') return 'garbage collection';
	if (name === '(program)') return 'V8 and native code outside JavaScript';
	if (
		source === '' &&
		/^(rmdir|mkdir|unlink|fsync|fdatasync|open|close|read|write|writeBuffer|writeString|fstat|stat|lstat|ftruncate|existsSync|access)(Sync)?$/.test(
			name,
		)
	) {
		return 'file system calls (fsync, reads and writes)';
	}
	// node:sqlite's functions are native: V8 counts their time to the script frame calling them, which
	// is the statement cache's or the engine adapter's (a row of plain columns is built natively too).
	if (
		source === 'node:sqlite' ||
		/^(all|get|run|iterate|prepare|exec)$/.test(name) ||
		/src\/emulator\/store\/(statements|engine)\.ts$/.test(source)
	) {
		return 'SQLite (node:sqlite, with its statement cache)';
	}
	if (/src\/protocol\//.test(source)) return 'XML and codecs (src/protocol)';
	if (/src\/emulator\/store\//.test(source)) return 'store (src/emulator/store)';
	if (/src\/emulator\/domain\//.test(source)) return 'operations (src/emulator/domain)';
	if (/src\/emulator\//.test(source)) return 'HTTP pipeline and server (src/emulator)';
	if (/^node:(internal\/)?(fs|.*\/fs)/.test(source) || source.includes('internal/fs')) return 'node:fs';
	if (/^node:/.test(source)) return 'Node internals (HTTP, sockets, streams, timers)';
	if (source === '') return 'native (no script)';
	return `other (${source.replace(/^.*node_modules\//, '')})`;
}

/**
 * Summarises a .cpuprofile; `sourceMapPath` maps bundle positions back to source files. `window`
 * (microseconds of process.hrtime, the clock V8's profiles use) keeps only the samples taken in it,
 * e.g. while a load ran, leaving out start-up and seeding.
 */
export function summariseProfile(
	profilePath: string,
	sourceMapPath?: string,
	window?: { fromUs: number; toUs: number },
	topCount = 12,
): ProfileSummary {
	const profile = JSON.parse(readFileSync(profilePath, 'utf8')) as CpuProfile;
	const map =
		sourceMapPath && existsSync(sourceMapPath)
			? new SourceMap(
					JSON.parse(readFileSync(sourceMapPath, 'utf8')) as ConstructorParameters<typeof SourceMap>[0],
				)
			: undefined;
	const selfUs = new Map<number, number>();
	let at = profile.startTime;
	profile.samples.forEach((id, i) => {
		const delta = profile.timeDeltas[i] ?? 0;
		at += delta;
		if (window && (at < window.fromUs || at > window.toUs)) return;
		selfUs.set(id, (selfUs.get(id) ?? 0) + delta);
	});
	let busy = 0;
	let idle = 0;
	const byFunction = new Map<string, { name: string; where: string; area: string; us: number }>();
	for (const node of profile.nodes) {
		const us = selfUs.get(node.id) ?? 0;
		if (us === 0) continue;
		const frame = node.callFrame;
		if (frame.functionName === '(idle)') {
			idle += us;
			continue;
		}
		busy += us;
		let source = frame.url;
		let line = frame.lineNumber + 1;
		if (map && frame.url.endsWith('.js') && !frame.url.startsWith('node:')) {
			const entry = map.findEntry(frame.lineNumber, frame.columnNumber) as {
				originalSource?: string;
				originalLine?: number;
			};
			if (entry.originalSource) {
				source = entry.originalSource;
				line = (entry.originalLine ?? 0) + 1;
			}
		}
		const shortSource = source.replace(/^.*?(src\/|node_modules\/)/, '$1');
		const name = frame.functionName || '(anonymous)';
		const where = shortSource ? `${shortSource}:${line}` : '';
		const key = `${name}@${where}`;
		const entry = byFunction.get(key) ?? { name, where, area: areaOf(name, source), us: 0 };
		entry.us += us;
		byFunction.set(key, entry);
	}
	const areas = new Map<string, number>();
	for (const entry of byFunction.values()) areas.set(entry.area, (areas.get(entry.area) ?? 0) + entry.us);
	return {
		busyMs: busy / 1000,
		idleShare: idle / Math.max(1, busy + idle),
		areas: [...areas.entries()]
			.map(([area, us]) => ({ area, share: us / Math.max(1, busy) }))
			.sort((a, b) => b.share - a.share),
		top: [...byFunction.values()]
			.sort((a, b) => b.us - a.us)
			.slice(0, topCount)
			.map((entry) => ({
				name: entry.name,
				where: entry.where,
				area: entry.area,
				share: entry.us / Math.max(1, busy),
			})),
	};
}
