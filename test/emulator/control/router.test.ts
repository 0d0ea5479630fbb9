import * as assert from 'node:assert/strict';
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ControlError, ControlRouter, isLoopbackAddress } from '../../../src/emulator/control/router';

interface Answer {
	status: number;
	headers: Record<string, string | string[] | undefined>;
	json: unknown;
}

function call(port: number, method: string, path: string, body?: string, remote?: string): Promise<Answer> {
	return new Promise((resolve, reject) => {
		const headers = remote ? { 'x-test-remote': remote } : {};
		const req = request({ host: '127.0.0.1', port, method, path, headers }, (res) => {
			const chunks: Buffer[] = [];
			res.on('data', (chunk: Buffer) => chunks.push(chunk));
			res.on('end', () => {
				const text = Buffer.concat(chunks).toString('utf8');
				resolve({
					status: res.statusCode ?? 0,
					headers: res.headers,
					json: text ? JSON.parse(text) : undefined,
				});
			});
		});
		req.on('error', reject);
		req.end(body);
	});
}

describe('control router', () => {
	let server: Server;
	let port: number;
	const router = new ControlRouter()
		.add('GET', '/__admin/things', ({ query }) => ({ body: { name: query.get('name') } }))
		.add('GET', '/__admin/things/:id', ({ params }) => {
			if (params.id === 'missing') throw new ControlError(404, 'No thing missing.');
			return { body: { id: params.id } };
		})
		.add('POST', '/__admin/things', ({ body }) => ({ status: 201, body: { got: body } }))
		.add('GET', '/__admin/broken', () => {
			throw new Error('secret internals');
		});

	before(async () => {
		server = createServer((req, res) => {
			// Stands in for a client on another machine: the socket's address is what the router checks.
			const remote = req.headers['x-test-remote'];
			if (typeof remote === 'string') Object.defineProperty(req.socket, 'remoteAddress', { value: remote });
			router.handle(req, res).catch(() => undefined);
		});
		await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
		port = (server.address() as AddressInfo).port;
	});
	after(() => new Promise<void>((resolve) => server.close(() => resolve())));

	it('answers a route with JSON and its named segments decoded', async () => {
		const answer = await call(port, 'GET', '/__admin/things/a%20b');
		assert.equal(answer.status, 200);
		assert.match(String(answer.headers['content-type']), /^application\/json/);
		assert.equal(answer.headers['cache-control'], 'no-store');
		assert.deepEqual(answer.json, { id: 'a b' });
		assert.deepEqual((await call(port, 'GET', '/__admin/things?name=x')).json, { name: 'x' });
	});

	it('hands a POST its body and answers its status', async () => {
		const answer = await call(port, 'POST', '/__admin/things', '{"a":1}');
		assert.equal(answer.status, 201);
		assert.deepEqual(answer.json, { got: '{"a":1}' });
	});

	it('answers 404 with the routes, 405 with Allow, a ControlError with its status, a failure without details', async () => {
		const unknown = await call(port, 'GET', '/__admin/nothing');
		assert.equal(unknown.status, 404);
		assert.ok((unknown.json as { routes: string[] }).routes.includes('GET /__admin/things/:id'));
		const wrongMethod = await call(port, 'DELETE', '/__admin/things');
		assert.equal(wrongMethod.status, 405);
		assert.equal(wrongMethod.headers.allow, 'GET, POST');
		const missing = await call(port, 'GET', '/__admin/things/missing');
		assert.equal(missing.status, 404);
		assert.deepEqual(missing.json, { error: 'No thing missing.' });
		const broken = await call(port, 'GET', '/__admin/broken');
		assert.equal(broken.status, 500);
		assert.doesNotMatch(JSON.stringify(broken.json), /secret internals/);
	});

	it('answers 403 to a client that is not loopback, on every path', async () => {
		for (const path of ['/__admin/things', '/__admin/things/1', '/__admin/nothing']) {
			const answer = await call(port, 'GET', path, undefined, '192.168.1.20');
			assert.equal(answer.status, 403, path);
			assert.match(JSON.stringify(answer.json), /loopback clients only/);
		}
	});

	it('refuses a route registered twice or outside /__admin/', () => {
		assert.throws(() => router.add('GET', '/__admin/things', () => ({})), /registered already/);
		assert.throws(() => router.add('GET', '/things', () => ({})), /live under \/__admin\//);
	});

	it('tells loopback addresses from others', () => {
		for (const address of ['127.0.0.1', '127.8.9.10', '::1', '::ffff:127.0.0.1']) {
			assert.equal(isLoopbackAddress(address), true, address);
		}
		for (const address of ['10.0.0.1', '192.168.1.2', '::ffff:10.0.0.1', 'fe80::1', '', undefined]) {
			assert.equal(isLoopbackAddress(address), false, String(address));
		}
	});
});
