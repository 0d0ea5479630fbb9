/**
 * The SQLite engine (node-sqlite3-wasm) and the check that it carries the project's correction of its
 * file layer (scripts/sqlite-vfs-patch.cjs). Without it a crash can leave uncommitted pages in the
 * database file for good, so a database file is never opened by an engine that lacks it.
 */
import * as engine from 'node-sqlite3-wasm';

/** The patch version this code was written against (PATCH_VERSION of scripts/sqlite-vfs-patch.cjs). */
export const REQUIRED_VFS_PATCH = 2;

/** The patch version the loaded engine carries, or undefined. */
export function loadedVfsPatch(): number | undefined {
	const value = (engine as unknown as { multipostingVfsPatch?: unknown }).multipostingVfsPatch;
	return typeof value === 'number' ? value : undefined;
}

/** Throws a clear error unless the loaded engine carries the required patch. */
export function assertEngineReady(): void {
	const found = loadedVfsPatch();
	if (found === REQUIRED_VFS_PATCH) return;
	throw new Error(
		`The SQLite engine (node-sqlite3-wasm) lacks the crash-recovery fix of its file layer ` +
			`(patch ${found ?? 'none'}, this version needs ${REQUIRED_VFS_PATCH}). ` +
			'Run `npm install` (or `node scripts/sqlite-vfs-patch.cjs`) and rebuild; ' +
			'the sandbox does not open a database file without it.',
	);
}
