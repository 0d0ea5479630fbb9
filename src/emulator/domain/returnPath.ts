/**
 * Return paths of login links: only a path on the sandbox's own origin, judged after the URL parser
 * has normalised it (dot segments, `%2e`), so `/.//evil.example/x` cannot become `//evil.example/x`.
 */

/** A stand-in origin to resolve against; any path that leaves it is refused. */
const SELF = 'http://sandbox.invalid';

/** The normalised same-origin path of a return URL, or undefined when it is not one. */
export function sameOriginPath(returnUrl: string | null | undefined): string | undefined {
	// Backslashes, whitespace and controls are refused before parsing: parsers and browsers read them differently.
	// eslint-disable-next-line no-control-regex
	if (!returnUrl || !returnUrl.startsWith('/') || /[\\\s\u0000-\u001f\u007f]/.test(returnUrl)) return undefined;
	let resolved: URL;
	try {
		resolved = new URL(returnUrl, SELF);
	} catch {
		return undefined;
	}
	if (resolved.origin !== SELF) return undefined;
	const path = `${resolved.pathname}${resolved.search}${resolved.hash}`;
	// A Location starting with `//` or `/\` is another host to a browser.
	return /^\/(?![/\\])/.test(path) ? path : undefined;
}
