import * as assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

type CheckLinks = typeof import('../../scripts/checkLinks.mjs', { with: { 'resolution-mode': 'import' } });

/** The repository root, from out/test/scripts. */
const ROOT = join(__dirname, '..', '..', '..');

describe('Markdown link check (scripts/checkLinks.mts)', function () {
	let checkLinks: CheckLinks;
	let folder: string;

	before(async function () {
		checkLinks = await import('../../scripts/checkLinks.mjs');
	});
	beforeEach(function () {
		folder = mkdtempSync(join(tmpdir(), 'mp-links-'));
	});
	afterEach(function () {
		rmSync(folder, { recursive: true, force: true });
	});

	function write(path: string, text: string): void {
		mkdirSync(join(folder, path, '..'), { recursive: true });
		writeFileSync(join(folder, path), text);
	}

	it('reports a missing file, a missing anchor here and one in another file, with file and line', function () {
		write('README.md', '# Title\n\nSee [docs](docs/guide.md) and [gone](docs/gone.md).\n\n[self](#nowhere)\n');
		write('docs/guide.md', '# Guide\n\n[back](../README.md#title), [wrong](../README.md#titles)\n');
		assert.deepEqual(
			checkLinks.brokenLinks(folder).map((l) => `${l.file}:${l.line} ${l.target}`),
			['README.md:3 docs/gone.md', 'README.md:5 #nowhere', 'docs/guide.md:3 ../README.md#titles'],
		);
	});

	it("accepts GitHub's heading anchors, repeated headings, HTML ids, folders and root-relative paths", function () {
		write(
			'README.md',
			[
				'# Where the spec is silent: the choices made',
				'## In CI: the `multiposting-test` command',
				'## Notes',
				'## Notes',
				'<a id="kept-anchor"></a>',
				'[a](#where-the-spec-is-silent-the-choices-made) [b](#in-ci-the-multiposting-test-command)',
				'[c](#notes-1) [d](#kept-anchor) [e](docs/) [f](/docs/page.md#page) [g](<docs/page.md>)',
				'[ref]: docs/page.md',
			].join('\n'),
		);
		write('docs/page.md', '# Page\n');
		assert.deepEqual(checkLinks.brokenLinks(folder), []);
	});

	it('does not check web links or links written inside code', function () {
		write(
			'README.md',
			[
				'[web](https://example.invalid/x) [mail](mailto:a@example.invalid) `[code](missing.md)`',
				'```',
				'[fenced](missing.md)',
				'# Not a heading',
				'```',
				'[after the fence](#not-a-heading)',
			].join('\n'),
		);
		assert.deepEqual(
			checkLinks.brokenLinks(folder).map((l) => l.target),
			['#not-a-heading'],
		);
	});

	it('skips installed and generated folders', function () {
		write('node_modules/pkg/README.md', '[x](missing.md)\n');
		write('out/notes.md', '[x](missing.md)\n');
		write('.cache/tool/README.md', '[x](missing.md)\n');
		assert.deepEqual(checkLinks.markdownFiles(folder), []);
	});

	it("finds no broken link in the repository's own Markdown", function () {
		const broken = checkLinks.brokenLinks(ROOT).map((l) => `${l.file}:${l.line}: ${l.target} (${l.reason})`);
		assert.deepEqual(broken, []);
	});
});
