/**
 * A test CA and a server certificate it signed for 127.0.0.1 and localhost, made with the openssl
 * command in a temporary folder (nothing is downloaded; openssl comes with Debian), and an HTTPS
 * front for a sandbox, standing in for a live service in the proxy's tests.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RunningEmulator } from '../../src/emulator';

export interface TestCertificates {
	/** PEM of the CA, to trust (the proxy's `ca`, `--proxy-ca`, `multiposting.inspect.caFile`). */
	ca: string;
	caFile: string;
	key: string;
	cert: string;
	/** Removes the folder. */
	remove(): void;
}

export function makeCertificates(): TestCertificates {
	const dir = mkdtempSync(join(tmpdir(), 'mpw-certs-'));
	const openssl = (...args: string[]): void => {
		execFileSync('openssl', args, { cwd: dir, stdio: 'pipe' });
	};
	openssl(
		'req',
		'-x509',
		'-newkey',
		'rsa:2048',
		'-nodes',
		'-keyout',
		'ca.key',
		'-out',
		'ca.pem',
		'-days',
		'2',
		'-subj',
		'/CN=Multiposting Workbench test CA',
	);
	openssl(
		'req',
		'-newkey',
		'rsa:2048',
		'-nodes',
		'-keyout',
		'server.key',
		'-out',
		'server.csr',
		'-subj',
		'/CN=127.0.0.1',
	);
	writeFileSync(join(dir, 'server.ext'), 'subjectAltName=IP:127.0.0.1,DNS:localhost\nbasicConstraints=CA:FALSE\n');
	openssl(
		'x509',
		'-req',
		'-in',
		'server.csr',
		'-CA',
		'ca.pem',
		'-CAkey',
		'ca.key',
		'-CAcreateserial',
		'-out',
		'server.pem',
		'-days',
		'2',
		'-extfile',
		'server.ext',
	);
	return {
		ca: readFileSync(join(dir, 'ca.pem'), 'utf8'),
		caFile: join(dir, 'ca.pem'),
		key: readFileSync(join(dir, 'server.key'), 'utf8'),
		cert: readFileSync(join(dir, 'server.pem'), 'utf8'),
		remove: () => rmSync(dir, { recursive: true, force: true }),
	};
}

/** An HTTPS server on 127.0.0.1 in front of a running sandbox's own request listener. */
export async function httpsFront(
	sandbox: RunningEmulator,
	certificates: TestCertificates,
): Promise<{ server: Server; baseUrl: string; close(): Promise<void> }> {
	const listener = sandbox.server.listeners('request')[0] as Parameters<typeof createServer>[1];
	const server = createServer({ key: certificates.key, cert: certificates.cert }, listener);
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const { port } = server.address() as AddressInfo;
	return {
		server,
		baseUrl: `https://127.0.0.1:${port}`,
		close: () =>
			new Promise<void>((resolve) => {
				server.close(() => resolve());
				server.closeAllConnections();
			}),
	};
}
