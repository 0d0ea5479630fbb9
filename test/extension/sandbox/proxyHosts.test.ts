import * as assert from 'node:assert/strict';
import { proxyHostNames } from '../../../src/extension/sandbox/proxyHosts';

describe('sandbox behind the web host proxy: names to allow', () => {
	it("names code-server's host for its /proxy/<port>/ and its port domains", async () => {
		const asked: string[] = [];
		const viaPath = async (url: string) => {
			asked.push(url);
			return `https://code.example.com/proxy/${new URL(url).port}/`;
		};
		assert.deepEqual(await proxyHostNames(24817, viaPath), ['code.example.com']);
		assert.deepEqual(asked, ['http://127.0.0.1:24817/']);
		assert.deepEqual(await proxyHostNames(8123, async (url) => `https://${new URL(url).port}.code.example.com/`), [
			'8123.code.example.com',
		]);
	});

	it('names nothing when links stay on loopback (desktop, a localhost forward) or the port is not known yet', async () => {
		assert.deepEqual(await proxyHostNames(24817, async () => 'http://localhost:50123/'), []);
		assert.deepEqual(await proxyHostNames(24817, async (url) => url), []);
		let called = false;
		assert.deepEqual(
			await proxyHostNames(0, async () => {
				called = true;
				return 'https://code.example.com/proxy/0/';
			}),
			[],
		);
		assert.equal(called, false);
	});
});
