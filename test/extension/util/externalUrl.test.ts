import * as assert from 'node:assert/strict';
import { joinExternal } from '../../../src/extension/util/externalUrl';

describe('external URLs (asExternalUri)', function () {
	it('keeps a URL that desktop VS Code returns unchanged', function () {
		const url = 'http://127.0.0.1:8099/complete-posting/abc?x=1#top';
		assert.equal(joinExternal(url, url), url);
	});

	it("puts back the path, query and fragment that code-server's proxy mapping drops", function () {
		assert.equal(
			joinExternal('http://127.0.0.1:8099/complete-posting/abc', 'http://127.0.0.1:8080/proxy/8099/'),
			'http://127.0.0.1:8080/proxy/8099/complete-posting/abc',
		);
		assert.equal(
			joinExternal('http://127.0.0.1:8099/login/t?returnUrl=%2Fweb%2F#m', 'https://ide.example/proxy/8099'),
			'https://ide.example/proxy/8099/login/t?returnUrl=%2Fweb%2F#m',
		);
		assert.equal(
			joinExternal('http://127.0.0.1:8099/', 'http://127.0.0.1:8080/proxy/8099/'),
			'http://127.0.0.1:8080/proxy/8099/',
		);
	});

	it('keeps the path of a forwarded port (remote windows)', function () {
		assert.equal(
			joinExternal('http://localhost:8099/web/adverts/5', 'http://localhost:51234/web/adverts/5'),
			'http://localhost:51234/web/adverts/5',
		);
	});
});
