/**
 * The address to open in the user's browser for a URL of the service or the sandbox, given what
 * VS Code's asExternalUri made of it. Desktop VS Code returns it unchanged; a remote window forwards
 * the port and keeps the path; code-server maps a loopback origin to its own `/proxy/<port>/` path
 * but drops the URL's path, query and fragment, which are put back here.
 */
export function joinExternal(original: string, resolved: string): string {
	const from = new URL(original);
	const to = new URL(resolved);
	if (to.pathname.endsWith(from.pathname) && (to.search === from.search || from.search === '')) {
		if (!to.hash && from.hash) to.hash = from.hash;
		return to.toString();
	}
	const base = to.pathname.endsWith('/') ? to.pathname : `${to.pathname}/`;
	to.pathname = base + from.pathname.replace(/^\/+/, '');
	to.search = from.search;
	to.hash = from.hash;
	return to.toString();
}

/** True for an http(s) URL (the only kind the extension opens in a browser for the service). */
export function isWebUrl(text: string): boolean {
	try {
		const url = new URL(text);
		return url.protocol === 'http:' || url.protocol === 'https:';
	} catch {
		return false;
	}
}
