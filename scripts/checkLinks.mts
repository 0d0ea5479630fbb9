/**
 * Checks every relative link and anchor in the repository's Markdown files, offline: the file or folder
 * must exist and a `#fragment` into a Markdown file must name one of its headings (GitHub's slugs) or
 * an explicit `id`/`name`. Web links are not fetched. Run by `npm run lint`:
 *
 *     node scripts/checkLinks.mts [root]
 *
 * Written in erasable TypeScript as an ES module so that Node runs it as it is (lint runs before
 * anything is compiled).
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export interface BrokenLink {
	/** The Markdown file, relative to the root, with `/` separators. */
	file: string;
	line: number;
	target: string;
	reason: string;
}

/** Folders that hold generated, installed or tool-owned files, never the project's documentation. */
const SKIPPED_FOLDERS = new Set(['node_modules', 'out', 'dist', 'test-results', 'coverage']);

/** Every `.md` file under root, skipping dot-folders and the folders above; sorted for stable output. */
export function markdownFiles(root: string): string[] {
	const found: string[] = [];
	const walk = (folder: string): void => {
		for (const entry of readdirSync(folder, { withFileTypes: true })) {
			if (entry.isDirectory()) {
				if (!entry.name.startsWith('.') && !SKIPPED_FOLDERS.has(entry.name)) walk(join(folder, entry.name));
			} else if (entry.isFile() && entry.name.endsWith('.md')) {
				found.push(join(folder, entry.name));
			}
		}
	};
	walk(root);
	return found.sort();
}

/** The lines of a Markdown text outside fenced code blocks, with their 1-based numbers. */
function proseLines(markdown: string): { text: string; line: number }[] {
	const lines: { text: string; line: number }[] = [];
	let fence: string | undefined;
	markdown.split(/\r?\n/).forEach((text, index) => {
		const marker = /^ {0,3}(`{3,}|~{3,})/.exec(text)?.[1];
		if (fence === undefined && marker !== undefined) {
			fence = marker;
		} else if (fence !== undefined) {
			if (marker !== undefined && marker[0] === fence[0] && marker.length >= fence.length) fence = undefined;
		} else {
			lines.push({ text, line: index + 1 });
		}
	});
	return lines;
}

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces as hyphens. */
export function headingSlug(heading: string): string {
	const text = heading
		.replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
		.replace(/<[^>]+>/g, '')
		.trim()
		.toLowerCase();
	return text.replace(/[^\p{L}\p{M}\p{N}\p{Pc}\- ]/gu, '').replace(/ /g, '-');
}

/** Every anchor a Markdown text defines: its headings' slugs (repeats get -1, -2, …) and HTML ids. */
export function anchorsOf(markdown: string): Set<string> {
	const anchors = new Set<string>();
	const seen = new Map<string, number>();
	for (const { text } of proseLines(markdown)) {
		const heading = /^ {0,3}#{1,6}\s+(.*?)\s*#*\s*$/.exec(text)?.[1];
		if (heading !== undefined) {
			const slug = headingSlug(heading);
			const count = seen.get(slug) ?? 0;
			seen.set(slug, count + 1);
			anchors.add(count === 0 ? slug : `${slug}-${count}`);
		}
		for (const match of text.matchAll(/<[a-z][^>]*\s(?:id|name)="([^"]+)"/gi)) anchors.add(match[1]);
	}
	return anchors;
}

/** The link targets of a Markdown text with their lines: inline links and images, definitions, HTML. */
export function linksOf(markdown: string): { target: string; line: number }[] {
	const links: { target: string; line: number }[] = [];
	for (const { text, line } of proseLines(markdown)) {
		const prose = text.replace(/(`+)[^`]*?\1/g, '');
		const patterns = [
			/\]\(\s*<([^>]*)>/g, // [text](<target with spaces>)
			/\]\(\s*([^)\s<][^)\s]*)/g, // [text](target "title")
			/^ {0,3}\[[^\]]+\]:\s*<?([^\s>]+)/g, // [label]: target
			/<(?:a|img)\s[^>]*(?:href|src)="([^"]+)"/gi,
		];
		for (const pattern of patterns) {
			for (const match of prose.matchAll(pattern)) links.push({ target: match[1], line });
		}
	}
	return links;
}

/** Web and other scheme links (`https:`, `mailto:`, `vscode:`, …) are not checked offline. */
function isExternal(target: string): boolean {
	return /^[a-z][a-z0-9+.-]*:/i.test(target) || target.startsWith('//');
}

/** Every broken relative link or anchor in the Markdown files under root. */
export function brokenLinks(root: string): BrokenLink[] {
	const absoluteRoot = resolve(root);
	const anchorCache = new Map<string, Set<string>>();
	const anchorsOfFile = (path: string): Set<string> => {
		let anchors = anchorCache.get(path);
		if (anchors === undefined) {
			anchors = anchorsOf(readFileSync(path, 'utf8'));
			anchorCache.set(path, anchors);
		}
		return anchors;
	};
	const broken: BrokenLink[] = [];
	for (const file of markdownFiles(absoluteRoot)) {
		const name = relative(absoluteRoot, file).split('\\').join('/');
		for (const { target, line } of linksOf(readFileSync(file, 'utf8'))) {
			if (isExternal(target)) continue;
			const report = (reason: string): void => void broken.push({ file: name, line, target, reason });
			const hashAt = target.indexOf('#');
			let pathPart: string;
			let anchor: string | undefined;
			try {
				pathPart = decodeURIComponent(hashAt < 0 ? target : target.slice(0, hashAt));
				anchor = hashAt < 0 ? undefined : decodeURIComponent(target.slice(hashAt + 1));
			} catch {
				report('not a valid percent-encoded address');
				continue;
			}
			const resolved =
				pathPart === ''
					? file
					: pathPart.startsWith('/')
						? join(absoluteRoot, pathPart)
						: resolve(dirname(file), pathPart);
			if (!existsSync(resolved)) {
				report(`no such file or folder: ${relative(absoluteRoot, resolved).split('\\').join('/')}`);
			} else if (anchor && resolved.endsWith('.md') && statSync(resolved).isFile()) {
				if (!anchorsOfFile(resolved).has(anchor)) report(`no heading or id "${anchor}" in that file`);
			}
		}
	}
	return broken;
}

// Run as a command, not when a test imports it.
if (process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
	const root = process.argv[2] ?? process.cwd();
	const broken = brokenLinks(root);
	for (const link of broken) console.error(`${link.file}:${link.line}: broken link "${link.target}": ${link.reason}`);
	const files = markdownFiles(resolve(root)).length;
	console.log(
		broken.length === 0
			? `Links: every relative link and anchor in ${files} Markdown files resolves.`
			: `Links: ${broken.length} broken in ${files} Markdown files (fix the link, or the heading it names).`,
	);
	process.exitCode = broken.length === 0 ? 0 : 1;
}
