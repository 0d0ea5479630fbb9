import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

describe('settings documentation', function () {
	it('lists every contributed setting in docs/extension.md', function () {
		const root = join(__dirname, '..', '..', '..');
		const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
			contributes: { configuration: { properties: Record<string, unknown> } };
		};
		const docs = readFileSync(join(root, 'docs', 'extension.md'), 'utf8');
		const missing = Object.keys(manifest.contributes.configuration.properties).filter(
			(name) => !docs.includes(`| \`${name}\` |`),
		);
		assert.deepEqual(missing, [], 'each setting has a row in the settings table');
	});
});
