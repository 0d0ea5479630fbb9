/**
 * DNS rebinding: a web page on another site can have the browser resolve its own name to 127.0.0.1 and
 * then call the sandbox, but the browser still names that site in the Host header. The sandbox answers
 * only requests addressed to loopback names unless started with --allow-remote.
 */
import * as assert from 'node:assert/strict';
import { createServer, request, type IncomingMessage, type Server } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import type { AccessLogEntry, RunningEmulator } from '../../src/emulator';
import { isAllowedHostHeader, isLoopbackHost } from '../../src/emulator/hostCheck';
import { send } from '../emulator/server/helpers';
import { SANDBOX_START_TIMEOUT_MS, startSandbox } from '../integration/support';

describe('hardening: Host header (DNS rebinding)', function () {
	this.timeout(SANDBOX_START_TIMEOUT_MS + 30_000);
	let emulator: RunningEmulator;
	let port: number;
	const log: AccessLogEntry[] = [];
	before(async function () {
		this.timeout(SANDBOX_START_TIMEOUT_MS);
		emulator = await startSandbox({ size: 'small', passwordCost: 1024, logger: (entry) => log.push(entry) });
		port = Number(new URL(emulator.baseUrl).port);
	});
	after(() => emulator?.stop());

	const wsdl = (host: string) => send(`${emulator.postingWsdl}`, { headers: { host } });

	it('refuses other names with 403 on the endpoints, the WSDL and the web pages, and logs it without tokens', async () => {
		for (const host of [
			`evil.example:${port}`,
			'evil.example',
			`127.0.0.1.nip.io:${port}`,
			`[2001:db8::1]:${port}`,
		]) {
			const res = await wsdl(host);
			assert.equal(res.status, 403, host);
			assert.match(res.body, /answers only requests addressed to localhost or 127\.0\.0\.1/);
			assert.doesNotMatch(res.body, /<wsdl:definitions/);
		}
		const login = await send(`${emulator.baseUrl}/login/secret-one-time-token`, {
			headers: { host: 'evil.example' },
		});
		assert.equal(login.status, 403);
		const call = await send(`${emulator.postingUrl}/GetCurrency?sCultureID=en&sAPIKey=${emulator.demo.apiKey}`, {
			headers: { host: 'evil.example' },
		});
		assert.equal(call.status, 403);
		assert.doesNotMatch(call.body, /GBP/);
		const refused = log.filter((entry) => entry.status === 403);
		assert.ok(
			refused.some((entry) => entry.path === '/login/…'),
			JSON.stringify(refused),
		);
		assert.ok(!JSON.stringify(log).includes('secret-one-time-token'));
	});

	it('answers loopback names, with or without a port, and HTTP/1.0 requests without a Host header', async () => {
		for (const host of [
			`127.0.0.1:${port}`,
			`localhost:${port}`,
			'LOCALHOST',
			`sandbox.localhost:${port}`,
			`[::1]:${port}`,
			'127.1.2.3',
		]) {
			assert.equal((await wsdl(host)).status, 200, host);
		}
		const raw = await new Promise<string>((resolve, reject) => {
			const socket = connect(port, '127.0.0.1', () => socket.end('GET /SOAP/Posting.asmx?WSDL HTTP/1.0\r\n\r\n'));
			let text = '';
			socket.on('data', (chunk: Buffer) => (text += chunk.toString('latin1')));
			socket.on('end', () => resolve(text));
			socket.on('error', reject);
		});
		assert.match(raw, /^HTTP\/1\.1 200 /);
	});

	it('answers any name when --allow-remote is given', async () => {
		const open = await startSandbox({ size: 'small', passwordCost: 1024, allowRemote: true });
		try {
			const res = await send(open.postingWsdl, { headers: { host: 'sandbox.lan.example:8080' } });
			assert.equal(res.status, 200);
		} finally {
			await open.stop();
		}
		assert.equal(isAllowedHostHeader('evil.example', { allowRemote: true }), true);
		assert.equal(isAllowedHostHeader('evil.example', {}), false);
		assert.equal(isLoopbackHost('localhost.'), true);
		assert.equal(isLoopbackHost('localhost.evil.example'), false);
	});

	it('answers the names it is told to (--allowed-host, the bound interface), with or without a port', () => {
		const policy = { allowedHosts: ['code.example.com', 'Proxy.Example:8443', '[fd00::5]', '::2', '192.168.1.5'] };
		for (const host of [
			'code.example.com',
			'CODE.example.com.:443',
			'proxy.example:1',
			'[fd00::5]:80',
			'[::2]',
			'192.168.1.5:8123',
		]) {
			assert.equal(isAllowedHostHeader(host, policy), true, host);
		}
		for (const host of ['evil.example', 'code.example.com.evil.example', 'example.com', '192.168.1.6']) {
			assert.equal(isAllowedHostHeader(host, policy), false, host);
		}
	});

	it("works behind code-server's /proxy/<port>/, which forwards the browser's Host, once that name is allowed", async () => {
		// code-server's path proxy is http-proxy without changeOrigin: the path loses /proxy/<port>, the
		// Host header stays the one the browser sent to code-server, and no X-Forwarded-Host is added.
		const viaProxy = async (sandbox: RunningEmulator): Promise<{ status: number; body: string }> => {
			const target = new URL(sandbox.baseUrl);
			const proxy: Server = createServer((req, res) => {
				const path = (req.url ?? '/').replace(/^\/proxy\/\d+/, '') || '/';
				const upstream = request(
					{ host: target.hostname, port: target.port, path, method: req.method, headers: req.headers },
					(answer: IncomingMessage) => {
						res.writeHead(answer.statusCode ?? 502, answer.headers);
						answer.pipe(res);
					},
				);
				req.pipe(upstream);
			});
			await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
			try {
				const proxyPort = (proxy.address() as AddressInfo).port;
				return await send(`http://127.0.0.1:${proxyPort}/proxy/${target.port}/SOAP/Posting.asmx?WSDL`, {
					headers: { host: 'code.example.com' },
				});
			} finally {
				proxy.close();
			}
		};
		assert.equal((await viaProxy(emulator)).status, 403);
		const proxied = await startSandbox({ size: 'small', passwordCost: 1024, allowedHosts: ['code.example.com'] });
		try {
			const res = await viaProxy(proxied);
			assert.equal(res.status, 200, res.body);
			assert.match(res.body, /<wsdl:definitions/);
			// Other names are still refused.
			assert.equal((await send(proxied.postingWsdl, { headers: { host: 'evil.example' } })).status, 403);
		} finally {
			await proxied.stop();
		}
	});
});
