/**
 * A taken port explained: which process listens on it (Linux: the listening socket's inode from
 * /proc/net/tcp{,6}, then the process whose /proc/<pid>/fd links to that socket) and a free port
 * nearby to offer instead. Everything here degrades gracefully: another platform, another user's
 * process or a /proc that cannot be read gives "unknown holder", never an error.
 */
import { readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { createServer } from 'node:net';
import { basename, join } from 'node:path';

/** The process found listening on a port. */
export interface PortHolder {
	/** Process id; undefined when the socket was found but its process is not visible (another user's). */
	pid?: number;
	/** Short description: the program and its script or first argument, never the whole command line. */
	command?: string;
	/** Numeric user id owning the socket. */
	uid?: number;
}

/** The port asked for is taken; says by whom and which port is free instead. */
export class PortInUseError extends Error {
	override readonly name = 'PortInUseError';
	readonly code = 'EADDRINUSE';
	constructor(
		readonly host: string,
		readonly port: number,
		readonly holder: PortHolder | undefined,
		readonly suggestedPort: number | undefined,
	) {
		super(portInUseMessage(host, port, holder, suggestedPort));
	}
}

/** "Port 24817 on 127.0.0.1 is already in use by process 123 (node sandbox.js)." and the way out. */
export function portInUseMessage(
	host: string,
	port: number,
	holder: PortHolder | undefined,
	suggestedPort: number | undefined,
): string {
	const suggestion =
		suggestedPort === undefined ? ' Choose another port.' : ` Port ${suggestedPort} is free: use it instead.`;
	return `Port ${port} on ${host} is already in use by ${describeHolder(holder)}.${suggestion}`;
}

export function describeHolder(holder: PortHolder | undefined): string {
	if (!holder) return 'another program';
	if (holder.pid === undefined) {
		return holder.uid === undefined ? 'another program' : `a process of another user (uid ${holder.uid})`;
	}
	const notes = [holder.command, holder.pid === process.pid ? 'this process' : undefined].filter(Boolean);
	return `process ${holder.pid}${notes.length > 0 ? ` (${notes.join(', ')})` : ''}`;
}

/** A listening socket from one line of /proc/net/tcp or tcp6. */
interface ListeningSocket {
	port: number;
	uid: number;
	inode: string;
}

/** The listening sockets of /proc/net/tcp-format text (state 0A = LISTEN). */
export function parseProcNetTcp(text: string): ListeningSocket[] {
	const sockets: ListeningSocket[] = [];
	for (const line of text.split('\n').slice(1)) {
		const fields = line.trim().split(/\s+/);
		if (fields.length < 10 || fields[3] !== '0A') continue;
		const portHex = fields[1].split(':')[1];
		if (!portHex) continue;
		sockets.push({ port: parseInt(portHex, 16), uid: Number(fields[7]), inode: fields[9] });
	}
	return sockets;
}

/** The program and its script (or first argument) from a NUL-separated /proc/<pid>/cmdline. */
export function describeCommandLine(cmdline: string): string | undefined {
	const args = cmdline.split('\0').filter((a) => a.length > 0);
	if (args.length === 0) return undefined;
	const program = basename(args[0]);
	// The first argument that is not an option, by its file name only: options may carry secrets.
	const script = args.slice(1).find((a) => !a.startsWith('-'));
	const text = script ? `${program} ${basename(script)}` : program;
	return text.length > 80 ? `${text.slice(0, 79)}…` : text;
}

function read(path: string): string | undefined {
	try {
		return readFileSync(path, 'utf8');
	} catch {
		return undefined;
	}
}

/** Who listens on `port` (any local address), or undefined when that cannot be found out. */
export function findPortHolder(port: number, procRoot = '/proc'): PortHolder | undefined {
	const sockets = [read(join(procRoot, 'net/tcp')), read(join(procRoot, 'net/tcp6'))]
		.flatMap((text) => (text ? parseProcNetTcp(text) : []))
		.filter((s) => s.port === port && s.inode !== '0');
	if (sockets.length === 0) return undefined;
	const links = new Set(sockets.map((s) => `socket:[${s.inode}]`));
	let pids: string[];
	try {
		pids = readdirSync(procRoot).filter((name) => /^\d+$/.test(name));
	} catch {
		return { uid: sockets[0].uid };
	}
	for (const pid of pids) {
		let fds: string[];
		try {
			fds = readdirSync(join(procRoot, pid, 'fd'));
		} catch {
			continue; // another user's process, or it just ended
		}
		for (const fd of fds) {
			let target: string;
			try {
				target = readlinkSync(join(procRoot, pid, 'fd', fd));
			} catch {
				continue;
			}
			if (links.has(target)) {
				const cmdline = read(join(procRoot, pid, 'cmdline'));
				return {
					pid: Number(pid),
					command: cmdline ? describeCommandLine(cmdline) : undefined,
					uid: sockets[0].uid,
				};
			}
		}
	}
	return { uid: sockets[0].uid };
}

/** True when a server can listen on host:port right now. */
export function isPortFree(host: string, port: number): Promise<boolean> {
	return new Promise((resolve) => {
		const probe = createServer();
		probe.once('error', () => resolve(false));
		probe.listen({ host, port, exclusive: true }, () => probe.close(() => resolve(true)));
	});
}

/** The first free port after `port` (up to `tries` of them), or undefined. */
export async function findFreePortNear(host: string, port: number, tries = 20): Promise<number | undefined> {
	for (let candidate = port + 1; candidate <= Math.min(65535, port + tries); candidate++) {
		if (await isPortFree(host, candidate)) return candidate;
	}
	return undefined;
}

/** Turns a listen error into a PortInUseError with the holder and a free port, or returns it unchanged. */
export async function explainListenError(error: unknown, host: string, port: number): Promise<unknown> {
	if ((error as NodeJS.ErrnoException | undefined)?.code !== 'EADDRINUSE' || port === 0) return error;
	return new PortInUseError(host, port, findPortHolder(port), await findFreePortNear(host, port));
}
